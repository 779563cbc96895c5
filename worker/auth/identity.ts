/**
 * Who is calling. Modes (env AUTH_MODE):
 * - "dev": a fixed local identity — only on a server the local stack started (`LOCAL_STACK`) and only for
 *   requests to a loopback host, so a mistaken deploy with AUTH_MODE=dev is closed, not open.
 * - "access": Cloudflare Access in front; the `Cf-Access-Jwt-Assertion` JWT is verified (worker/auth/access-jwt.ts).
 * - "builtin": email + one-time code sign-in; a session cookie (worker/auth/login-codes.ts, auth-sessions.ts).
 * Anything else (including unset) authenticates nobody.
 */
import type { AccountScope } from "../../shared/api";
import { isInvited, upsertUser, type User } from "../d1-directory";
import { accountScope } from "./account-scope";
import { AuthMode } from "./auth-mode";
import type { Env } from "../env";
import { ACCESS_JWT_HEADER, verifyAccessJwt } from "./access-jwt";
import { userForAuthSession } from "./auth-sessions";
import { isLocalStack, sessionCookieName } from "./local-stack";

export const DEV_USER = { email: "dev@localhost", name: "Developer" } as const;

export { AuthMode };

/** How the identity was proven (cookie-borne ones — Access also rides on a cookie — need CSRF checks) and its scope. */
export type Identity = { user: User; via: AuthMode; scope: AccountScope };

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopback(url: string): boolean {
  return LOOPBACK_HOSTS.has(new URL(url).hostname);
}

export function authMode(env: Env): AuthMode | null {
  const m = env.AUTH_MODE;
  return m === "dev" || m === "access" || m === "builtin" ? m : null;
}

/**
 * A cookie value from the Cookie header, without a cookie library. A name sent twice is refused: the
 * second one was set by another host or path to shadow ours, and which one is genuine cannot be told.
 */
export function readCookie(request: Request, name: string): string | undefined {
  let found: string | undefined;
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      if (found !== undefined) return undefined;
      found = part.slice(eq + 1).trim();
    }
  }
  return found;
}

export async function resolveIdentity(env: Env, request: Request): Promise<Identity | null> {
  const mode = authMode(env);
  switch (mode) {
    case "dev":
      if (!isLocalStack(env) || !isLoopback(request.url)) return null;
      return { user: await upsertUser(env.DB, DEV_USER.email, DEV_USER.name), via: mode, scope: "full" };
    case "access": {
      if (!env.ACCESS_TEAM_DOMAIN || !env.ACCESS_AUD) return null;
      const claims = await verifyAccessJwt({ teamDomain: env.ACCESS_TEAM_DOMAIN, audience: env.ACCESS_AUD }, request.headers.get(ACCESS_JWT_HEADER));
      if (!claims) return null;
      return { user: await upsertUser(env.DB, claims.email, claims.name ?? claims.email.split("@")[0] ?? claims.email), via: mode, scope: "full" };
    }
    case "builtin": {
      const user = await userForAuthSession(env.DB, readCookie(request, sessionCookieName(env)));
      if (!user) return null;
      const scope = accountScope(mode, user.email, env);
      // A guest's sign-in lasts as long as one invitation does.
      if (scope === "guest" && !(await isInvited(env.DB, user.email))) return null;
      return { user, via: mode, scope };
    }
    case null:
      return null;
  }
}

function allowedOrigins(env: Env, request: Request): string[] {
  const extra = (env.ALLOWED_ORIGINS ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  return [new URL(request.url).origin, ...extra];
}

/** A browser always sends Origin on a WebSocket upgrade; it must be this site (or an allowed one). */
export function originAllowed(env: Env, request: Request): boolean {
  const origin = request.headers.get("Origin");
  if (origin === null) return true;
  return allowedOrigins(env, request).includes(origin);
}

/**
 * CSRF guard for state-changing requests carrying browser credentials (cookies, Access): the
 * Origin header must be present and ours. Browsers always send Origin on cross-origin requests and
 * on same-origin non-GET fetches, so a missing Origin means "not a browser we can trust".
 */
export function sameOriginWrite(env: Env, request: Request): boolean {
  const origin = request.headers.get("Origin");
  return origin !== null && allowedOrigins(env, request).includes(origin);
}
