import type { MachineRpc } from "./machine/machine-rpc";
import type { RoomRpc } from "./session-room/room-rpc";
import type { FeedRpc } from "./session-feed/feed-rpc";

export interface Env {
  SESSION_ROOM: DurableObjectNamespace<RoomRpc>;
  MACHINE: DurableObjectNamespace<MachineRpc>;
  /** One per user: the live session list's socket (worker/session-feed). */
  SESSION_FEED: DurableObjectNamespace<FeedRpc>;
  DB: D1Database;
  ASSETS?: Fetcher;
  /** "dev" | "access" | "builtin" — see worker/auth. */
  AUTH_MODE: string;
  ACCESS_TEAM_DOMAIN?: string;
  ACCESS_AUD?: string;
  /** builtin: HMAC key for sign-in codes (a secret: `wrangler secret put AUTH_SECRET`). */
  AUTH_SECRET?: string;
  /** builtin: comma-separated addresses / domains that may sign in (besides users invited to a session). */
  BUILTIN_ALLOWED_EMAILS?: string;
  BUILTIN_ALLOWED_DOMAINS?: string;
  /** builtin mail delivery: a `send_email` binding, or an HTTP mail API (see worker/auth/mailer.ts). */
  SEND_EMAIL?: SendEmail;
  MAIL_FROM?: string;
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
  /** Comma-separated extra origins allowed to open viewer sockets (besides the request's own host). */
  ALLOWED_ORIGINS?: string;
  MACHINE_BUDGET?: string;
  /**
   * "1" only when the server was started by this repository's local stack (`npm start`, tests): the dev
   * identity, the dev code-signing key and codes printed to the console need it. `npm run deploy` refuses it.
   */
  LOCAL_STACK?: string;
  /**
   * Web Push (worker/push): the VAPID private key, a P-256 JWK as JSON (a secret: `npm run vapid -- --secret`,
   * then `npx wrangler secret put VAPID_PRIVATE_KEY`), and the contact the push services see (`mailto:` or https URL).
   * Push is off unless both are set.
   */
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
}

export const roomStub = (env: Env, sessionId: string) => env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(sessionId));
export const machineStub = (env: Env, machineId: string) => env.MACHINE.get(env.MACHINE.idFromName(machineId));
export const feedStub = (env: Env, userId: string) => env.SESSION_FEED.get(env.SESSION_FEED.idFromName(userId));
