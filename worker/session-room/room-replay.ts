/**
 * What a viewer gets on (re)connect, and older rows on request — the cost is what is on screen, not the session.
 *
 * (Re)connect, in this order: welcome → the rows → queue_state → dropped_offer (when one is open) →
 * config_state → session_status (synthetic) → ready. The rows are
 * - a join (no cursor, or a cursor too far behind): the session-wide state (slash commands, usage,
 *   title…), permission requests / forms still waiting for an answer (even when they began above the
 *   window) and the last JOIN_WINDOW_ROWS compacted rows, as a snapshot (reset) whose `historyBefore`
 *   says where `history.page` continues;
 * - a catch-up (cursor ≤ REPLAY_TAIL_MAX events behind): the missed events — as they are when
 *   compacting them saves nothing, else compacted in an `append` snapshot — when that is no larger
 *   than the window; else the window (the viewer's rows are replaced; older ones page in again).
 * Never the whole session. Synchronous: the caller joins the live set in the same step, so nothing
 * falls between backlog and live.
 *
 * `history.page {before, limit}`: the compacted rows before `before`, O(page) from the `compacted` table.
 */
import { JOIN_WINDOW_ROWS, REPLAY_TAIL_MAX, SNAPSHOT_PAGE_BYTES } from "../../shared/limits";
import type { ConfigState, HistoryPageAck, ServerFrame, SessionEvent, Viewer } from "../../shared/viewer-protocol";
import { type CompactState, compactItems, sessionEvents } from "./compact-events";
import type { RoomStore } from "./room-store";
import type { SessionStatusEvent } from "./room-status";

export type ReplayState = { sessionId: string; config: ConfigState; status: SessionStatusEvent };

/** Events to fold in a fresh state, each with the seq where its row began. */
type Rows = { events: SessionEvent[]; at: number[]; historyBefore: number | null };
/** Rows as sent: each event serialised once. */
type RowsJson = { events: string[]; at: number[]; historyBefore: number | null; bytes: number };

function toJson(rows: Rows): RowsJson {
  const events = rows.events.map((e) => JSON.stringify(e));
  return { events, at: rows.at, historyBefore: rows.historyBefore, bytes: events.reduce((n, e) => n + e.length, 0) };
}

/**
 * The compacted rows before `before`: `rows` rows back (fewer when `maxBytes` is reached), opened with
 * the turn state they start in and — for a page, whose rows a later turn end closed — closed.
 */
function rowsBefore(store: RoomStore, state: CompactState, before: number, rows: number, opts: { join: boolean; maxBytes: number }): Rows {
  const { items, more } = store.compactedBefore(before, rows, opts.maxBytes);
  const out: Rows = { events: [], at: [], historyBefore: null };
  const push = (e: SessionEvent, at: number) => {
    out.events.push(e);
    out.at.push(at);
  };
  const first = items[0]?.pos ?? before;
  if (opts.join) {
    for (const { seq, event } of sessionEvents(state)) push(event, seq);
    // A request still waiting for an answer is shown to every viewer, even when it began above the window.
    const waiting = store.openRequests().map((r) => `${r.kind === "permission" ? "perm" : "elicit"}:${r.requestId}`);
    for (const it of store.compactedByKey(waiting)) if (it.pos < first) for (const e of it.events) push(e, it.pos);
  }
  // The window begins inside a running turn: its rows are that turn's (tools live, the plan open).
  if (items[0]?.active) push({ kind: "session_status", state: "active" }, first);
  for (const it of items) for (const e of it.events) push(e, it.pos);
  // A turn that ended after this page: its rows are closed (streaming stopped, tools no longer live).
  if (!opts.join && state.lastClose >= before && items.length) push({ kind: "session_status", state: "idle" }, items[items.length - 1]!.pos);
  out.historyBefore = more ? first : null;
  return out;
}

/** Snapshot frames of `rows`, each under SNAPSHOT_PAGE_BYTES. Non-final pages carry seq 0: a viewer cut off mid-way starts over. */
function sendSnapshot(sendText: (text: string) => void, head: number, rows: RowsJson, append: boolean): void {
  let from = 0;
  let bytes = 0;
  const flush = (to: number, last: boolean) => {
    const first = from === 0;
    const fields = [
      `"type":"snapshot"`,
      `"seq":${last ? head : 0}`,
      `"append":${append || !first}`,
      `"at":${JSON.stringify(rows.at.slice(from, to))}`,
      ...(first && !append ? [`"historyBefore":${JSON.stringify(rows.historyBefore)}`] : []),
      `"events":[${rows.events.slice(from, to).join(",")}]`,
    ];
    sendText(`{${fields.join(",")}}`);
    from = to;
    bytes = 0;
  };
  rows.events.forEach((json, i) => {
    if (bytes + json.length > SNAPSHOT_PAGE_BYTES && i > from) flush(i, false);
    bytes += json.length;
  });
  flush(rows.events.length, true);
}

export function replay(store: RoomStore, viewer: Viewer, after: number, now: ReplayState, sendText: (text: string) => void): void {
  const head = store.headSeq();
  const send = (f: ServerFrame) => sendText(JSON.stringify(f));
  send({ type: "welcome", sessionId: now.sessionId, viewer, headSeq: head });
  const windowRows = () => toJson(rowsBefore(store, store.compact(), head + 1, JOIN_WINDOW_ROWS, { join: true, maxBytes: Number.POSITIVE_INFINITY }));
  if (after > 0 && after <= head && head - after <= REPLAY_TAIL_MAX) {
    const missed = store.eventsAfter(after);
    if (missed.length) {
      const { session, items } = compactItems(missed);
      const flat: Rows = { events: [], at: [], historyBefore: null };
      for (const { seq, event } of session) flat.events.push(event), flat.at.push(seq);
      for (const it of items) for (const e of it.events) flat.events.push(e), flat.at.push(it.pos);
      // Nothing merged: the events as they are (live frames, no reset); else one `append` snapshot.
      const missedFrames =
        flat.events.length === missed.length
          ? missed.map((m) => JSON.stringify({ type: "event", seq: m.seq, event: m.event } satisfies ServerFrame))
          : null;
      const compacted = toJson(flat);
      const missedBytes = missedFrames ? missedFrames.reduce((n, f) => n + f.length, 0) : compacted.bytes;
      const window = windowRows();
      if (missedBytes > window.bytes) sendSnapshot(sendText, head, window, false);
      else if (missedFrames) missedFrames.forEach(sendText);
      else sendSnapshot(sendText, head, compacted, true);
    }
  } else if (head > 0 || after > 0) {
    sendSnapshot(sendText, head, windowRows(), false);
  }
  send({ type: "state", event: { kind: "queue_state", entries: store.queue(), flushed: false } });
  const offer = store.state()?.droppedOffer;
  if (offer?.length) send({ type: "state", event: { kind: "dropped_offer", entries: offer } });
  send({ type: "state", event: { kind: "config_state", config: now.config } });
  send({ type: "state", event: { ...now.status, synthetic: true } });
  send({ type: "ready", seq: head });
}

/** The answer to `history.page`: the `limit` rows before `before`, within one socket message. */
export function historyPage(store: RoomStore, before: number, limit: number): HistoryPageAck {
  return rowsBefore(store, store.compact(), before, limit, { join: false, maxBytes: SNAPSHOT_PAGE_BYTES });
}
