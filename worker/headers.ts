/** Headers the Worker sets on requests it forwards to its Durable Objects (after checking the caller). */

/** The viewer (id, name, role) as JSON, on a viewer socket upgrade forwarded to a SessionRoom. */
export const VIEWER_HEADER = "x-baton-viewer";
/** The machine a tunnel token belongs to, on a tunnel upgrade forwarded to its Machine. */
export const MACHINE_ID_HEADER = "x-baton-machine-id";
