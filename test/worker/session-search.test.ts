/**
 * Search inside a session and its Markdown export, in workerd over real sockets (issue 26, parts 5–6):
 * a 100,000-event session searched to its first turn in bounded answers while the room keeps serving
 * daemon events and other viewers' ops between them; a 10 kB query refused with nothing changed;
 * the export streams every turn. Long sessions are written straight into the room's log (as the
 * join-window test does); what viewers get goes the product path.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_SEARCH_RESULTS, SEARCH_SLICE_ROWS } from "../../shared/limits";
import type { SearchAck, SessionEvent } from "../../shared/viewer-protocol";
import { ORIGIN, setupSession, TestViewer, waitFor } from "./harness";

const room = (id: string) => env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(id));
const acp = (update: Record<string, unknown>): SessionEvent => ({ kind: "acp", update: update as Extract<SessionEvent, { kind: "acp" }>["update"] });

/** 16 events: the echo, a thought, a tool call and its result, an answer in 10 pieces, the end. */
function turn(i: number, word = ""): SessionEvent[] {
  const out: SessionEvent[] = [
    { kind: "user_message", id: `u${i}`, blocks: [{ type: "text", text: `question ${i} ${word}`.trim() }], author: { id: "dev", name: "Dev" }, at: Date.UTC(2026, 0, 1) + i * 1000 },
    { kind: "session_status", state: "active", turnId: `t${i}` },
    acp({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "private musing" } }),
    acp({ sessionUpdate: "tool_call", toolCallId: `tc${i}`, title: `grep part ${i}`, kind: "search", status: "pending", rawInput: { command: `rg part${i}` } }),
    acp({ sessionUpdate: "tool_call_update", toolCallId: `tc${i}`, status: "completed", content: [{ type: "content", content: { type: "text", text: `src/part${i}.ts:1` } }] }),
  ];
  for (let c = 0; c < 10; c++) out.push(acp({ sessionUpdate: "agent_message_chunk", messageId: `m${i}`, content: { type: "text", text: `piece ${c} of answer ${i}. ` } }));
  out.push({ kind: "session_status", state: "idle", stopReason: "end_turn" });
  return out;
}

/** Appends turns [from, to) to the room's log, a run row per turn (as the room writes a batch). */
async function seed(sessionId: string, from: number, to: number, word: (i: number) => string = () => ""): Promise<number> {
  const head = await runInDurableObject(room(sessionId), (_i, state) => {
    const sql = state.storage.sql;
    let next = (sql.exec<{ s: number | null }>("SELECT MAX(COALESCE(last, seq)) AS s FROM events").one().s ?? 0) + 1;
    for (let i = from; i < to; i++) {
      const events = turn(i, word(i));
      sql.exec("INSERT INTO events (seq, last, kind, body, at) VALUES (?, ?, 'run', ?, 0)", next, next + events.length - 1, JSON.stringify(events));
      next += events.length;
    }
    return next - 1;
  });
  await evictDurableObject(room(sessionId));
  return head;
}

const search = async (v: TestViewer, query: string, before?: number) => {
  const r = await v.op({ op: "history.search", query, ...(before ? { before } : {}) }, 30_000);
  if (r.type !== "ack") throw new Error(`search refused: ${r.message}`);
  return r.result;
};

describe("history.search and export (workerd)", () => {
  it("a 100,000-event session: the first turn's word is found in bounded answers while live events and other ops flow", async () => {
    const { sessionId, daemon } = await setupSession();
    const turns = 6250; // × 16 events
    const start = (await room(sessionId).info()).headSeq;
    const head = await seed(sessionId, 1, turns + 1, (i) => (i === 1 ? "marmalade" : ""));
    expect(head - start).toBe(100_000);
    const reader = await TestViewer.open(sessionId, 0); // the join compacts the log
    const other = await TestViewer.open(sessionId, 0);
    const rowItems = turns * 3; // user, tool, agent

    // Walk the search answer by answer; between two answers the daemon streams and another viewer pages.
    const answers: SearchAck[] = [];
    let before: number | undefined;
    let live = 0;
    do {
      const [answer] = await Promise.all([
        search(reader, "marmalade", before),
        (async () => {
          daemon.emit({ t: "session.update", sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `live-${++live} ` } } });
          const page = await other.op({ op: "history.page", before: head, limit: 10 });
          expect(page.type).toBe("ack");
        })(),
      ]);
      answers.push(answer);
      // The live chunk sent alongside this answer reached the searching viewer before the search ended.
      const n = live;
      await waitFor(() => reader.chunkTexts().includes(`live-${n} `), `live chunk ${n}`);
      before = answer.continueBefore ?? undefined;
    } while (before !== undefined);

    // Bounded: no answer read more than a slice, so the walk took at least rows / slice answers.
    expect(answers.length).toBeGreaterThanOrEqual(Math.ceil(rowItems / SEARCH_SLICE_ROWS));
    expect(answers.slice(0, -1).every((a) => a.truncated && a.hits.length === 0)).toBe(true);
    const last = answers.at(-1)!;
    expect(last).toMatchObject({ continueBefore: null, truncated: false });
    expect(last.hits).toEqual([expect.objectContaining({ at: start + 1, rowId: "user:u1", kind: "user", snippet: "question 1 marmalade", marks: [[11, 20]] })]);
    expect(other.chunkTexts()).toContain(`live-${live} `);

    // Results are bounded too: a word in many turns comes back a page of MAX_SEARCH_RESULTS, newest first.
    const piece = await search(reader, "piece 3 of answer");
    expect(piece.hits).toHaveLength(MAX_SEARCH_RESULTS);
    expect(piece.truncated).toBe(true);
    expect(piece.hits[0]!.at).toBeGreaterThan(piece.hits.at(-1)!.at);
    reader.close();
    other.close();
  });

  it("a 10 kB query gets a clear error and changes nothing; an empty one too; viewers' sockets stay usable", async () => {
    const { sessionId } = await setupSession();
    const start = (await room(sessionId).info()).headSeq;
    await seed(sessionId, 1, 5, (i) => (i === 2 ? "needle" : ""));
    const v = await TestViewer.open(sessionId, 0);
    const framesBefore = v.frames.length;
    const huge = await v.op({ op: "history.search", query: "x".repeat(10_000) });
    expect(huge).toMatchObject({ type: "error", code: "BAD_FRAME", message: "invalid history.search: query: the search is longer than 200 characters" });
    const empty = await v.op({ op: "history.search", query: "   " });
    expect(empty).toMatchObject({ type: "error", code: "BAD_FRAME", message: "invalid history.search: query: the search is empty" });
    const tooMany = await v.op({ op: "history.search", query: "needle", limit: 5000 });
    expect(tooMany).toMatchObject({ type: "error", code: "BAD_FRAME" });
    // Nothing was logged or broadcast; the same socket still searches.
    expect(v.frames.slice(framesBefore).every((f) => f.type === "ack" || f.type === "error")).toBe(true);
    const info = await room(sessionId).info();
    expect(info.headSeq).toBe(start + 4 * 16);
    expect((await search(v, "NEEDLE")).hits).toMatchObject([{ at: start + 17, kind: "user" }]);
    expect((await search(v, "rg part3")).hits).toMatchObject([{ kind: "tool", label: "grep part 3", snippet: "rg part3" }]);
    // Thoughts are not searched.
    expect((await search(v, "musing")).hits).toEqual([]);
    v.close();
  });

  it("export.md streams every turn as Markdown with download headers; an unknown session is 404", async () => {
    const { sessionId } = await setupSession();
    await seed(sessionId, 1, 1201);
    const res = await exports.default.fetch(`${ORIGIN}/api/sessions/${sessionId}/export.md`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="Demo work.md"');
    const md = await res.text();
    // The title the session list shows (here the one it was created with: the seeded log set no other).
    expect(md.startsWith("# Demo · work\n")).toBe(true);
    expect(md).toContain("- **Agent:** demo");
    expect(md).toContain("- **Directory:** `/work`");
    for (const i of [1, 600, 1200]) {
      expect(md).toContain(`## Dev · `);
      expect(md).toContain(`\nquestion ${i}\n`);
      expect(md).toContain(`### Tool: grep part ${i} — search · completed\n\n\`\`\`sh\nrg part${i}\n\`\`\``);
      expect(md).toContain(`piece 0 of answer ${i}. piece 1 of answer ${i}.`);
    }
    expect(md).not.toContain("private musing");
    expect(md.indexOf("\nquestion 1\n")).toBeLessThan(md.indexOf("\nquestion 2\n"));
    expect((await exports.default.fetch(`${ORIGIN}/api/sessions/no-such-session/export.md`)).status).toBe(404);
  });
});
