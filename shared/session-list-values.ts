/** The session list's plain values (no imports): what both the zod schemas (session-list.ts) and the zod-free rules (session-list-rules.ts) name. */

/** Longest title a person can give a session (a heading, not a paragraph). */
export const MAX_SESSION_TITLE = 120;

/** What the list shows as a session's status (the room's state folded with the machine's and the markers). */
export const ListStatus = { running: "running", idle: "idle", needsYou: "needs_you", offline: "offline", error: "error", starting: "starting" } as const;
export type ListStatus = (typeof ListStatus)[keyof typeof ListStatus];
