/**
 * What an account may do beyond the sessions it was given. In built-in sign-in, an address on the allow
 * lists has a full account; one admitted only because a session owner invited it is a guest: it sees and
 * acts in those sessions (per its role there) and nothing else — no machines, no new sessions, no
 * invitations — and its sign-in ends with its last membership. Access and dev identities are full
 * (Access itself decides who gets in).
 */
import type { AccountScope } from "../../shared/api";
import type { Env } from "../env";
import type { AuthMode } from "./auth-mode";
import { allowListed } from "./login-codes";

export function accountScope(mode: AuthMode, email: string, env: Pick<Env, "BUILTIN_ALLOWED_EMAILS" | "BUILTIN_ALLOWED_DOMAINS">): AccountScope {
  if (mode !== "builtin") return "full";
  return allowListed(email, env.BUILTIN_ALLOWED_EMAILS, env.BUILTIN_ALLOWED_DOMAINS) ? "full" : "guest";
}
