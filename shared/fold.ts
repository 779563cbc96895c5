/**
 * The client's one event reducer: `fold(state, frame) → state`. Pure (no DOM, no I/O, no clock),
 * structurally shared (untouched rows keep their identity, so a store can diff by reference).
 *
 * Rules
 * - User rows come only from the server's `user_message` echo (no optimistic rows); the echo also
 *   starts the turn for every viewer, not only the sender.
 * - Logged events with `seq ≤ cursor` are ignored (no duplicates across reconnects).
 * - A `snapshot` resets the transcript (pages after the first carry `append`); its seq is the cursor.
 *   A join's snapshot is the last window of rows; `prependPage` puts an older page above it.
 * - A row without an id of its own (text without a message id, plan, notice, error, turn end) is
 *   named by the seq where it began (`agent:@12`), so it keeps its id whether it arrived live, in a
 *   join's window or in a history page; without a seq (state frames, old snapshots) by a counter.
 * - `state` frames (queue_state / config_state / session_status) carry current state, no seq.
 * - A `batch` is its frames applied in order: the same state as receiving them one by one.
 * - A `review` frame only moves `reviewVersion` (the comments themselves are fetched over HTTP).
 * - A `queue_state` never adds a transcript row (the queue is a Sender affordance, not history).
 * - Unknown ACP update kinds are ignored; `user_message_chunk` too (the agent replaying its history
 *   on load would duplicate the echoes).
 */import { assertNever } from "./assert-never";
import { appendTail, terminalChunk, terminalExit } from "./terminal-output";
import { contentText, locations, permissionSubject, str, toolContent } from "./acp-readers";
import type { AgentRow, Command, PlanEntry, Row, RowKind, TerminalOutput, ThoughtRow, ToolRow, Usage, UserRow } from "./rows";
import type { AuthMethod, ConfigState, QueueEntry, ServerFrame, SessionEvent, SessionState, SteerOutcome, Viewer } from "./viewer-protocol";

// The row types (rows.ts) and the ACP readers (acp-readers.ts) are split out; importers of fold keep reading them here.
export type * from "./rows";
export { permissionSubject } from "./acp-readers";

export type FoldState = {
  /** Cursor: highest logged seq applied. Reconnects ask for `?after=<seq>`. */
  seq: number;
  viewer: Viewer | null;
  /** Replay finished on the current connection (after `ready`). */
  ready: boolean;
  /** Transcript rows in order; every id is unique and stable. */
  rows: Row[];
  /** Row id → index in `rows` (keyed lookup without a scan). */
  rowIndex: Record<string, number>;
  /** Open rows of the running turn (chunks without a messageId go here). */
  open: { agent: string | null; thought: string | null; plan: string | null };
  /** The session-wide queue, in order. */
  queue: QueueEntry[];
  /** Entries the last Stop dropped, offered to every viewer for "Restore to draft". */
  dropped: QueueEntry[];
  /** Latest steer outcome per queue entry id. */
  steer: Record<string, SteerOutcome>;
  config: ConfigState | null;
  status: SessionState;
  /** A turn runs (Stop applies; a send is queued). */
  turnActive: boolean;
  statusMessage: string | null;
  /** Stop reason of the last turn that ended. */
  stopReason: string | null;
  usage: Usage | null;
  commands: Command[];
  /** Title from the agent (`session_info_update`), when it sent one. */
  title: string | null;
  /** The review's change count (`review` frames); a holder of the review reads it again when this moves. 0: never heard. */
  reviewVersion: number;
  /** How to log the agent in, when the session failed for want of a login (`session_status` error). */
  authMethods: AuthMethod[];
  /** Counter for rows without an agent-provided id. */
  nextRow: number;
  /** Older rows exist before this seq (ask `history.page` with it); null: the session's first row is loaded. */
  historyBefore: number | null;
  /**
   * No row below this index is streaming or live: closeTurn scans from here, not from row 0 (a scan of
   * the whole transcript per turn made folding a long session's snapshot quadratic).
   */
  openFrom: number;
};

export function initialSessionState(): FoldState {
  return {
    seq: 0,
    viewer: null,
    ready: false,
    rows: [],
    rowIndex: {},
    openFrom: 0,
    open: { agent: null, thought: null, plan: null },
    queue: [],
    dropped: [],
    steer: {},
    config: null,
    status: "starting",
    turnActive: false,
    statusMessage: null,
    stopReason: null,
    usage: null,
    commands: [],
    title: null,
    reviewVersion: 0,
    authMethods: [],
    nextRow: 0,
    historyBefore: null,
  };
}

const NO_OPEN: FoldState["open"] = { agent: null, thought: null, plan: null };

export function fold(state: FoldState, frame: ServerFrame): FoldState {
  switch (frame.type) {
    case "welcome":
      return { ...state, viewer: frame.viewer, ready: false };
    case "event":
      if (frame.seq <= state.seq) return state;
      return { ...at(frame.seq, () => applyEvent(state, frame.event, true)), seq: frame.seq };
    case "snapshot":
      return drafting(() => {
        let s: FoldState = frame.append ? state : { ...resetTranscript(state), historyBefore: frame.historyBefore ?? null };
        frame.events.forEach((e, i) => (s = at(frame.at?.[i], () => applyEvent(s, e, true))));
        return { ...s, seq: frame.seq };
      });
    case "state":
      return at(undefined, () => applyEvent(state, frame.event, false));
    case "batch":
      return drafting(() => {
        let s = state;
        for (const f of frame.frames) s = fold(s, f);
        return s;
      });
    case "ready":
      return { ...state, ready: true, seq: Math.max(state.seq, frame.seq) };
    case "review":
      return frame.version === state.reviewVersion ? state : { ...state, reviewVersion: frame.version };
    case "ack":
    case "error":
      return state;
    default:
      return assertNever(frame);
  }
}

/** A frame as the frames it stands for: a `batch` unpacked, anything else as itself. */
export function framesOf(frame: ServerFrame): ServerFrame[] {
  return frame.type === "batch" ? frame.frames : [frame];
}

/**
 * An older page of rows (a `history.page` answer) above the rows held. Ignored unless it answers the
 * current `historyBefore` (a reconnect's window replaced the rows meanwhile). Rows already held are
 * not added twice.
 */
export function prependPage(state: FoldState, before: number, page: { events: SessionEvent[]; at: number[]; historyBefore: number | null }): FoldState {
  if (state.historyBefore !== before) return state;
  const older = fold(initialSessionState(), { type: "snapshot", seq: 0, events: page.events, at: page.at }).rows.filter((r) => state.rowIndex[r.id] === undefined);
  if (!older.length) return { ...state, historyBefore: page.historyBefore };
  const rows = [...older, ...state.rows];
  const rowIndex: Record<string, number> = {};
  rows.forEach((r, i) => (rowIndex[r.id] = i));
  const firstOpen = older.findIndex(isOpenRow);
  return { ...state, rows, rowIndex, historyBefore: page.historyBefore, openFrom: firstOpen >= 0 ? firstOpen : state.openFrom + older.length };
}

/** Local action: the viewer took the dropped entries back (or dismissed the offer). */
export function clearDropped(state: FoldState): FoldState {
  return state.dropped.length ? { ...state, dropped: [] } : state;
}

/** Rows of one kind, typed (handy in tests and selectors). */
export function rowsOf<K extends RowKind>(state: Pick<FoldState, "rows">, kind: K): Extract<Row, { kind: K }>[] {
  return state.rows.filter((r): r is Extract<Row, { kind: K }> => r.kind === kind);
}

export function rowById(state: Pick<FoldState, "rows" | "rowIndex">, id: string): Row | undefined {
  const i = state.rowIndex[id];
  return i === undefined ? undefined : state.rows[i];
}

// ---------------------------------------------------------------- row helpers

/** The seq of the event being applied (names rows that have no id of their own); undefined: none known. */
let eventAt: number | undefined;

function at<T>(seq: number | undefined, fn: () => T): T {
  const outer = eventAt;
  eventAt = seq;
  try {
    return fn();
  } finally {
    eventAt = outer;
  }
}

function resetTranscript(state: FoldState): FoldState {
  return { ...state, rows: [], rowIndex: {}, openFrom: 0, open: NO_OPEN, nextRow: 0, usage: null, commands: [], title: null, stopReason: null };
}

/**
 * While a snapshot or batch is folded, row changes go into one private copy of `rows` / `rowIndex`
 * made on first write, instead of a copy per event (a 5k-row snapshot was quadratic). Nothing outside
 * sees the copy before the fold returns, so `fold` stays pure to its callers. `undefined`: not drafting.
 */
let draft: { rows: Row[]; rowIndex: Record<string, number> } | null | undefined;

function drafting(fn: () => FoldState): FoldState {
  if (draft !== undefined) return fn();
  draft = null;
  try {
    return fn();
  } finally {
    draft = undefined;
  }
}

/** The draft copy of `state`'s rows to write into, or null when not drafting. */
function ownRows(state: FoldState): { rows: Row[]; rowIndex: Record<string, number> } | null {
  if (draft === undefined) return null;
  if (!draft || draft.rows !== state.rows || draft.rowIndex !== state.rowIndex) draft = { rows: state.rows.slice(), rowIndex: { ...state.rowIndex } };
  return draft;
}

/** Text still streaming or a tool still running: what closeTurn ends. */
function isOpenRow(r: Row): boolean {
  return ((r.kind === "agent" || r.kind === "thought") && r.streaming) || (r.kind === "tool" && r.live);
}
/** `openFrom` after writing `row` at `index`. */
function openFromAfter(state: FoldState, index: number, row: Row): number {
  return isOpenRow(row) && index < state.openFrom ? index : state.openFrom;
}

function pushRow(state: FoldState, row: Row): FoldState {
  const existing = state.rowIndex[row.id];
  if (existing !== undefined) return replaceRow(state, existing, row);
  const openFrom = openFromAfter(state, state.rows.length, row);
  const d = ownRows(state);
  if (d) {
    d.rowIndex[row.id] = d.rows.length;
    d.rows.push(row);
    return { ...state, rows: d.rows, rowIndex: d.rowIndex, openFrom };
  }
  return { ...state, rows: [...state.rows, row], rowIndex: { ...state.rowIndex, [row.id]: state.rows.length }, openFrom };
}

function replaceRow(state: FoldState, index: number, row: Row): FoldState {
  const openFrom = openFromAfter(state, index, row);
  const d = ownRows(state);
  if (d) {
    d.rows[index] = row;
    return { ...state, rows: d.rows, rowIndex: d.rowIndex, openFrom };
  }
  const rows = state.rows.slice();
  rows[index] = row;
  return { ...state, rows, openFrom };
}

function updateRow<K extends RowKind>(state: FoldState, id: string, kind: K, fn: (r: Extract<Row, { kind: K }>) => Row): FoldState {
  const i = state.rowIndex[id];
  const r = i === undefined ? undefined : state.rows[i];
  if (i === undefined || !r || r.kind !== kind) return state;
  return replaceRow(state, i, fn(r as Extract<Row, { kind: K }>));
}

function localId(state: FoldState, prefix: string): [string, FoldState] {
  if (eventAt !== undefined && state.rowIndex[`${prefix}:@${eventAt}`] === undefined) return [`${prefix}:@${eventAt}`, state];
  return [`${prefix}:#${state.nextRow}`, { ...state, nextRow: state.nextRow + 1 }];
}

/** Ends the turn's open rows: streaming text stops, running tools are marked interrupted. */
function closeTurn(state: FoldState): FoldState {
  let rows: Row[] | null = null;
  let rowIndex = state.rowIndex;
  for (let i = state.openFrom; i < state.rows.length; i++) {
    const r = state.rows[i]!;
    let next: Row | null = null;
    if ((r.kind === "agent" || r.kind === "thought") && r.streaming) next = { ...r, streaming: false };
    else if (r.kind === "tool" && r.live) next = { ...r, live: false };
    if (!next) continue;
    if (!rows) {
      const d = ownRows(state);
      rows = d ? d.rows : state.rows.slice();
      if (d) rowIndex = d.rowIndex;
    }
    rows[i] = next;
  }
  const open = state.open === NO_OPEN ? state.open : NO_OPEN;
  const openFrom = state.rows.length;
  if (!rows && open === state.open && openFrom === state.openFrom) return state;
  return { ...state, rows: rows ?? state.rows, rowIndex, open, openFrom };
}

// ---------------------------------------------------------------- events

function appendChunk(state: FoldState, kind: "agent" | "thought", messageId: string | null, text: string): FoldState {
  if (!text) return state;
  if (messageId) {
    const id = `${kind}:${messageId}`;
    const i = state.rowIndex[id];
    if (i !== undefined) {
      const r = state.rows[i] as AgentRow | ThoughtRow;
      return { ...replaceRow(state, i, { ...r, text: r.text + text, streaming: true }), open: { ...state.open, [kind]: id } };
    }
    return { ...pushRow(state, { kind, id, text, streaming: true, messageId }), open: { ...state.open, [kind]: id } };
  }
  // No messageId: the open row of this kind, while it is still the latest row (text after a tool
  // call starts a new row, so the transcript keeps the agent's order) and its chunks carry no
  // messageId either (claude's "**Warning:**" chunk is not part of the answer it follows).
  const openId = state.open[kind];
  const last = state.rows[state.rows.length - 1];
  if (openId && last && last.id === openId && last.kind === kind && last.messageId === undefined) {
    return replaceRow(state, state.rows.length - 1, { ...last, text: last.text + text });
  }
  const [id, s] = localId(state, kind);
  return { ...pushRow(s, { kind, id, text, streaming: true }), open: { ...s.open, [kind]: id } };
}

function applyTool(state: FoldState, u: Record<string, unknown>): FoldState {
  const toolCallId = str(u["toolCallId"]);
  if (!toolCallId) return state;
  const id = `tool:${toolCallId}`;
  const i = state.rowIndex[id];
  const prev = i === undefined ? undefined : (state.rows[i] as ToolRow);
  const content = u["content"] === undefined || u["content"] === null ? null : toolContent(u["content"]);
  const row: ToolRow = {
    kind: "tool",
    id,
    toolCallId,
    title: str(u["title"]) ?? prev?.title ?? "Tool call",
    toolKind: str(u["kind"]) ?? prev?.toolKind ?? "other",
    status: str(u["status"]) ?? prev?.status ?? "pending",
    // ACP: content and locations in an update replace the previous ones.
    content: content ?? prev?.content ?? [],
    locations: locations(u["locations"]) ?? prev?.locations ?? [],
    live: state.turnActive,
  };
  const terminals = withTerminalMeta(prev?.terminals, u["_meta"]);
  if (terminals) row.terminals = terminals;
  return pushRow(state, row);
}

/** A tool's terminals after an update's `_meta`: output appended (bounded), exit recorded. */
function withTerminalMeta(prev: TerminalOutput[] | undefined, meta: unknown): TerminalOutput[] | undefined {
  const chunk = terminalChunk(meta);
  const exit = terminalExit(meta);
  if (!chunk && !exit) return prev;
  const list = prev ? prev.slice() : [];
  const at = (terminalId: string): number => {
    const i = list.findIndex((t) => t.terminalId === terminalId);
    if (i >= 0) return i;
    list.push({ terminalId, output: "", truncated: false, exit: null });
    return list.length - 1;
  };
  if (chunk && chunk.data) {
    const i = at(chunk.terminalId);
    const t = list[i]!;
    const { text, cut } = appendTail(t.output, chunk.data);
    list[i] = { ...t, output: text, truncated: t.truncated || cut || chunk.truncated };
  }
  if (exit) {
    const i = at(exit.terminalId);
    list[i] = { ...list[i]!, exit: { exitCode: exit.exitCode, signal: exit.signal } };
  }
  return list;
}

function applyPlan(state: FoldState, u: Record<string, unknown>): FoldState {
  const entries: PlanEntry[] = Array.isArray(u["entries"])
    ? (u["entries"] as Record<string, unknown>[]).map((e) => ({
        content: String(e?.["content"] ?? ""),
        status: String(e?.["status"] ?? "pending"),
        priority: String(e?.["priority"] ?? "medium"),
      }))
    : [];
  // One plan row per turn: each update replaces the whole plan (ACP semantics).
  if (state.open.plan && state.rowIndex[state.open.plan] !== undefined) {
    return updateRow(state, state.open.plan, "plan", (r) => ({ ...r, entries }));
  }
  const [id, s] = localId(state, "plan");
  return { ...pushRow(s, { kind: "plan", id, entries }), open: { ...s.open, plan: id } };
}

function applyAcp(state: FoldState, u: Record<string, unknown>): FoldState {
  const messageId = str(u["messageId"]);
  switch (u["sessionUpdate"]) {
    case "agent_message_chunk":
      return appendChunk(state, "agent", messageId, contentText(u["content"]));
    case "agent_thought_chunk":
      return appendChunk(state, "thought", messageId, contentText(u["content"]));
    case "tool_call":
    case "tool_call_update":
      return applyTool(state, u);
    case "plan":
      return applyPlan(state, u);
    case "current_mode_update":
    case "config_option_update":
      // The config is the daemon's (it computes it from these updates and sends config_state): not recomputed here.
      return state;
    case "usage_update": {
      const used = Number(u["used"]);
      const size = Number(u["size"]);
      if (!Number.isFinite(used) || !Number.isFinite(size)) return state;
      const c = u["cost"] as Record<string, unknown> | null | undefined;
      const cost = c && typeof c["amount"] === "number" ? { amount: c["amount"], currency: String(c["currency"] ?? "USD") } : null;
      return { ...state, usage: { used, size, cost } };
    }
    case "available_commands_update": {
      const list = Array.isArray(u["availableCommands"]) ? (u["availableCommands"] as Record<string, unknown>[]) : [];
      const commands = list
        .filter((c) => typeof c?.["name"] === "string" && c["name"])
        .map((c): Command => {
          const input = c["input"] && typeof c["input"] === "object" ? (c["input"] as Record<string, unknown>) : null;
          const hint = str(input?.["hint"]);
          return { name: String(c["name"]), description: str(c["description"]) ?? "", ...(hint ? { hint } : {}) };
        });
      return { ...state, commands };
    }
    case "session_info_update":
      return typeof u["title"] === "string" && u["title"] ? { ...state, title: u["title"] } : state;
    case "notice": {
      const title = str(u["title"]) ?? "";
      const description = str(u["description"]);
      if (!title && !description) return state;
      const [id, s] = localId(state, "notice");
      const level = u["severity"] === "warning" || u["severity"] === "error" ? "warn" : "info";
      return pushRow(s, { kind: "notice", id, level, text: description ? `${title} — ${description}` : title });
    }
    default:
      // user_message_chunk (history replay), compaction_*, and kinds ACP does not define.
      return state;
  }
}

/** Stop reasons of a turn that ended normally (no turn-end row). */
export const NORMAL_STOPS: ReadonlySet<string> = new Set(["end_turn", "", "idle"]);

function applyEvent(state: FoldState, e: SessionEvent, logged: boolean): FoldState {
  switch (e.kind) {
    case "user_message": {
      const id = `user:${e.id}`;
      if (state.rowIndex[id] !== undefined) return state;
      const row: UserRow = { kind: "user", id, messageId: e.id, blocks: e.blocks, author: e.author, at: e.at };
      // A steered message lands inside the running turn; otherwise the echo opens a new turn.
      const base = state.turnActive ? state : closeTurn(state);
      return {
        ...pushRow(base, row),
        open: state.turnActive ? { ...base.open, agent: null, thought: null } : NO_OPEN,
        turnActive: true,
        status: state.status === "idle" ? "active" : state.status,
      };
    }
    case "acp":
      return applyAcp(state, e.update);
    case "permission_request": {
      const title = str(e.toolCall["title"]) ?? "The agent asks for permission";
      return pushRow(state, {
        kind: "permission",
        id: `perm:${e.requestId}`,
        requestId: e.requestId,
        title,
        toolKind: str(e.toolCall["kind"]),
        subject: permissionSubject(e.toolCall),
        options: e.options,
        resolved: null,
      });
    }
    case "permission_resolved":
      return updateRow(state, `perm:${e.requestId}`, "permission", (r) => ({
        ...r,
        resolved: { outcome: e.outcome, optionId: e.optionId, by: e.by },
      }));
    case "elicitation_request":
      return pushRow(state, {
        kind: "elicitation",
        id: `elicit:${e.requestId}`,
        requestId: e.requestId,
        message: e.message,
        requestedSchema: e.requestedSchema,
        toolCallId: e.toolCallId ?? null,
        resolved: null,
      });
    case "elicitation_resolved":
      return updateRow(state, `elicit:${e.requestId}`, "elicitation", (r) => ({
        ...r,
        resolved: { action: e.action, content: e.content ?? null, by: e.by },
      }));
    case "session_status": {
      const turnActive = e.state === "active" || (e.state === "offline" && e.turnRunning === true);
      let s: FoldState = turnActive ? state : closeTurn(state);
      const stopReason = e.stopReason ?? null;
      if (logged && !turnActive && stopReason && !NORMAL_STOPS.has(stopReason)) {
        const [id, next] = localId(s, "end");
        s = pushRow(next, { kind: "turn_end", id, stopReason });
      }
      const authMethods = e.state === "error" && e.authMethods?.length ? e.authMethods : s.authMethods.length ? [] : s.authMethods;
      return {
        ...s,
        status: e.state,
        turnActive,
        statusMessage: e.message ?? null,
        stopReason: stopReason ?? (turnActive ? null : s.stopReason),
        authMethods,
      };
    }
    case "queue_state": {
      // Steer outcomes only matter while their entry is queued.
      const live = new Set(e.entries.map((x) => x.id));
      const steer = Object.keys(state.steer).some((id) => !live.has(id))
        ? Object.fromEntries(Object.entries(state.steer).filter(([id]) => live.has(id)))
        : state.steer;
      return { ...state, queue: e.entries, steer, dropped: e.dropped?.length ? e.dropped : state.dropped };
    }
    case "dropped_offer":
      return { ...state, dropped: e.entries };
    case "config_state":
      return { ...state, config: e.config };
    case "turn_error": {
      const [id, s] = localId(state, "error");
      return pushRow(s, { kind: "error", id, message: e.message, code: e.code ?? null });
    }
    case "steer_result":
      // A delivered entry already left the queue and its echo painted the row: mark that row.
      if (e.outcome === "injected" || e.outcome === "startedNewTurn") {
        const outcome = e.outcome;
        const row = rowById(state, `user:${e.id}`);
        if (!row || row.kind !== "user" || row.steered === outcome) return state;
        return updateRow(state, row.id, "user", (r) => ({ ...r, steered: outcome }));
      }
      // Otherwise mark the entry while it is still queued (failed / promptRequired / indeterminate).
      if (!state.queue.some((q) => q.id === e.id)) return state;
      return { ...state, steer: { ...state.steer, [e.id]: e.outcome } };
    case "notice": {
      const [id, s] = localId(state, "notice");
      return pushRow(s, { kind: "notice", id, level: e.level, text: e.text });
    }
    default:
      return assertNever(e);
  }
}
