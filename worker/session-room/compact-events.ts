/**
 * Compaction of the session log into rows: each compacted item is where one transcript row begins
 * (`pos`, the seq of the event that made it) with every later event that only shapes that row merged
 * in — streamed text chunks joined, tool-call updates folded into their tool call, a permission's /
 * form's answer and a steered message's outcome kept with their row, the turn's plan replaced by its
 * last version. Events that set session-wide state (slash commands, usage, title, mode and config
 * option updates) are kept as the latest of each kind, not in the rows.
 *
 * Folding the items in `pos` order (after the session-wide events) renders the same transcript as the
 * raw log, so catch-up costs O(rows), not O(tokens). The compaction is incremental — `compactInto`
 * continues from a saved `CompactState` over a store of items (`ItemSink`) — so the room keeps it in
 * SQLite and a join or a history page reads O(window) items instead of re-folding the session.
 * Pure: the sink is the only I/O. Mirrors the fold's rules (shared/fold.ts) for where a row begins.
 *
 * A streamed message's item is bounded (MAX_ITEM_CHARS): past the bound its later chunks go to a
 * part — an item of no row of its own (`partOf`: the pos of the row it continues) — whose chunks the
 * fold appends to the same row, as it appends consecutive chunks. Readers that fold a slice of items
 * alone (a history page, a search hit, an export step) keep a row's parts with it.
 */
import { SESSION_STATE_UPDATE_KINDS } from "../../shared/acp-update-kinds";
import { NORMAL_STOPS } from "../../shared/fold";
import { canMergeToolMeta, mergeToolMeta } from "../../shared/terminal-output";
import type { SessionEvent } from "../../shared/viewer-protocol";

export type Seqd = { seq: number; event: SessionEvent };

/**
 * Largest body of one compacted item (its events' JSON, in UTF-16 units; at most 3 UTF-8 bytes each):
 * 3 × 256 Ki stays well under a Durable Object's 2 MB SQLite value and a socket message's 1 MiB.
 */
export const MAX_ITEM_CHARS = 256 * 1024;

/** One transcript row's events (or an event that makes no row), at the seq where the row began. */
export type Compacted = {
  pos: number;
  /** The last seq merged in. */
  seq: number;
  /** What later events of this row find it by (`tool:<id>`, `perm:<id>`…); null when nothing merges by key. */
  key: string | null;
  /** Rows it adds to the transcript (0 or 1). */
  rows: number;
  /** A part of a longer item: the pos of the row it continues (its chunks append to that row); else null. */
  partOf: number | null;
  /** A turn was running just before it began (a window starting here must say so). */
  active: boolean;
  events: SessionEvent[];
};

/** Where the compaction stands between increments. */
export type CompactState = {
  /** Events up to this seq are compacted. */
  upto: number;
  /** The item of the text run each stream continues (the fold's open row), and its message id. */
  run: { agent: Run | null; thought: Run | null };
  /** pos of the newest item that added a row. */
  lastRow: number;
  /** The running turn's plan item. */
  plan: number | null;
  turnActive: boolean;
  /** seq of the last event that ended a turn's open rows (a history page before it ends them too). */
  lastClose: number;
  /** The latest session-wide event of each kind (`available_commands_update`…). */
  session: Record<string, Seqd>;
};
/** `pos`: the item (the row's, or its latest part) the run's next chunk merges into; `chars`: its body's
 *  length (absent in a state saved before parts: measured from the item then). */
type Run = { pos: number; messageId: string | null; chars?: number };

export function initialCompactState(): CompactState {
  return { upto: 0, run: { agent: null, thought: null }, lastRow: 0, plan: null, turnActive: false, lastClose: 0, session: {} };
}

/** Where compacted items live: the room's SQLite table, or a map for a one-off compaction. */
export interface ItemSink {
  byKey(key: string): Compacted | null;
  byPos(pos: number): Compacted | null;
  put(item: Compacted): void;
}


type AcpEvent = Extract<SessionEvent, { kind: "acp" }>;

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/** An item's body length as stored (JSON of its events). */
function itemChars(events: readonly SessionEvent[]): number {
  return JSON.stringify(events).length;
}

/** The text of a text chunk; null for other content (images…). */
function chunkText(e: AcpEvent): string | null {
  const content = e.update["content"] as { type?: string; text?: unknown } | undefined;
  return content?.type === "text" && typeof content.text === "string" ? content.text : null;
}

function withText(e: AcpEvent, text: string): AcpEvent {
  const content = e.update["content"] as Record<string, unknown>;
  return { kind: "acp", update: { ...e.update, content: { ...content, text } } };
}

/** A tool_call_update merged into the tool's last event (fields replaced, terminal output appended). */
function mergeToolUpdate(base: AcpEvent, e: AcpEvent): AcpEvent {
  const merged: Record<string, unknown> = { ...base.update };
  for (const [k, v] of Object.entries(e.update)) {
    if (k === "sessionUpdate" || v === null || v === undefined) continue;
    // Terminal output pieces in `_meta` add up (codex / pi stream a command's output that way).
    merged[k] = k === "_meta" ? mergeToolMeta(merged[k], v) : v;
  }
  return { kind: "acp", update: merged as AcpEvent["update"] };
}

/** Whether a session_status keeps a turn running (the fold's rule). */
function keepsTurn(e: Extract<SessionEvent, { kind: "session_status" }>): boolean {
  return e.state === "active" || (e.state === "offline" && e.turnRunning === true);
}

/**
 * Compacts `events` (seq order, after `state.upto`) into `sink`; returns the new state.
 * Items are read and written through the sink only.
 */
export function compactInto(sink: ItemSink, state: CompactState, events: Iterable<Seqd>): CompactState {
  const s: CompactState = { ...state, run: { ...state.run }, session: { ...state.session } };

  const born = (seq: number, event: SessionEvent, key: string | null, rows: number, partOf: number | null = null): Compacted => {
    const item: Compacted = { pos: seq, seq, key, rows, partOf, active: s.turnActive, events: [event] };
    sink.put(item);
    if (rows) s.lastRow = seq;
    return item;
  };
  const addTo = (item: Compacted, seq: number, event: SessionEvent) => sink.put({ ...item, seq, events: [...item.events, event] });
  const closeTurn = (seq: number) => {
    s.run = { agent: null, thought: null };
    s.plan = null;
    s.lastClose = seq;
  };

  for (const { seq, event: e } of events) {
    if (seq <= s.upto) continue;
    s.upto = seq;
    switch (e.kind) {
      case "acp":
        acp(seq, e);
        break;
      case "user_message": {
        const key = `user:${e.id}`;
        if (sink.byKey(key)) break; // the fold ignores a repeated echo
        if (!s.turnActive) closeTurn(seq);
        else s.run = { agent: null, thought: null };
        born(seq, e, key, 1);
        s.turnActive = true;
        break;
      }
      case "permission_request":
      case "elicitation_request": {
        const key = `${e.kind === "permission_request" ? "perm" : "elicit"}:${e.requestId}`;
        const item = sink.byKey(key);
        if (item) addTo(item, seq, e);
        else born(seq, e, key, 1);
        break;
      }
      case "permission_resolved":
      case "elicitation_resolved": {
        const item = sink.byKey(`${e.kind === "permission_resolved" ? "perm" : "elicit"}:${e.requestId}`);
        if (item) addTo(item, seq, e);
        else born(seq, e, null, 0);
        break;
      }
      case "steer_result": {
        const item = e.outcome === "injected" || e.outcome === "startedNewTurn" ? sink.byKey(`user:${e.id}`) : null;
        if (item) addTo(item, seq, e);
        else born(seq, e, null, 0);
        break;
      }
      case "session_status": {
        const active = keepsTurn(e);
        const turnEnd = !active && !!e.stopReason && !NORMAL_STOPS.has(e.stopReason);
        born(seq, e, null, turnEnd ? 1 : 0);
        if (!active) closeTurn(seq);
        s.turnActive = active;
        break;
      }
      case "turn_error":
      case "notice":
        born(seq, e, null, 1);
        break;
      case "queue_state":
      case "dropped_offer":
      case "config_state":
        born(seq, e, null, 0);
        break;
      default: {
        const never: never = e;
        void never;
      }
    }
  }
  return s;

  function acp(seq: number, e: AcpEvent): void {
    const kind = e.update.sessionUpdate;
    // Session-wide state the fold keeps from the latest event of a kind (no transcript row).
    if (SESSION_STATE_UPDATE_KINDS.has(kind)) {
      // The fold keeps a title only when it has one; the rest is the latest as sent.
      if (kind !== "session_info_update" || str(e.update["title"])) s.session[kind] = { seq, event: e };
      return;
    }
    if (kind === "agent_message_chunk" || kind === "agent_thought_chunk") return chunk(seq, e, kind === "agent_message_chunk" ? "agent" : "thought");
    const toolCallId = str(e.update["toolCallId"]);
    if ((kind === "tool_call" || kind === "tool_call_update") && toolCallId) {
      const item = sink.byKey(`tool:${toolCallId}`);
      if (!item) {
        born(seq, e, `tool:${toolCallId}`, 1);
        return;
      }
      const last = item.events[item.events.length - 1]!;
      if (kind === "tool_call_update" && last.kind === "acp" && canMergeToolMeta(last.update["_meta"], e.update["_meta"])) {
        sink.put({ ...item, seq, events: [...item.events.slice(0, -1), mergeToolUpdate(last, e)] });
      } else {
        // A re-sent tool call, or output of another terminal of the same tool: its own event in the row.
        addTo(item, seq, e);
      }
      return;
    }
    if (kind === "plan") {
      // One plan row per turn; each update replaces the whole plan (ACP), so only the last is kept.
      const item = s.plan === null ? null : sink.byPos(s.plan);
      if (item) sink.put({ ...item, seq, events: [e] });
      else s.plan = born(seq, e, null, 1).pos;
      return;
    }
    if (kind === "notice") {
      born(seq, e, null, str(e.update["title"]) || str(e.update["description"]) ? 1 : 0);
      return;
    }
    // Kinds the fold ignores (user_message_chunk of a history replay, compaction_*, unknown): kept as they are.
    born(seq, e, null, 0);
  }

  function chunk(seq: number, e: AcpEvent, stream: "agent" | "thought"): void {
    const text = chunkText(e);
    if (text === "") return; // the fold ignores empty text
    const messageId = str(e.update["messageId"]);
    const run = s.run[stream];
    // The run goes on while no other row began after it (the fold appends to its open row while it is the latest).
    const item = run && run.messageId === messageId && s.lastRow <= run.pos ? sink.byPos(run.pos) : null;
    if (run && item) {
      const last = item.events[item.events.length - 1]!;
      const lastText = last.kind === "acp" ? chunkText(last) : null;
      const merges = text !== null && lastText !== null && last.kind === "acp";
      // What the body grows by: the text as JSON escapes it, or the whole event and a comma.
      const grows = merges ? JSON.stringify(text).length - 2 : JSON.stringify(e).length + 1;
      const chars = (run.chars ?? itemChars(item.events)) + grows;
      if (chars > MAX_ITEM_CHARS) {
        // Full: the chunk begins a part of the same row (the fold appends it as it appends the next chunk).
        const part = born(seq, e, null, 0, item.partOf ?? item.pos);
        s.run[stream] = { pos: part.pos, messageId, chars: itemChars(part.events) };
        return;
      }
      if (merges) sink.put({ ...item, seq, events: [...item.events.slice(0, -1), withText(last, lastText + text)] });
      else addTo(item, seq, e);
      s.run[stream] = { ...run, chars };
      return;
    }
    // A message id seen before (after other rows) appends to that row in the fold: no new row here.
    const key = messageId ? `${stream}:${messageId}` : null;
    const rows = key && sink.byKey(key) ? 0 : 1;
    const created = born(seq, e, rows ? key : null, rows);
    s.run[stream] = { pos: created.pos, messageId, chars: itemChars(created.events) };
    // The other stream's open row is no longer the latest row.
  }
}

/** Items in memory (a one-off compaction, e.g. a viewer's missed events). */
export function memorySink(): ItemSink & { items(): Compacted[] } {
  const byPos = new Map<number, Compacted>();
  const byKey = new Map<string, number>();
  return {
    byKey: (key) => {
      const pos = byKey.get(key);
      return pos === undefined ? null : (byPos.get(pos) ?? null);
    },
    byPos: (pos) => byPos.get(pos) ?? null,
    put: (item) => {
      byPos.set(item.pos, item);
      if (item.key) byKey.set(item.key, item.pos);
    },
    items: () => [...byPos.values()].sort((a, b) => a.pos - b.pos),
  };
}

/** The session-wide events of a state, oldest first. */
export function sessionEvents(state: CompactState): Seqd[] {
  return Object.values(state.session).sort((a, b) => a.seq - b.seq);
}

/** A whole compaction of `events` in memory: the session-wide events, then the items. */
export function compactItems(events: Iterable<Seqd>): { session: Seqd[]; items: Compacted[] } {
  const sink = memorySink();
  const state = compactInto(sink, initialCompactState(), events);
  return { session: sessionEvents(state), items: sink.items() };
}

/** `compactItems` as a flat list: the events to fold, each with the last seq merged into its row. */
export function compactEvents(events: Iterable<Seqd>): Seqd[] {
  const { session, items } = compactItems(events);
  return [...session, ...items.flatMap((it) => it.events.map((event) => ({ seq: it.seq, event })))];
}
