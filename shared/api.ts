/** HTTP API shapes (JSON bodies) shared by worker and client. */
import { z } from "zod";
import { AgentInfo } from "./tunnel-protocol";
import { SessionState } from "./viewer-protocol";
import { SessionWorktree, WorktreeRequest } from "./worktree";

export const MachineSummary = z.object({
  id: z.string(),
  name: z.string(),
  online: z.boolean(),
  hostname: z.string().nullable(),
  agents: z.array(AgentInfo),
  roots: z.array(z.string()),
  lastSeenAt: z.number().nullable(),
  /** What the daemon said in its last hello (null before it first connected). */
  daemonVersion: z.string().nullable().optional(),
  protocolVersion: z.number().nullable().optional(),
});
export type MachineSummary = z.infer<typeof MachineSummary>;

export const SessionSummary = z.object({
  id: z.string(),
  title: z.string(),
  machineId: z.string(),
  machineName: z.string(),
  agentId: z.string(),
  agentLabel: z.string(),
  cwd: z.string(),
  status: z.string() as z.ZodType<SessionState | string>,
  createdAt: z.number(),
  lastActivityAt: z.number(),
  /** The first prompt, one line (null until one ran). */
  firstPrompt: z.string().nullish(),
  /** The agent's own title for the session (ACP `session_info_update`), when it gave one. */
  agentTitle: z.string().nullish(),
  /** The git worktree the session runs in (issue 28); absent / null when it runs in `cwd` as given. */
  worktree: SessionWorktree.nullish(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

export const CreateSessionBody = z.object({
  machineId: z.string().min(1).max(128),
  agentId: z.string().min(1).max(64),
  cwd: z.string().min(1).max(4096),
  title: z.string().max(200).optional(),
  /** Run in a new git worktree of the repository `cwd` lies in (issue 28). */
  worktree: WorktreeRequest.optional(),
});
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

export const AuthModeName = z.enum(["dev", "access", "builtin"]);
export type AuthModeName = z.infer<typeof AuthModeName>;

/** "guest": admitted only by invitations — the invited sessions and nothing else (worker/auth/account-scope.ts). */
export const AccountScope = z.enum(["full", "guest"]);
export type AccountScope = z.infer<typeof AccountScope>;
export const Me = z.object({ id: z.string(), name: z.string(), email: z.string(), authMode: AuthModeName.optional(), scope: AccountScope.optional() });
export type Me = z.infer<typeof Me>;

// ---------------------------------------------------------------- members and sign-in

/** Roles an owner can grant (the owner is whoever created the session). */
export const GrantableRole = z.enum(["member", "viewer"]);
export const AddMemberBody = z.object({ email: z.string().trim().toLowerCase().email().max(254), role: GrantableRole });
export type AddMemberBody = z.infer<typeof AddMemberBody>;
export const SetRoleBody = z.object({ role: GrantableRole });

export const Member = z.object({ userId: z.string(), email: z.string(), name: z.string(), role: z.enum(["owner", "member", "viewer"]) });
export type Member = z.infer<typeof Member>;

/** GET /api/auth/config: what the sign-in page should offer. */
export const AuthConfig = z.object({ mode: AuthModeName.nullable() });
export type AuthConfig = z.infer<typeof AuthConfig>;
