/**
 * The client's one event reducer: fold(state, frame) → state. Pure (no DOM, no I/O); the Solid store
 * applies it with reconcile. User rows come only from the server's user_message echo.
 */
import { assertNever, type PromptBlock } from "./blocks";
import type { ConfigState, PermissionOption, QueueEntry, ServerFrame, SessionEvent, SessionState, Viewer } from "./viewer-protocol";

export type Row =
  | { kind: "user"; id: string; blocks: PromptBlock[]; author: string; at: number }
  | { kind: "agent"; id: string; text: string; open: boolean }
  | { kind: "thought"; id: string; text: string; open: boolean }
  | { kind: "tool"; id: string; title: string; toolKind: string; status: string; output: string }
  | { kind: "plan"; id: string; entries: { content: string; status: string }[] }
  | { kind: "permission"; id: string; title: string; options: PermissionOption[]; resolved: null | { outcome: string; optionId: string | null; by: string | null } }
  | { kind: "error"; id: string; message: string }
  | { kind: "notice"; id: string; level: "info" | "warn"; text: string };

export type FoldState = {
  seq: number;
  viewer: Viewer | null;
  ready: boolean;
  rows: Row[];
  queue: QueueEntry[];
  dropped: QueueEntry[];
  config: ConfigState | null;
  status: SessionState;
  /** A turn runs (Stop applies, sends queue). */
  turnActive: boolean;
  statusMessage: string | null;
  lastSteer: { id: string; outcome: string } | null;
  /** Internal: counter for rows without an agent-provided id. */
  nextRow: number;
};

export function initialSessionState(): FoldState {
  return {
    seq: 0,
    viewer: null,
    ready: false,
    rows: [],
    queue: [],
    dropped: [],
    config: null,
    status: "starting",
    turnActive: false,
    statusMessage: null,
    lastSteer: null,
    nextRow: 0,
  };
}

export function fold(state: FoldState, frame: ServerFrame): FoldState {
  switch (frame.type) {
    case "welcome":
      return { ...state, viewer: frame.viewer, ready: false };
    case "event":
      if (frame.seq <= state.seq) return state;
      return { ...applyEvent(state, frame.event), seq: frame.seq };
    case "snapshot": {
      let s: FoldState = frame.append ? state : { ...state, rows: [], nextRow: 0 };
      for (const e of frame.events) s = applyEvent(s, e);
      return { ...s, seq: frame.seq };
    }
    case "state":
      return applyEvent(state, frame.event);
    case "ready":
      return { ...state, ready: true, seq: Math.max(state.seq, frame.seq) };
    case "ack":
    case "error":
      return state;
    default:
      return assertNever(frame);
  }
}

const closeOpen = (rows: Row[]): Row[] =>
  rows.map((r) => ((r.kind === "agent" || r.kind === "thought") && r.open ? { ...r, open: false } : r));

function upsert(rows: Row[], row: Row): Row[] {
  const i = rows.findIndex((r) => r.id === row.id);
  if (i < 0) return [...rows, row];
  const next = rows.slice();
  next[i] = row;
  return next;
}

function contentText(content: unknown): string {
  if (!content || typeof content !== "object") return "";
  const c = content as { type?: string; text?: string; uri?: string; name?: string };
  if (c.type === "text" && typeof c.text === "string") return c.text;
  if (c.type === "resource_link") return `[${c.name ?? c.uri}](${c.uri ?? ""})`;
  if (c.type === "image") return "[image]";
  return "";
}

function toolOutput(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((item: any) => {
      if (item?.type === "content") return contentText(item.content);
      if (item?.type === "diff") return `--- ${item.path}\n${item.newText ?? ""}`;
      if (item?.type === "terminal") return `[terminal ${item.terminalId}]`;
      return "";
    })
    .filter(Boolean)
    .join("\n");
}

function appendChunk(state: FoldState, kind: "agent" | "thought", messageId: string | null, text: string): FoldState {
  const rows = state.rows;
  const last = rows[rows.length - 1];
  const id = messageId ? `${kind}:${messageId}` : null;
  if (id) {
    const i = rows.findIndex((r) => r.id === id);
    if (i >= 0) {
      const r = rows[i] as Extract<Row, { kind: "agent" | "thought" }>;
      const next = rows.slice();
      next[i] = { ...r, text: r.text + text };
      return { ...state, rows: next };
    }
  } else if (last && last.kind === kind && last.open) {
    return { ...state, rows: [...rows.slice(0, -1), { ...last, text: last.text + text }] };
  }
  const rowId = id ?? `${kind}:${state.nextRow}`;
  return { ...state, nextRow: state.nextRow + 1, rows: [...rows, { kind, id: rowId, text, open: true }] };
}

function applyAcp(state: FoldState, update: Record<string, unknown>): FoldState {
  const kind = update["sessionUpdate"];
  const messageId = typeof update["messageId"] === "string" ? update["messageId"] : null;
  switch (kind) {
    case "agent_message_chunk":
      return appendChunk(state, "agent", messageId, contentText(update["content"]));
    case "agent_thought_chunk":
      return appendChunk(state, "thought", messageId, contentText(update["content"]));
    case "tool_call":
    case "tool_call_update": {
      const id = `tool:${String(update["toolCallId"])}`;
      const prev = state.rows.find((r): r is Extract<Row, { kind: "tool" }> => r.id === id);
      const row: Row = {
        kind: "tool",
        id,
        title: typeof update["title"] === "string" ? update["title"] : (prev?.title ?? "Tool call"),
        toolKind: typeof update["kind"] === "string" ? update["kind"] : (prev?.toolKind ?? "other"),
        status: typeof update["status"] === "string" ? update["status"] : (prev?.status ?? "pending"),
        output: update["content"] !== undefined && update["content"] !== null ? toolOutput(update["content"]) : (prev?.output ?? ""),
      };
      return { ...state, rows: upsert(state.rows, row) };
    }
    case "plan": {
      const entries = Array.isArray(update["entries"])
        ? (update["entries"] as { content?: string; status?: string }[]).map((e) => ({ content: String(e.content ?? ""), status: String(e.status ?? "pending") }))
        : [];
      const last = state.rows[state.rows.length - 1];
      const planId = last?.kind === "plan" ? last.id : `plan:${state.nextRow}`;
      return { ...state, nextRow: state.nextRow + 1, rows: upsert(state.rows, { kind: "plan", id: planId, entries }) };
    }
    default:
      // current_mode_update / config_option_update arrive as config_state too; unknown kinds are ignored.
      return state;
  }
}

function applyEvent(state: FoldState, e: SessionEvent): FoldState {
  switch (e.kind) {
    case "user_message": {
      if (state.rows.some((r) => r.id === `user:${e.id}`)) return state;
      const row: Row = { kind: "user", id: `user:${e.id}`, blocks: e.blocks, author: e.author.name, at: e.at };
      // The echo starts the turn for every viewer, not only the sender.
      return { ...state, rows: [...closeOpen(state.rows), row], turnActive: true, status: state.status === "idle" ? "active" : state.status };
    }
    case "acp":
      return applyAcp(state, e.update);
    case "permission_request": {
      const title = typeof e.toolCall["title"] === "string" ? e.toolCall["title"] : "The agent asks for permission";
      return { ...state, rows: upsert(state.rows, { kind: "permission", id: `perm:${e.requestId}`, title, options: e.options, resolved: null }) };
    }
    case "permission_resolved": {
      const id = `perm:${e.requestId}`;
      return {
        ...state,
        rows: state.rows.map((r) =>
          r.id === id && r.kind === "permission" ? { ...r, resolved: { outcome: e.outcome, optionId: e.optionId, by: e.by?.name ?? null } } : r,
        ),
      };
    }
    case "session_status": {
      const turnActive = e.state === "active" || (e.state === "offline" && e.turnRunning === true);
      const rows = turnActive ? state.rows : closeOpen(state.rows);
      return { ...state, rows, status: e.state, turnActive, statusMessage: e.message ?? null };
    }
    case "queue_state":
      return { ...state, queue: e.entries, dropped: e.dropped?.length ? e.dropped : state.dropped };
    case "config_state":
      return { ...state, config: e.config };
    case "turn_error":
      return { ...state, nextRow: state.nextRow + 1, rows: [...state.rows, { kind: "error", id: `err:${state.nextRow}`, message: e.message }] };
    case "steer_result":
      return { ...state, lastSteer: { id: e.id, outcome: e.outcome } };
    case "notice":
      return { ...state, nextRow: state.nextRow + 1, rows: [...state.rows, { kind: "notice", id: `note:${state.nextRow}`, level: e.level, text: e.text }] };
    default:
      return assertNever(e);
  }
}

/** Clears the restore offer once a viewer has taken the dropped entries back. */
export function clearDropped(state: FoldState): FoldState {
  return { ...state, dropped: [] };
}
