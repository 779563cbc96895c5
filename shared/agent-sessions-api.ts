/** HTTP shapes of the agent's own sessions (issue 26): list, import, fork. Worker: worker/agent-session-routes.ts. */
import { z } from "zod";
import { AgentSessionInfo } from "./tunnel-ask";

/** GET /api/machines/:machineId/agents/:agentId/sessions?cwd=…&cursor=… */
export const AgentSessionsAnswer = z.object({ sessions: z.array(AgentSessionInfo), nextCursor: z.string().nullable() });
export type AgentSessionsAnswer = z.infer<typeof AgentSessionsAnswer>;

/** POST /api/sessions/import: a Baton session bound to the agent's session, its history relayed once. */
export const ImportSessionBody = z.object({
  machineId: z.string().min(1).max(128),
  agentId: z.string().min(1).max(64),
  cwd: z.string().min(1).max(4096),
  agentSessionId: z.string().min(1).max(512),
});
export type ImportSessionBody = z.infer<typeof ImportSessionBody>;

/** POST /api/sessions/:id/fork (no body): a new session with the original's rows, bound to the agent's fork. */
export const ForkAnswer = z.object({ session: z.object({ id: z.string() }).passthrough(), truncated: z.boolean() });
export type ForkAnswer = z.infer<typeof ForkAnswer>;
export { agentSessionsPath, forkPath, IMPORT_PATH } from "./agent-sessions-paths";
