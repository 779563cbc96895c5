/**
 * Join = the window, catch-up = what was missed, older rows by page: over a RoomStore on in-memory
 * SQLite, checked against the fold of the raw log (the transcript a viewer that saw everything has).
 */
import { describe, expect, it } from "vitest";
import { fold, type FoldState, initialSessionState, prependPage } from "../../shared/fold";
import { HISTORY_PAGE_ROWS, JOIN_WINDOW_ROWS } from "../../shared/limits";
import type { ConfigState, ServerFrame, SessionEvent, Viewer } from "../../shared/viewer-protocol";
import { memorySql } from "../testing/memory-sql";
import { compactEvents, MAX_ITEM_CHARS } from "./compact-events";
import { historyPage, replay, type ReplayState } from "./room-replay";
import { RoomStore } from "./room-store";

const VIEWER: Viewer = { id: "u1", name: "Ann", role: "viewer" };
const CONFIG: ConfigState = { modes: null, models: null, configOptions: [], steering: false, images: false, queueDepth: 1, mergeQueued: false };
const acp = (update: Record<string, unknown>): SessionEvent => ({ kind: "acp", update: update as Extract<SessionEvent, { kind: "acp" }>["update"] });
const chunk = (text: string, messageId?: string, kind = "agent_message_chunk") => acp({ sessionUpdate: kind, content: { type: "text", text }, ...(messageId ? { messageId } : {}) });

/** One turn of a varied session: text with and without message ids, thoughts, tools and their updates, a plan, permissions, usage. */
function turn(i: number): SessionEvent[] {
  const e: SessionEvent[] = [
    { kind: "user_message", id: `u${i}`, blocks: [{ type: "text", text: `question ${i}` }], author: { id: "u1", name: "Ann" }, at: i },
    { kind: "session_status", state: "active", turnId: `t${i}` },
  ];
  if (i % 3 === 0) e.push(chunk("thinking ", undefined, "agent_thought_chunk"), chunk("hard", undefined, "agent_thought_chunk"));
  if (i % 4 === 0) e.push(acp({ sessionUpdate: "plan", entries: [{ content: "a", status: "pending" }] }));
  if (i % 2 === 0) {
    e.push(acp({ sessionUpdate: "tool_call", toolCallId: `tc${i}`, title: `ls ${i}`, kind: "execute", status: "pending" }));
    e.push(acp({ sessionUpdate: "tool_call_update", toolCallId: `tc${i}`, status: "in_progress" }));
  }
  if (i % 5 === 0) {
    e.push({ kind: "permission_request", requestId: `p${i}`, toolCall: { title: "write" }, options: [{ optionId: "ok", name: "OK", kind: "allow_once" }] });
    e.push({ kind: "permission_resolved", requestId: `p${i}`, outcome: "selected", optionId: "ok", by: { id: "u1", name: "Ann" } });
  }
  for (const piece of ["Here ", "is ", `answer ${i}`]) e.push(chunk(piece, i % 2 ? `m${i}` : undefined));
  if (i % 2 === 0) e.push(acp({ sessionUpdate: "tool_call_update", toolCallId: `tc${i}`, status: "completed", content: [{ type: "content", content: { type: "text", text: "ok" } }] }));
  if (i % 4 === 0) e.push(acp({ sessionUpdate: "plan", entries: [{ content: "a", status: "completed" }] }));
  e.push(acp({ sessionUpdate: "usage_update", used: i, size: 1000 }));
  if (i === 1) e.push(acp({ sessionUpdate: "available_commands_update", availableCommands: [{ name: "review", description: "Review" }] }));
  if (i === 2) e.push(acp({ sessionUpdate: "session_info_update", title: "The session" }));
  e.push({ kind: "session_status", state: "idle", stopReason: i % 7 === 0 ? "cancelled" : "end_turn" });
  return e;
}

function session(turns: number, extra: SessionEvent[] = []): { store: RoomStore; log: SessionEvent[] } {
  const store = new RoomStore(memorySql());
  const log = [...Array.from({ length: turns }, (_, i) => turn(i + 1)).flat(), ...extra];
  store.beginRun();
  for (const e of log) store.append(e.kind, JSON.stringify(e));
  store.endRun();
  return { store, log };
}

/** What a viewer that saw every event live has (one batch: folded without a copy per row). */
function liveFold(log: SessionEvent[]): FoldState {
  if (!log.length) return initialSessionState();
  return fold(initialSessionState(), { type: "batch", frames: log.map((event, i) => ({ type: "event" as const, seq: i + 1, event })) });
}

/** The room's current status, as its replay would say it (a turn runs when the log says so). */
function now(store: RoomStore): ReplayState {
  const running = store.compact().turnActive;
  return { sessionId: "s1", config: CONFIG, status: { kind: "session_status", state: running ? "active" : "idle" } };
}

function join(store: RoomStore, after = 0, from: FoldState = initialSessionState()): { state: FoldState; frames: ServerFrame[]; bytes: number } {
  const frames: ServerFrame[] = [];
  let bytes = 0;
  replay(store, VIEWER, after, now(store), (t) => {
    bytes += t.length;
    frames.push(JSON.parse(t) as ServerFrame);
  });
  return { state: frames.reduce(fold, from), frames, bytes };
}

/** Pages back to the session's first row; each page's JSON size too. */
function pageBack(store: RoomStore, state: FoldState): { state: FoldState; pages: number } {
  let s = state;
  let pages = 0;
  while (s.historyBefore !== null) {
    const before = s.historyBefore;
    const page = JSON.parse(JSON.stringify(historyPage(store, before, HISTORY_PAGE_ROWS)));
    s = prependPage(s, before, page);
    pages++;
    expect(pages).toBeLessThan(1000);
  }
  return { state: s, pages };
}

describe("join = the window", () => {
  it("a join gets the last window of rows and the session-wide state; it renders what a full fold renders there", () => {
    const { store, log } = session(200);
    const live = liveFold(log);
    const { state, frames } = join(store);
    expect(state.rows.length).toBeGreaterThanOrEqual(JOIN_WINDOW_ROWS);
    expect(state.rows.length).toBeLessThan(JOIN_WINDOW_ROWS + 10);
    expect(state.rows).toEqual(live.rows.slice(-state.rows.length));
    expect(state.commands).toEqual(live.commands);
    expect(state.title).toBe("The session");
    expect(state.usage).toEqual(live.usage);
    expect(state.historyBefore).not.toBeNull();
    const snap = frames.find((f) => f.type === "snapshot");
    expect(snap).toMatchObject({ type: "snapshot", seq: store.headSeq(), append: false });
  });

  it("paging back from the window reaches the first row with every row exactly once, as the full fold has them", () => {
    const { store, log } = session(120);
    const live = liveFold(log);
    const { state, pages } = pageBack(store, join(store).state);
    expect(pages).toBeGreaterThan(5);
    expect(new Set(state.rows.map((r) => r.id)).size).toBe(state.rows.length);
    expect(state.rows).toEqual(live.rows);
    expect(state.rows[0]).toMatchObject({ kind: "user", messageId: "u1" });
  });

  it("a message stored in parts (past MAX_ITEM_CHARS) pages in whole: a page never carries a row's parts without the row", () => {
    const big: SessionEvent[] = [{ kind: "user_message", id: "big", blocks: [{ type: "text", text: "long" }], author: { id: "u1", name: "Ann" }, at: 0 }];
    for (let i = 0; i < 400; i++) big.push(chunk(`${i} ${"word ".repeat(400)}`));
    big.push({ kind: "session_status", state: "idle", stopReason: "end_turn" });
    const store = new RoomStore(memorySql());
    const log = [...Array.from({ length: 30 }, (_, i) => turn(i + 1)).flat(), ...big, ...Array.from({ length: 70 }, (_, i) => turn(i + 31)).flat()];
    for (const e of log) store.append(e.kind, JSON.stringify(e));
    const live = liveFold(log);
    const { state } = pageBack(store, join(store).state);
    expect(state.rows).toEqual(live.rows);
    expect(state.rows.filter((r) => r.kind === "agent" && r.text.length > MAX_ITEM_CHARS)).toHaveLength(1);
  });

  it("a window that starts inside a running turn keeps its tools live and its text streaming; pages before it too", () => {
    const long: SessionEvent[] = [{ kind: "user_message", id: "big", blocks: [{ type: "text", text: "go" }], author: { id: "u1", name: "Ann" }, at: 0 }];
    for (let i = 0; i < 150; i++) long.push(acp({ sessionUpdate: "tool_call", toolCallId: `b${i}`, title: `step ${i}`, status: "in_progress" }));
    long.push(chunk("still going"));
    const { store, log } = session(3, long);
    const live = liveFold(log);
    const { state } = join(store);
    expect(state.rows).toEqual(live.rows.slice(-state.rows.length));
    expect(state.rows.at(-2)).toMatchObject({ kind: "tool", live: true });
    expect(pageBack(store, state).state.rows).toEqual(live.rows);
  });

  it("join bytes stay flat as the session grows 10×", () => {
    const small = join(session(100).store).bytes;
    const large = join(session(1000).store).bytes;
    expect(large).toBeLessThan(small * 1.5);
  });

  it("compacting as the log grows (a join now and then) gives what compacting it once gives", () => {
    const { log } = session(60);
    const once = session(60).store;
    const stepwise = new RoomStore(memorySql());
    log.forEach((e, i) => {
      stepwise.append(e.kind, JSON.stringify(e));
      if (i % 37 === 0) stepwise.compact();
    });
    const a = once.compact();
    const b = stepwise.compact();
    expect(b).toEqual(a);
    expect(stepwise.compactedBefore(Number.MAX_SAFE_INTEGER, 10_000, Number.POSITIVE_INFINITY)).toEqual(once.compactedBefore(Number.MAX_SAFE_INTEGER, 10_000, Number.POSITIVE_INFINITY));
  });

  it("a history page is bounded by its limit and answers from where the viewer is", () => {
    const { store } = session(100);
    const { state } = join(store);
    const page = historyPage(store, state.historyBefore!, 5);
    const rows = fold(initialSessionState(), { type: "snapshot", seq: 0, events: page.events, at: page.at }).rows;
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows.length).toBeLessThanOrEqual(6);
    expect(page.historyBefore).toBeLessThan(state.historyBefore!);
    // An answer to an older request (the rows were replaced meanwhile) changes nothing.
    expect(prependPage(state, state.historyBefore! - 1, page)).toBe(state);
  });
});

describe("catch-up = what was missed", () => {
  it("a few missed events arrive as they are; the viewer ends where a full fold ends", () => {
    const { store, log } = session(50);
    const seen = liveFold(log);
    const more = turn(51).slice(0, 3);
    for (const e of more) store.append(e.kind, JSON.stringify(e));
    const { state, frames } = join(store, log.length, seen);
    expect(frames.filter((f) => f.type === "event")).toHaveLength(3);
    expect(state.rows).toEqual(liveFold([...log, ...more]).rows);
  });

  it("missed streaming is compacted when that is smaller than the window; rows stay as a full fold has them", () => {
    const { store, log } = session(50);
    const seen = liveFold(log);
    const more = [...turn(51), ...turn(52)];
    for (const e of more) store.append(e.kind, JSON.stringify(e));
    const { state, frames } = join(store, log.length, seen);
    expect(frames.filter((f) => f.type === "snapshot")).toMatchObject([{ append: true, seq: store.headSeq() }]);
    expect(state.rows).toEqual(liveFold([...log, ...more]).rows);
  });

  it("missing more than a window's worth gets the current window (replacing the rows), and catch-up bytes stay flat", () => {
    const cut = (turns: number) => {
      const { store, log } = session(turns);
      const seen = liveFold(log);
      const more = Array.from({ length: 150 }, (_, i) => turn(turns + 1 + i)).flat();
      for (const e of more) store.append(e.kind, JSON.stringify(e));
      const r = join(store, log.length, seen);
      const snap = r.frames.find((f) => f.type === "snapshot");
      expect(snap).toMatchObject({ append: false });
      expect(r.state.rows).toEqual(liveFold([...log, ...more]).rows.slice(-r.state.rows.length));
      return r.bytes;
    };
    expect(cut(1000)).toBeLessThan(cut(100) * 1.5);
  });
});

describe("compactEvents", () => {
  it("the compacted log folds to the same transcript as the raw log", () => {
    const { log } = session(30);
    const raw = log.map((event, i) => ({ seq: i + 1, event }));
    const out = compactEvents(raw);
    expect(out.length).toBeLessThan(raw.length * 0.7);
    const s = fold(initialSessionState(), { type: "snapshot", seq: raw.length, events: out.map((o) => o.event) });
    expect(s.rows.map(({ id: _id, ...r }) => r)).toEqual(liveFold(log).rows.map(({ id: _id, ...r }) => r));
  });
});

describe("join: what still waits for an answer", () => {
  it("a permission request still pending above the window is in the join; paging back does not add it twice", () => {
    const ask: SessionEvent = { kind: "permission_request", requestId: "late", toolCall: { title: "rm -rf build" }, options: [{ optionId: "ok", name: "OK", kind: "allow_once" }] };
    const rest: SessionEvent[] = [];
    for (let i = 0; i < 80; i++) rest.push({ kind: "notice", level: "info", text: `note ${i}` });
    const { store, log } = session(5, [{ kind: "user_message", id: "go", blocks: [{ type: "text", text: "go" }], author: { id: "u1", name: "Ann" }, at: 0 }, ask, ...rest]);
    store.addRequest({ kind: "permission", requestId: "late", toolCall: { title: "rm -rf build" }, options: [{ optionId: "ok", name: "OK", kind: "allow_once" }] });
    const { state } = join(store);
    expect(state.rows.find((r) => r.id === "perm:late")).toMatchObject({ kind: "permission", resolved: null });
    const all = pageBack(store, state).state;
    expect(all.rows.filter((r) => r.id === "perm:late")).toHaveLength(1);
    expect(all.rows.length).toBe(liveFold(log).rows.length);
  });
});
