/**
 * `baton attach` (issue 30 #1): the user sign-in it uses and the socket it opens, shared by the Worker, the
 * daemon and the client. Its own module, without zod at the top of the client's session page.
 */
import { z } from "zod";

/**
 * Where `baton attach` opens a session's viewer socket: the member's socket, but the user proven by a user
 * token (`Authorization: Bearer …`) instead of a browser's sign-in. A user token opens nothing else.
 */
export const attachSocketPath = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}/attach`;

/** User tokens start with this, so a machine token pasted in its place is told apart (machine tokens: `bt_`). */
export const USER_TOKEN_PREFIX = "bu_";

/** POST /api/device/token's answer to a user sign-in (`kind: "user"` in the code request). */
export const UserTokenResponse = z.object({ token: z.string(), user: z.object({ id: z.string(), name: z.string(), email: z.string() }) });
export type UserTokenResponse = z.infer<typeof UserTokenResponse>;

/** A live sign-in as the Machines page lists it (never the token: only its hash is stored). */
export const UserTokenSummary = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
});
export type UserTokenSummary = z.infer<typeof UserTokenSummary>;
export type UserTokensReply = { tokens: UserTokenSummary[] };
