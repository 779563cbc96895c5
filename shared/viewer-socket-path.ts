/**
 * Where a viewer opens its session socket (the Worker routes it to the session's room). Its own module,
 * without zod: the client's session page imports it and must not load the schemas.
 */
export const viewerSocketPath = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}/ws`;
