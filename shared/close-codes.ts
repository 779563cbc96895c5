/**
 * Close codes the browser's sockets act on, in a module of their own (no zod, no rules): the session page
 * imports it and must stay small.
 */

/** A SessionRoom closes its viewers with this when the session was deleted (the page says so and goes to the list). */
export const CLOSE_SESSION_DELETED = 4410;
/**
 * A SessionRoom closes a spectator's socket with this when its share link was revoked or expired (the page
 * asks why and says so; no reconnect).
 */
export const CLOSE_SHARE_ENDED = 4412;
