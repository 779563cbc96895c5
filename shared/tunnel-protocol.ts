/**
 * Daemon ⇄ Machine DO tunnel protocol. Types only.
 *
 * Reliability: both directions number their payload frames (`n`, per connection epoch) and keep them
 * until the peer acks; after a reconnect the sender resends the unacked tail and the receiver drops
 * `n <= lastSeen`. The daemon's epoch changes when its process restarts (numbering starts over).
 */
import { z } from "zod";
import { PromptBlocks } from "./blocks";
import { MAX_BATCH_EVENTS } from "./limits";
import { AskFrame, AskReplyFrame } from "./tunnel-ask";
import { GitTreeId } from "./worktree";
import { AcpUpdate, AuthMethod, ConfigState, ElicitationAction, ElicitationContent, Id, PermissionOption } from "./viewer-protocol";

export const AgentCapabilities = z.object({
  loadSession: z.boolean(),
  resume: z.boolean(),
  modes: z.boolean(),
  configOptions: z.boolean(),
  steering: z.boolean(),
  images: z.boolean(),
  /**
   * The agent's own sessions (`initialize` → `agentCapabilities.sessionCapabilities`): `session/list`,
   * `session/fork`, `session/delete`, `session/close`. Optional: daemons before these were learnt omit them (= false).
   */
  list: z.boolean().optional(),
  fork: z.boolean().optional(),
  delete: z.boolean().optional(),
  close: z.boolean().optional(),
});
export type AgentCapabilities = z.infer<typeof AgentCapabilities>;

export const AgentInfo = z.object({
  id: z.string(),
  label: z.string(),
  /** Capabilities known from the preset before a session starts; refined by `initialize`. */
  capabilities: AgentCapabilities,
});
export type AgentInfo = z.infer<typeof AgentInfo>;

/** Session-scoped config the room keeps; same as the viewer's minus room-only settings. */
export const AgentConfig = ConfigState.pick({
  modes: true,
  models: true,
  configOptions: true,
  steering: true,
  images: true,
  embeddedContext: true,
  imageLimits: true,
  authMethods: true,
});
export type AgentConfig = z.infer<typeof AgentConfig>;

/**
 * What the user had chosen in a session (mode, legacy model, config option values), sent with a reopen so
 * the daemon re-applies it after `session/load` (agents report their defaults there, not the session's).
 */
export const SessionSettings = z.object({
  modeId: z.string().nullish(),
  modelId: z.string().nullish(),
  options: z.record(z.string(), z.union([z.string(), z.boolean()])),
});
export type SessionSettings = z.infer<typeof SessionSettings>;

// ---------------------------------------------------------------- daemon → machine (numbered)

export const DaemonEvent = z.discriminatedUnion("t", [
  z.object({ t: z.literal("session.ready"), sessionId: Id, agentSessionId: z.string(), config: AgentConfig, resumed: z.boolean() }),
  z.object({ t: z.literal("session.failed"), sessionId: Id, message: z.string(), authMethods: z.array(AuthMethod).optional() }),
  /** Something the viewers should read in the transcript (e.g. a setting the agent refused to re-apply). */
  z.object({ t: z.literal("session.notice"), sessionId: Id, level: z.enum(["info", "warn"]), text: z.string() }),
  z.object({ t: z.literal("session.update"), sessionId: Id, update: AcpUpdate }),
  z.object({ t: z.literal("turn.started"), sessionId: Id, turnId: Id }),
  z.object({ t: z.literal("turn.ended"), sessionId: Id, turnId: Id, stopReason: z.string(), error: z.string().nullish() }),
  /**
   * Issue 28 #2: the session's worktree as a git tree at the turn's start (before the prompt reaches the agent)
   * and at its end (after the agent answered), so one turn's changes can be read from git (`git.diff {from, to}`).
   */
  z.object({ t: z.literal("turn.tree"), sessionId: Id, turnId: Id, edge: z.enum(["start", "end"]), tree: GitTreeId }),
  z.object({
    t: z.literal("permission.request"),
    sessionId: Id,
    requestId: Id,
    toolCall: z.object({}).passthrough(),
    options: z.array(PermissionOption),
  }),
  z.object({ t: z.literal("permission.cancelled"), sessionId: Id, requestId: Id }),
  /** A session-scoped ACP form elicitation (`elicitation/create`, mode form). */
  z.object({
    t: z.literal("elicitation.request"),
    sessionId: Id,
    requestId: Id,
    message: z.string(),
    requestedSchema: z.object({}).passthrough(),
    toolCallId: z.string().nullish(),
  }),
  z.object({ t: z.literal("elicitation.cancelled"), sessionId: Id, requestId: Id }),
  z.object({ t: z.literal("config.state"), sessionId: Id, config: AgentConfig }),
  z.object({
    t: z.literal("steer.result"),
    sessionId: Id,
    entryId: Id,
    outcome: z.enum(["injected", "startedNewTurn", "promptRequired", "failed", "indeterminate"]),
  }),
  z.object({ t: z.literal("command.failed"), sessionId: Id, command: z.string(), message: z.string() }),
  /** An import's replayed user message (its `user_message_chunk`s grouped): the room logs it as a `user_message`. */
  z.object({ t: z.literal("history.user"), sessionId: Id, blocks: PromptBlocks }),
]);
export type DaemonEvent = z.infer<typeof DaemonEvent>;

// ---------------------------------------------------------------- machine → daemon (numbered)

export const MachineCommand = z.discriminatedUnion("t", [
  z.object({
    t: z.literal("session.open"),
    sessionId: Id,
    agentId: z.string(),
    cwd: z.string(),
    agentSessionId: z.string().nullish(),
    /** With a reopen: the settings to re-apply after `session/load`. */
    restore: SessionSettings.nullish(),
    /**
     * What becomes of the history the agent replays on `session/load`: "drop" (a reattach after a restart:
     * the room has it; the default) or "relay" (an import: relayed once as ordinary events, user messages as
     * `history.user`; an id the agent refuses fails the open instead of starting fresh).
     */
    history: z.enum(["drop", "relay"]).optional(),
  }),
  z.object({ t: z.literal("prompt"), sessionId: Id, turnId: Id, messageId: Id, blocks: PromptBlocks }),
  z.object({ t: z.literal("cancel"), sessionId: Id }),
  z.object({ t: z.literal("config.set"), sessionId: Id, configId: z.string(), value: z.union([z.string(), z.boolean()]) }),
  z.object({ t: z.literal("mode.set"), sessionId: Id, modeId: z.string() }),
  z.object({ t: z.literal("model.set"), sessionId: Id, modelId: z.string() }),
  z.object({ t: z.literal("permission.respond"), sessionId: Id, requestId: Id, optionId: z.string().nullable() }),
  z.object({
    t: z.literal("elicitation.respond"),
    sessionId: Id,
    requestId: Id,
    action: ElicitationAction,
    content: ElicitationContent.optional(),
  }),
  z.object({ t: z.literal("steer"), sessionId: Id, entryId: Id, blocks: PromptBlocks }),
  z.object({ t: z.literal("session.close"), sessionId: Id }),
]);
export type MachineCommand = z.infer<typeof MachineCommand>;

// ---------------------------------------------------------------- frames on the socket

export const DaemonSession = z.object({
  sessionId: Id,
  agentId: z.string(),
  agentSessionId: z.string(),
  cwd: z.string(),
  busy: z.boolean(),
});

export const DaemonFrame = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("hello"),
    epoch: z.string().min(1).max(64),
    version: z.string(),
    /** TUNNEL_PROTOCOL_VERSION (shared/protocol-version.ts); absent from daemons before versioning. */
    protocolVersion: z.number().int().min(0).max(1_000_000).optional(),
    hostname: z.string(),
    /** The daemon's process id: a daemon replaced by another on the same token is told which one. */
    pid: z.number().int().min(0).max(2 ** 31).optional(),
    agents: z.array(AgentInfo),
    roots: z.array(z.string()),
    sessions: z.array(DaemonSession),
    /** Highest machine→daemon `n` this daemon has processed (so the DO resends only what is missing). */
    lastSeenDown: z.number().int().min(0),
  }),
  z.object({ type: z.literal("event"), n: z.number().int().min(1), event: DaemonEvent }),
  /** Several numbered events in one message (consecutive n): one socket event instead of many. */
  z.object({
    type: z.literal("batch"),
    events: z.array(z.object({ n: z.number().int().min(1), event: DaemonEvent })).min(1).max(MAX_BATCH_EVENTS),
  }),
  z.object({ type: z.literal("ack"), n: z.number().int().min(0) }),
  /**
   * The agents again, with capabilities learnt from a session's `initialize` (not numbered: it is current
   * state, idempotent; the next hello carries it too).
   */
  z.object({ type: z.literal("agents"), agents: z.array(AgentInfo) }),
  /** The answer to an `ask` (not numbered; see shared/tunnel-ask.ts). */
  AskReplyFrame,
]);
export type DaemonFrame = z.infer<typeof DaemonFrame>;

export const MachineFrame = z.discriminatedUnion("type", [
  /** Reply to hello: the highest daemon→machine `n` of this epoch already processed. */
  z.object({ type: z.literal("welcome"), machineId: z.string(), lastSeenUp: z.number().int().min(0) }),
  z.object({ type: z.literal("command"), n: z.number().int().min(1), command: MachineCommand }),
  z.object({ type: z.literal("ack"), n: z.number().int().min(0) }),
  z.object({ type: z.literal("error"), code: z.string(), message: z.string() }),
  /** A question that needs an answer now (not numbered; see shared/tunnel-ask.ts). */
  AskFrame,
]);
export type MachineFrame = z.infer<typeof MachineFrame>;

export const TUNNEL_TOKEN_HEADER = "x-baton-machine-token";
/**
 * Close code telling a daemon that another daemon with the same machine token said hello: the reason names it
 * (`replacedReason`). The replaced one says so once and stands by for minutes instead of taking the machine back.
 */
export const TUNNEL_CLOSE_REPLACED = 4000;
/** Close code telling a daemon its machine token was revoked (it should not retry quickly). */
export const TUNNEL_CLOSE_REVOKED = 4401;
export const TUNNEL_PATH = "/api/tunnel";
