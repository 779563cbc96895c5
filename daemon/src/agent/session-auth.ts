/**
 * What a session knows about logging its agent in: the `authMethods` from `initialize` (reported with a failed
 * open) and the agent's `_auth/status_update` reports (a logged-out report becomes one visible notice per change).
 */
import * as acp from "@agentclientprotocol/sdk";
import type { AuthMethod } from "../../../shared/viewer-protocol";
import { isRecord } from "./acp-tap";
import { authMethodsFrom, authStatusFrom } from "./agent-config";
import { AUTH_REQUIRED_CODE } from "./agent-rpc";

export class SessionAuth {
  /** From `initialize`: how to log the agent in. */
  methods: AuthMethod[] = [];
  /** Last `_auth/status_update` said "logged out". */
  private loggedOut = false;

  /** The preset's login command, for auth methods without a `terminal-auth` hint of their own. */
  constructor(private readonly loginHint: string | null) {}

  fromInitialize(init: unknown): void {
    this.methods = authMethodsFrom(isRecord(init) ? init.authMethods : undefined, this.loginHint);
  }

  /**
   * How to log in, reported with a failed open: the agent's advertised methods, else those an `auth_required`
   * error carries (pi-acp puts them in its data), else the preset's login command.
   */
  methodsFor(err: unknown): AuthMethod[] {
    const authRequired = err instanceof acp.RequestError && err.code === AUTH_REQUIRED_CODE;
    if (this.methods.length) return this.methods;
    if (!authRequired) return [];
    const fromError = authMethodsFrom(isRecord(err.data) ? err.data.authMethods : undefined, this.loginHint);
    if (fromError.length) return fromError;
    return this.loginHint ? [{ id: "login", name: "Log in", description: null, command: this.loginHint }] : [];
  }

  /** The notice to show for an `_auth/status_update`, or null (no change, logged in, malformed). */
  noticeFor(params: unknown): string | null {
    const status = authStatusFrom(params);
    if (!status || status.loggedOut === this.loggedOut) return null;
    this.loggedOut = status.loggedOut;
    if (!status.loggedOut) return null;
    const how = this.methods.find((a) => a.command)?.command ?? this.loginHint;
    return `The agent reports it is not logged in on this machine${status.label ? ` (${status.label})` : ""}.${how ? ` To log in, run there: ${how}` : ""}`;
  }
}
