/**
 * Viewer ⇄ SessionRoom wire protocol. Types only (zod schemas + inferred types); no behaviour.
 *
 * Client → room: `ClientOp` frames, each with a client-minted `rid` echoed by the room's `ack` / `error`.
 * Room → client: `ServerFrame`. Logged events carry a `seq` (monotonic per session); state frames do not.
 */
import { z } from "zod";
import { PromptBlocks } from "./blocks";
import { MAX_HISTORY_PAGE_ROWS, MAX_ID_LENGTH, MAX_QUEUE_DEPTH, MAX_SEARCH_QUERY_CHARS, MAX_SEARCH_RESULTS } from "./limits";

export const Id = z.string().min(1).max(MAX_ID_LENGTH);

export const ErrorCode = {
  BAD_FRAME: "BAD_FRAME",
  FRAME_TOO_LARGE: "FRAME_TOO_LARGE",
  UNKNOWN_OP: "UNKNOWN_OP",
  PROMPT_TOO_LARGE: "PROMPT_TOO_LARGE",
  EMPTY_PROMPT: "EMPTY_PROMPT",
  QUEUE_FULL: "QUEUE_FULL",
  MACHINE_BUSY: "MACHINE_BUSY",
  MACHINE_OFFLINE: "MACHINE_OFFLINE",
  SESSION_NOT_READY: "SESSION_NOT_READY",
  NOT_SUPPORTED: "NOT_SUPPORTED",
  FORBIDDEN: "FORBIDDEN",
  RATE_LIMITED: "RATE_LIMITED",
  NOT_FOUND: "NOT_FOUND",
  INTERNAL: "INTERNAL",
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const Author = z.object({ id: z.string(), name: z.string() });
export type Author = z.infer<typeof Author>;

/** Largest answer to a form: a handful of short fields, not a document. */
const MAX_ELICITATION_FIELDS = 64;
/** ACP `ElicitationContentValue`s by field name (an answer to `elicitation/create`). */
export const ElicitationContent = z
  .record(z.string().max(128), z.union([z.string().max(8192), z.number(), z.boolean(), z.array(z.string().max(1024)).max(256)]))
  .refine((c) => Object.keys(c).length <= MAX_ELICITATION_FIELDS, "too many fields");
export type ElicitationContent = z.infer<typeof ElicitationContent>;
export const ElicitationAction = z.enum(["accept", "decline", "cancel"]);
export type ElicitationAction = z.infer<typeof ElicitationAction>;

// ---------------------------------------------------------------- client → room

const op = <T extends string, S extends z.ZodRawShape>(name: T, shape: S) =>
  z.object({ op: z.literal(name), rid: Id, ...shape });

export const ClientOp = z.discriminatedUnion("op", [
  op("message.send", { id: Id, blocks: PromptBlocks }),
  op("queue.cancel", { id: Id }),
  op("queue.edit", { id: Id, blocks: PromptBlocks }),
  op("queue.move", { id: Id, before: Id.nullable().optional() }),
  op("queue.steer", { id: Id }),
  op("turn.cancel", {}),
  /** "Restore to draft" of entries a Stop dropped: the first viewer to claim an entry gets it; the offer goes for everyone. */
  op("queue.claimDropped", { ids: z.array(Id).min(1).max(MAX_QUEUE_DEPTH) }),
  op("config.set", { configId: Id, value: z.union([z.string().max(256), z.boolean()]) }),
  op("mode.set", { modeId: Id }),
  op("model.set", { modelId: Id }),
  op("permission.respond", { requestId: Id, optionId: Id.nullable() }),
  /** An answer to the agent's form (`elicitation/create`); `content` with `accept` only, checked against the form. */
  op("elicitation.respond", {
    requestId: Id,
    action: z.enum(["accept", "decline", "cancel"]),
    content: ElicitationContent.optional(),
  }),
  /** Older transcript rows, before the oldest the viewer holds (`historyBefore` of its snapshot / last page). Viewers may ask. */
  op("history.page", { before: z.number().int().min(1), limit: z.number().int().min(1).max(MAX_HISTORY_PAGE_ROWS) }),
  /**
   * Text search over the session's rows (user and agent text, tool titles and commands), newest first,
   * before `before` (exclusive; unset: from the newest). Viewers may ask. One answer reads a bounded slice.
   */
  op("history.search", {
    query: z
      .string()
      .max(MAX_SEARCH_QUERY_CHARS, `the search is longer than ${MAX_SEARCH_QUERY_CHARS} characters`)
      .refine((q) => q.trim().length > 0, "the search is empty"),
    before: z.number().int().min(1).optional(),
    limit: z.number().int().min(1).max(MAX_SEARCH_RESULTS).optional(),
  }),
  op("settings.set", {
    queueDepth: z.number().int().min(1).max(MAX_QUEUE_DEPTH).optional(),
    mergeQueued: z.boolean().optional(),
  }),
]);
export type ClientOp = z.infer<typeof ClientOp>;
export type ClientOpName = ClientOp["op"];
export const CLIENT_OP_NAMES = ClientOp.options.map((o) => o.shape.op.value) as readonly ClientOpName[];

// ---------------------------------------------------------------- shared shapes

export const QueueEntryState = { queued: "queued", steering: "steering", indeterminate: "indeterminate" } as const;
export const QueueEntry = z.object({
  id: Id,
  blocks: PromptBlocks,
  author: Author,
  createdAt: z.number(),
  state: z.enum(["queued", "steering", "indeterminate"]),
});
export type QueueEntry = z.infer<typeof QueueEntry>;

export const SessionState = {
  starting: "starting",
  idle: "idle",
  active: "active",
  offline: "offline",
  error: "error",
  closed: "closed",
} as const;
export type SessionState = (typeof SessionState)[keyof typeof SessionState];

/** ACP shapes are relayed as the agent sent them; we validate only what we read. */
const Loose = z.object({}).passthrough();
export const PermissionOption = z
  .object({ optionId: z.string(), name: z.string(), kind: z.string() })
  .passthrough();
export type PermissionOption = z.infer<typeof PermissionOption>;
export const AcpUpdate = z.object({ sessionUpdate: z.string() }).passthrough();


/**
 * An ACP `authMethods` entry as the daemon reports it, plus `command`: what to run on the machine to
 * log in (from the agent's own hint, e.g. `_meta["terminal-auth"]`, or the preset's known login command).
 */
export const AuthMethod = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  command: z.string().nullish(),
});
export type AuthMethod = z.infer<typeof AuthMethod>;
export type AcpUpdate = z.infer<typeof AcpUpdate>;

export const ConfigState = z.object({
  /** ACP `modes` (session/set_mode). Null when the agent has no modes: no mode select. */
  modes: z
    .object({
      currentModeId: z.string(),
      availableModes: z.array(z.object({ id: z.string(), name: z.string(), description: z.string().nullish() }).passthrough()),
    })
    .nullable(),
  /** Legacy model API (unstable `session/set_model`) for agents that only have that. */
  models: z
    .object({
      currentModelId: z.string(),
      availableModels: z.array(z.object({ modelId: z.string(), name: z.string() }).passthrough()),
    })
    .nullable(),
  /** ACP session config options (category model / mode / thought_level / …). */
  configOptions: z.array(Loose),
  steering: z.boolean(),
  images: z.boolean(),
  /** `promptCapabilities.embeddedContext`: a text file goes as its content, not as a link. Absent: false. */
  embeddedContext: z.boolean().optional(),
  /** Limits the agent states for images itself (qwen's `_meta.imageCapability`); the browser honours the smaller. */
  imageLimits: z.object({ maxBytes: z.number().int().positive().optional(), maxImagesPerTurn: z.number().int().positive().optional() }).nullish(),
  /** ACP `authMethods` from `initialize` (empty: the agent needs no login or did not say). */
  authMethods: z.array(AuthMethod).optional(),
  queueDepth: z.number().int(),
  mergeQueued: z.boolean(),
});
export type ConfigState = z.infer<typeof ConfigState>;

export const SteerOutcome = {
  injected: "injected",
  startedNewTurn: "startedNewTurn",
  promptRequired: "promptRequired",
  failed: "failed",
  indeterminate: "indeterminate",
} as const;
export type SteerOutcome = (typeof SteerOutcome)[keyof typeof SteerOutcome];

// ---------------------------------------------------------------- room → client events

export const SessionEvent = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("user_message"), id: Id, blocks: PromptBlocks, author: Author, at: z.number() }),
  /** A raw ACP `session/update` payload (`update` field), including kinds the SDK does not know. */
  z.object({ kind: z.literal("acp"), update: AcpUpdate }),
  z.object({
    kind: z.literal("permission_request"),
    requestId: Id,
    toolCall: Loose,
    options: z.array(PermissionOption),
  }),
  z.object({
    kind: z.literal("permission_resolved"),
    requestId: Id,
    outcome: z.enum(["selected", "cancelled"]),
    optionId: z.string().nullable(),
    by: Author.nullable(),
  }),
  /** The agent asks for structured input (ACP form elicitation); every viewer sees it, the first valid answer wins. */
  z.object({
    kind: z.literal("elicitation_request"),
    requestId: Id,
    message: z.string(),
    requestedSchema: Loose,
    toolCallId: z.string().nullish(),
  }),
  /** `by` null: cancelled by the turn's end / Stop, not by a person. `content` only with `accept`. */
  z.object({
    kind: z.literal("elicitation_resolved"),
    requestId: Id,
    action: ElicitationAction,
    content: ElicitationContent.optional(),
    by: Author.nullable(),
  }),
  z.object({
    kind: z.literal("session_status"),
    state: z.enum(["starting", "idle", "active", "offline", "error", "closed"]),
    turnId: z.string().nullish(),
    stopReason: z.string().nullish(),
    message: z.string().nullish(),
    /** With state `offline`: true when a turn is nominally still running on the machine (Stop / Queue apply). */
    turnRunning: z.boolean().optional(),
    /** True when sent on (re)connect to restore state rather than at a transition. */
    synthetic: z.boolean().optional(),
    /** With state `error`: how to log the agent in, when it advertised `authMethods`. */
    authMethods: z.array(AuthMethod).optional(),
  }),
  z.object({
    kind: z.literal("queue_state"),
    entries: z.array(QueueEntry),
    /** true: the head was removed because it now runs; false: removed by cancel / Stop / edit. */
    flushed: z.boolean(),
    /** Entries dropped by Stop, so any viewer can restore them to its draft. */
    dropped: z.array(QueueEntry).optional(),
  }),
  /** What the last Stop dropped and nobody has re-queued or restored yet (empty: the offer is settled). */
  z.object({ kind: z.literal("dropped_offer"), entries: z.array(QueueEntry) }),
  z.object({ kind: z.literal("config_state"), config: ConfigState }),
  z.object({ kind: z.literal("turn_error"), message: z.string(), code: z.string().nullish() }),
  z.object({
    kind: z.literal("steer_result"),
    id: Id,
    outcome: z.enum(["injected", "startedNewTurn", "promptRequired", "failed", "indeterminate"]),
  }),
  z.object({ kind: z.literal("notice"), level: z.enum(["info", "warn"]), text: z.string() }),
]);
export type SessionEvent = z.infer<typeof SessionEvent>;
export type SessionEventKind = SessionEvent["kind"];
export type EventOf<K extends SessionEventKind> = Extract<SessionEvent, { kind: K }>;

/** Event kinds written to the log (get a seq). The rest are current-state frames. */
export const LOGGED_KINDS = new Set<SessionEventKind>([
  "user_message",
  "acp",
  "permission_request",
  "permission_resolved",
  "elicitation_request",
  "elicitation_resolved",
  "session_status",
  "turn_error",
  "steer_result",
  "notice",
]);

export const Viewer = z.object({ id: z.string(), name: z.string(), role: z.enum(["owner", "member", "viewer"]) });
export type Viewer = z.infer<typeof Viewer>;

// ---------------------------------------------------------------- acks (room → the viewer that sent the op)

/** `taken`: a re-queue of a dropped entry another viewer restored to its draft — nothing ran. */
export const SendAck = z.object({
  queued: z.boolean(),
  duplicate: z.boolean().optional(),
  position: z.number().optional(),
  taken: z.boolean().optional(),
});
export type SendAck = z.infer<typeof SendAck>;
/** `requeued`: an unconfirmed (indeterminate) entry retried while idle — it runs as the next turn. */
export const QueueOpOutcome = z.enum(["cancelled", "edited", "moved", "steering", "requeued", "already_sent", "not_found"]);
export type QueueOpOutcome = z.infer<typeof QueueOpOutcome>;
export const QueueOpAck = z.object({ outcome: QueueOpOutcome, entry: QueueEntry.optional() });
export type QueueOpAck = z.infer<typeof QueueOpAck>;
export const TurnCancelAck = z.object({ outcome: z.enum(["cancelled", "idle"]), dropped: z.array(QueueEntry) });
export type TurnCancelAck = z.infer<typeof TurnCancelAck>;
/** `claimed`: the dropped entries this viewer may put in its draft; the rest were already re-queued or restored by someone. */
export const ClaimDroppedAck = z.object({ claimed: z.array(Id) });
export type ClaimDroppedAck = z.infer<typeof ClaimDroppedAck>;
export const ConfigAck = z.object({ outcome: z.literal("forwarded"), appliesNextTurn: z.boolean() });
export type ConfigAck = z.infer<typeof ConfigAck>;
export const PermissionAck = z.object({ outcome: z.enum(["accepted", "already_resolved"]) });
export type PermissionAck = z.infer<typeof PermissionAck>;
export const RoomSettings = z.object({ queueDepth: z.number().int(), mergeQueued: z.boolean() });
export type RoomSettings = z.infer<typeof RoomSettings>;
export const SettingsAck = z.object({ outcome: z.literal("saved"), settings: RoomSettings });
export type SettingsAck = z.infer<typeof SettingsAck>;

/**
 * Compacted events of the rows before `before`: fold them in a fresh state and put the rows above the
 * ones held. `at[i]`: the seq where `events[i]`'s row began (stable row ids). `historyBefore`: ask with
 * this next; null at the session's first row.
 */
export const HistoryPageAck = z.object({ events: z.array(SessionEvent), at: z.array(z.number()), historyBefore: z.number().nullable() });
export type HistoryPageAck = z.infer<typeof HistoryPageAck>;

/**
 * One row that matched a search. `at`: the seq where the row began (the transcript's page boundary);
 * `rowId`: the row's id in the fold (what to scroll to); `snippet`: plain text around the match, with
 * `marks` the [start, end) offsets of each match in it (never HTML).
 */
export const SearchHit = z.object({
  at: z.number().int(),
  rowId: z.string(),
  kind: z.enum(["user", "agent", "tool"]),
  snippet: z.string(),
  marks: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])),
  /** A user row's author; a tool row's title when the match is in its command. */
  label: z.string().optional(),
});
export type SearchHit = z.infer<typeof SearchHit>;
/**
 * Hits newest first. `continueBefore`: the search stopped at a bound (results or the rows one answer
 * reads) — ask again with `before` set to it for older rows; null: the session's first row was reached.
 */
export const SearchAck = z.object({ hits: z.array(SearchHit), continueBefore: z.number().nullable(), truncated: z.boolean() });
export type SearchAck = z.infer<typeof SearchAck>;

/** The result schema of each op's ack: the room builds `AckOf<op>`, the client reads it. */
export const AckResults = {
  "message.send": SendAck,
  "queue.cancel": QueueOpAck,
  "queue.edit": QueueOpAck,
  "queue.move": QueueOpAck,
  "queue.steer": QueueOpAck,
  "turn.cancel": TurnCancelAck,
  "queue.claimDropped": ClaimDroppedAck,
  "config.set": ConfigAck,
  "mode.set": ConfigAck,
  "model.set": ConfigAck,
  "permission.respond": PermissionAck,
  "elicitation.respond": PermissionAck,
  "history.page": HistoryPageAck,
  "history.search": SearchAck,
  "settings.set": SettingsAck,
} as const satisfies { [K in ClientOpName]: z.ZodType };
export type AckOf<K extends ClientOpName> = z.infer<(typeof AckResults)[K]>;

const ackFrame = <K extends ClientOpName>(op: K) =>
  z.object({ type: z.literal("ack"), rid: z.string(), op: z.literal(op), result: AckResults[op] });
export const AckFrame = z.discriminatedUnion("op", [
  ackFrame("message.send"),
  ackFrame("queue.cancel"),
  ackFrame("queue.edit"),
  ackFrame("queue.move"),
  ackFrame("queue.steer"),
  ackFrame("turn.cancel"),
  ackFrame("queue.claimDropped"),
  ackFrame("config.set"),
  ackFrame("mode.set"),
  ackFrame("model.set"),
  ackFrame("permission.respond"),
  ackFrame("elicitation.respond"),
  ackFrame("history.page"),
  ackFrame("history.search"),
  ackFrame("settings.set"),
]);
/** The ack frame answering op `K`. */
export type AckFrameOf<K extends ClientOpName> = { type: "ack"; rid: string; op: K; result: AckOf<K> };
export type AckFrame = { [K in ClientOpName]: AckFrameOf<K> }[ClientOpName];
export const ErrorFrame = z.object({
  type: z.literal("error"),
  rid: z.string().nullable(),
  code: z.string(),
  message: z.string(),
});
export type ErrorFrame = z.infer<typeof ErrorFrame>;

/** A logged event. */
export const EventFrame = z.object({ type: z.literal("event"), seq: z.number(), event: SessionEvent });
/** A current-state frame (queue_state, config_state, session_status) — not logged, no seq. */
export const StateFrame = z.object({ type: z.literal("state"), event: SessionEvent });
/**
 * The session's review comments changed (issue 28 #3; they live in D1, not in the room): `version` counts the
 * changes. Sent to every viewer at each add / delete / clear, and on join once the review has ever changed; a
 * client that holds the review reads it again (`GET /api/sessions/:id/review`) when the version differs.
 */
export const ReviewFrame = z.object({ type: z.literal("review"), version: z.number().int().min(1) });

export const ServerFrame = z.discriminatedUnion("type", [
  /** First frame on every connection. */
  z.object({ type: z.literal("welcome"), sessionId: z.string(), viewer: Viewer, headSeq: z.number() }),
  EventFrame,
  /**
   * Compacted replay: discard the local transcript, apply these events, cursor becomes `seq`.
   * A large snapshot comes in pages: the first resets, the following carry `append: true`.
   * A join sends the last window of rows: `historyBefore` (on the first page) is where `history.page`
   * continues, null when the window starts at the session's first row. A catch-up of compacted missed
   * events is one page with `append: true` (nothing reset). `at[i]`: the seq where `events[i]`'s row
   * began, so row ids stay the same however the row arrived.
   */
  z.object({
    type: z.literal("snapshot"),
    seq: z.number(),
    events: z.array(SessionEvent),
    append: z.boolean().optional(),
    at: z.array(z.number()).optional(),
    historyBefore: z.number().nullable().optional(),
  }),
  StateFrame,
  /**
   * Event / state frames the room produced in one step (e.g. one tunnel batch of chunks), in order:
   * one socket message per viewer instead of one per event. Apply as if they arrived one by one.
   */
  z.object({ type: z.literal("batch"), frames: z.array(z.discriminatedUnion("type", [EventFrame, StateFrame])).min(1) }),
  /** Replay finished; everything after this is live. */
  z.object({ type: z.literal("ready"), seq: z.number() }),
  ReviewFrame,
  /** The answer to one op: its result's shape is fixed by the op (`AckResults`). */
  AckFrame,
  ErrorFrame,
]);
export type ServerFrame = z.infer<typeof ServerFrame>;

