/**
 * The tunnel's request / reply: a question the Worker needs answered now (not a numbered command). The
 * Machine sends `ask {id, request}`; the daemon answers `reply {id, …}` once. Neither is numbered nor kept:
 * with the tunnel down the Machine answers MACHINE_OFFLINE at once, and an answer that never comes is a
 * timeout. An unknown `kind` (a newer server) is answered with UNKNOWN_ASK, never dropped.
 * New kinds: one entry in AskRequest and one in AskResults.
 */
import { z } from "zod";
import { MAX_ID_LENGTH, MAX_LISTED_AGENT_SESSIONS } from "./limits";
import { CommitResult, DiffAgainst, GitStatus, GitTreeId, MAX_COMMIT_MESSAGE_CHARS, RepoInfo, SessionWorktree, WorktreeDiff, WorktreeRemoval } from "./worktree";

const Path = z.string().min(1).max(4096);
const AgentId = z.string().min(1).max(64);
const AgentSessionId = z.string().min(1).max(512);

/** Files a `files.list` answer names at most: a picker's worth, well under MAX_ASK_REPLY_BYTES at 4 KB a path. */
export const MAX_LISTED_FILES = 50;
/** A `files.list` query: what a person types after "@". */
export const MAX_FILE_QUERY_LENGTH = 256;

/** Asks about the machine's files (daemon/src/files), answered without an agent. */
export const FilesListRequest = z.object({
  kind: z.literal("files.list"),
  /** The session's directory (the Worker fills it in from the session, never from the viewer). */
  cwd: Path,
  /** Fuzzy-matched against each path relative to `cwd` (shared/fuzzy-match.ts); empty lists the first few. */
  query: z.string().max(MAX_FILE_QUERY_LENGTH),
});

export const AgentAskRequest = z.discriminatedUnion("kind", [
  /** One page of the agent's own sessions in `cwd` (ACP `session/list`). */
  z.object({ kind: z.literal("agent.sessions.list"), agentId: AgentId, cwd: Path, cursor: z.string().max(4096).nullish() }),
  /** Does the agent know this session in `cwd` (pages through `session/list`)? With its title. */
  z.object({ kind: z.literal("agent.sessions.find"), agentId: AgentId, cwd: Path, agentSessionId: AgentSessionId }),
  /** ACP `session/delete`. */
  z.object({ kind: z.literal("agent.sessions.delete"), agentId: AgentId, cwd: Path, agentSessionId: AgentSessionId }),
  /** ACP `session/fork`: a new agent session with the original's history; the original stays. */
  z.object({ kind: z.literal("agent.sessions.fork"), agentId: AgentId, cwd: Path, agentSessionId: AgentSessionId }),
]);
export type AgentAskRequest = z.infer<typeof AgentAskRequest>;

/** A session's git worktree (issue 28; daemon/src/git), answered without an agent. */
export const GitAskRequest = z.discriminatedUnion("kind", [
  /** Is `cwd` in a git repository (and which branches)? For New session's worktree option (issue 28). */
  z.object({ kind: z.literal("git.repo"), cwd: Path }),
  /** `git worktree add` of `base` on a new branch under the daemon's worktrees folder, for session `sessionId`. */
  z.object({ kind: z.literal("git.worktree.create"), cwd: Path, base: z.string().min(1).max(255), branch: z.string().min(1).max(255), sessionId: z.string().min(1).max(MAX_ID_LENGTH) }),
  /** Removes a session's worktree; without `force` one holding uncommitted or unpushed work is kept. */
  z.object({ kind: z.literal("git.worktree.remove"), path: Path, force: z.boolean() }),
  /** The worktree at `path` against its base: ahead / behind, changed files (issue 28 #4). */
  z.object({ kind: z.literal("git.status"), path: Path }),
  /** Stages everything in `path` and commits it with the person's message. A later `git.push` takes the same `path`. */
  z.object({ kind: z.literal("git.commit"), path: Path, message: z.string().min(1).max(MAX_COMMIT_MESSAGE_CHARS) }),
  /**
   * The files the checkout at `path` changed against its base or HEAD (`against`, default base), with their diffs
   * (bounded; issue 28 #2). With `from` and `to` (a turn's `turn.tree` snapshots): the changes between those two trees instead.
   */
  z
    .object({ kind: z.literal("git.diff"), path: Path, against: DiffAgainst.optional(), from: GitTreeId.optional(), to: GitTreeId.optional() })
    .refine((r) => (r.from === undefined) === (r.to === undefined), "from and to go together"),
]);
export type GitAskRequest = z.infer<typeof GitAskRequest>;

export const AskRequest = z.discriminatedUnion("kind", [...AgentAskRequest.options, FilesListRequest, ...GitAskRequest.options]);
export type AskRequest = z.infer<typeof AskRequest>;
export type AskKind = AskRequest["kind"];

export const AgentSessionInfo = z.object({
  agentSessionId: AgentSessionId,
  title: z.string().max(1000).nullable(),
  /** ISO 8601, as the agent gave it (null when it did not). */
  updatedAt: z.string().max(64).nullable(),
  cwd: z.string().max(4096),
});
export type AgentSessionInfo = z.infer<typeof AgentSessionInfo>;

export const AgentSessionPage = z.object({
  sessions: z.array(AgentSessionInfo).max(MAX_LISTED_AGENT_SESSIONS),
  nextCursor: z.string().max(4096).nullable(),
});
export type AgentSessionPage = z.infer<typeof AgentSessionPage>;

export const FileList = z.object({
  /** The session directory's real path (symlinks resolved): a file's link is `file://` + root + "/" + path. */
  root: Path,
  /** Paths relative to `root`, "/"-separated, best match first. */
  files: z.array(z.string().min(1).max(4096)).max(MAX_LISTED_FILES),
  /** The directory held more files than the daemon reads (or ran out of time): a narrower query finds more. */
  truncated: z.boolean(),
});
export type FileList = z.infer<typeof FileList>;

export const AskResults = {
  "agent.sessions.list": AgentSessionPage,
  "agent.sessions.find": z.object({ session: AgentSessionInfo.nullable() }),
  "agent.sessions.delete": z.object({ deleted: z.boolean(), message: z.string().max(2000).optional() }),
  "agent.sessions.fork": z.object({ agentSessionId: AgentSessionId }),
  "files.list": FileList,
  "git.repo": RepoInfo,
  "git.worktree.create": SessionWorktree,
  "git.worktree.remove": WorktreeRemoval,
  "git.status": GitStatus,
  "git.commit": CommitResult,
  "git.diff": WorktreeDiff,
} as const satisfies Record<AskKind, z.ZodType>;
export type AskResult<K extends AskKind> = z.infer<(typeof AskResults)[K]>;

export const AskErrorCode = {
  MACHINE_OFFLINE: "MACHINE_OFFLINE",
  TIMEOUT: "ASK_TIMEOUT",
  UNKNOWN_ASK: "UNKNOWN_ASK",
  BAD_REQUEST: "BAD_REQUEST",
  REPLY_TOO_LARGE: "REPLY_TOO_LARGE",
  BAD_REPLY: "BAD_REPLY",
  /** The agent is missing, does not offer the method, or refused (its message says why). */
  AGENT_REFUSED: "AGENT_REFUSED",
  AGENT_FAILED: "AGENT_FAILED",
  /** git is not installed on the machine. */
  GIT_MISSING: "GIT_MISSING",
  /** git (or Baton's rules for it) refused: a bad branch name, not a repository, outside the roots… */
  GIT_REFUSED: "GIT_REFUSED",
} as const;
export type AskErrorCode = (typeof AskErrorCode)[keyof typeof AskErrorCode];

export type AskOutcome<K extends AskKind> = { ok: true; result: AskResult<K> } | { ok: false; code: string; message: string };

const AskId = z.string().min(1).max(MAX_ID_LENGTH);

/** Machine → daemon. `request` is loose here so an unknown kind still parses as a frame and gets its error reply. */
export const AskFrame = z.object({ type: z.literal("ask"), id: AskId, request: z.object({ kind: z.string().max(64) }).passthrough() });

/** Daemon → machine: the result (checked against AskResults by the Machine) or an error. */
export const AskReplyFrame = z.object({
  type: z.literal("reply"),
  id: AskId,
  ok: z.boolean(),
  result: z.unknown().optional(),
  code: z.string().max(64).optional(),
  message: z.string().max(2000).optional(),
});
export type AskReplyFrame = z.infer<typeof AskReplyFrame>;

/** An outcome that crossed an RPC boundary untyped, checked again for `kind` (the Worker's side of Machine.ask). */
export function outcomeOf<K extends AskKind>(kind: K, o: { ok: boolean; result?: unknown; code?: string; message?: string }): AskOutcome<K> {
  return readReply(kind, { type: "reply", id: "rpc", ok: o.ok, result: o.result, code: o.code, message: o.message });
}

/** The outcome a reply carries for an ask of `kind`: a result that does not fit its schema is BAD_REPLY. */
export function readReply<K extends AskKind>(kind: K, reply: AskReplyFrame): AskOutcome<K> {
  if (!reply.ok) return { ok: false, code: reply.code ?? AskErrorCode.AGENT_FAILED, message: reply.message ?? "the daemon could not answer" };
  const schema: z.ZodType = AskResults[kind];
  const parsed = schema.safeParse(reply.result);
  if (!parsed.success) return { ok: false, code: AskErrorCode.BAD_REPLY, message: `the daemon's answer did not fit: ${parsed.error.issues[0]?.message ?? "invalid"}` };
  // Parsed by AskResults[kind] itself; TypeScript cannot follow the index to K's type.
  return { ok: true, result: parsed.data as AskResult<K> };
}
