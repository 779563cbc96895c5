/** The routes of the agent's own sessions (issue 26), apart from their schemas so the client imports no zod for them. */
export const agentSessionsPath = (machineId: string, agentId: string, cwd: string, cursor?: string | null) =>
  `/api/machines/${encodeURIComponent(machineId)}/agents/${encodeURIComponent(agentId)}/sessions?${new URLSearchParams({ cwd, ...(cursor ? { cursor } : {}) })}`;
export const IMPORT_PATH = "/api/sessions/import";
export const forkPath = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}/fork`;
