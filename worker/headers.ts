/** Headers the Worker sets on requests it forwards to its Durable Objects (after checking the caller). */

/** The viewer (id, name, role) as JSON, on a viewer socket upgrade forwarded to a SessionRoom. */
export const VIEWER_HEADER = "x-baton-viewer";
/** The machine a tunnel token belongs to, on a tunnel upgrade forwarded to its Machine. */
export const MACHINE_ID_HEADER = "x-baton-machine-id";
/** On a spectator's socket upgrade (issue 30 #3): its share link `{linkId, expiresAt}` as JSON, so the room can end it. */
export const SHARE_HEADER = "x-baton-share";
/** On an attached client's socket upgrade (`baton attach`, issue 30 #1): the user token's id, so revoking it closes the socket. */
export const ATTACH_HEADER = "x-baton-attach";
