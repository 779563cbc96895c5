/**
 * Issue 20 in workerd, over real WebSockets: a join costs the last window of rows and a catch-up what
 * was missed (or the window), flat as the session grows 10×; `history.page` pages back to the first
 * turn with every row exactly once. Long sessions are written straight into the room's log (as the
 * bench does); what viewers get goes the product path.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fold, type FoldState, initialSessionState, prependPage } from "../../shared/fold";
import { HISTORY_PAGE_ROWS, JOIN_WINDOW_ROWS } from "../../shared/limits";
import type { SessionEvent } from "../../shared/viewer-protocol";
import { setupSession, TestViewer, text, waitFor } from "./harness";

const room = (id: string) => env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(id));
const acp = (update: Record<string, unknown>): SessionEvent => ({ kind: "acp", update: update as Extract<SessionEvent, { kind: "acp" }>["update"] });

/** One agent turn: the echo, a thought, a tool call and its result, an answer streamed in pieces. */
function turn(i: number): SessionEvent[] {
  const out: SessionEvent[] = [
    { kind: "user_message", id: `u${i}`, blocks: [{ type: "text", text: `question ${i}: what about the next part?` }], author: { id: "dev", name: "Dev" }, at: i },
    { kind: "session_status", state: "active", turnId: `t${i}` },
    acp({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Let me look " } }),
    acp({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "at the files." } }),
    acp({ sessionUpdate: "tool_call", toolCallId: `tc${i}`, title: `grep part ${i}`, kind: "search", status: "pending" }),
    acp({ sessionUpdate: "tool_call_update", toolCallId: `tc${i}`, status: "completed", content: [{ type: "content", content: { type: "text", text: `src/part${i}.ts:1` } }] }),
  ];
  for (let c = 0; c < 10; c++) out.push(acp({ sessionUpdate: "agent_message_chunk", messageId: `m${i}`, content: { type: "text", text: `piece ${c} of answer ${i}. ` } }));
  out.push({ kind: "session_status", state: "idle", stopReason: "end_turn" });
  return out;
}

/** Appends turns [from, to) to the room's log; the room rereads its head after the eviction. */
async function seed(sessionId: string, from: number, to: number): Promise<void> {
  await runInDurableObject(room(sessionId), (_i, state) => {
    for (let i = from; i < to; i++) for (const e of turn(i)) state.storage.sql.exec("INSERT INTO events (kind, body, at) VALUES (?, ?, ?)", e.kind, JSON.stringify(e), 0);
  });
  await evictDurableObject(room(sessionId));
}

/** The whole log folded as a viewer that saw every event has it. */
async function fullFold(sessionId: string): Promise<FoldState> {
  const rows = await runInDurableObject(room(sessionId), (_i, state) =>
    state.storage.sql.exec<{ seq: number; last: number | null; body: string }>("SELECT seq, last, body FROM events ORDER BY seq").toArray(),
  );
  const frames = rows.flatMap((r) =>
    r.last === null
      ? [{ type: "event" as const, seq: r.seq, event: JSON.parse(r.body) as SessionEvent }]
      : (JSON.parse(r.body) as SessionEvent[]).map((event, k) => ({ type: "event" as const, seq: r.seq + k, event })),
  );
  return fold(initialSessionState(), { type: "batch", frames });
}

const stateOf = (v: TestViewer) => v.frames.reduce(fold, initialSessionState());

describe("join = the window, catch-up = what was missed (workerd)", () => {
  it("join bytes stay flat from 100 to 1,000 turns; the window renders the full fold's last rows", async () => {
    const { sessionId } = await setupSession();
    await seed(sessionId, 1, 101);
    const small = await TestViewer.open(sessionId, 0);
    await seed(sessionId, 101, 1001);
    const large = await TestViewer.open(sessionId, 0);
    expect(large.bytes).toBeLessThan(small.bytes * 1.5);
    const s = stateOf(large);
    expect(s.rows.length).toBeGreaterThanOrEqual(JOIN_WINDOW_ROWS);
    expect(s.rows).toEqual((await fullFold(sessionId)).rows.slice(-s.rows.length));
    expect(s.historyBefore).not.toBeNull();
    small.close();
    large.close();
  });

  it("catch-up after a cut: the missed turns when fewer than a window, else the window — flat as the session grows", async () => {
    const cut = async (turns: number, missed: number) => {
      const { sessionId } = await setupSession();
      await seed(sessionId, 1, turns + 1);
      const v = await TestViewer.open(sessionId, 0);
      v.close();
      const before = v.bytes;
      await seed(sessionId, turns + 1, turns + 1 + missed);
      await v.connect(sessionId, v.seq);
      const frames = v.frames.slice(v.frames.findLastIndex((f) => f.type === "welcome"));
      const snapshot = frames.find((f) => f.type === "snapshot");
      // The viewer's fold across the cut ends with the full fold's last rows.
      const s = stateOf(v);
      expect(s.rows.slice(-JOIN_WINDOW_ROWS)).toEqual((await fullFold(sessionId)).rows.slice(-JOIN_WINDOW_ROWS));
      v.close();
      return { bytes: v.bytes - before, reset: snapshot?.type === "snapshot" && !snapshot.append };
    };
    const few100 = await cut(100, 3);
    const many100 = await cut(100, 150);
    const many1000 = await cut(1000, 150);
    expect(few100.reset).toBe(false);
    expect(many100.reset).toBe(true);
    expect(few100.bytes).toBeLessThan(many100.bytes);
    expect(many1000.bytes).toBeLessThan(many100.bytes * 1.5);
  });

  it("history.page pages back to the first turn, every row exactly once, as the full fold has them; viewers may page", async () => {
    const { daemon, sessionId } = await setupSession();
    await seed(sessionId, 1, 201);
    // And a turn on the product path after the seeded ones.
    const owner = await TestViewer.open(sessionId, 0);
    await owner.op({ op: "message.send", id: "live", blocks: text("one more") });
    await daemon.finishTurn(sessionId, "done live");
    await waitFor(() => owner.lastStatus()?.state === "idle", "idle");
    const v = await TestViewer.open(sessionId, 0);
    let s = stateOf(v);
    let pages = 0;
    while (s.historyBefore !== null) {
      const before = s.historyBefore;
      const reply = await v.op({ op: "history.page", before, limit: HISTORY_PAGE_ROWS });
      if (reply.type !== "ack") throw new Error(`history.page failed: ${reply.message}`);
      s = prependPage(s, before, reply.result);
      pages++;
      expect(pages).toBeLessThan(100);
    }
    const full = await fullFold(sessionId);
    expect(new Set(s.rows.map((r) => r.id)).size).toBe(s.rows.length);
    expect(s.rows).toEqual(full.rows);
    expect(s.rows[0]).toMatchObject({ kind: "user", messageId: "u1" });
    expect(s.rows.at(-1)).toMatchObject({ kind: "agent", text: "done live" });
    expect(pages).toBeGreaterThan(10);
    // A bounded limit: more than MAX_HISTORY_PAGE_ROWS is refused as a bad frame.
    expect(await v.op({ op: "history.page", before: 10, limit: 100_000 })).toMatchObject({ type: "error", code: "BAD_FRAME" });
    owner.close();
    v.close();
  });
});
