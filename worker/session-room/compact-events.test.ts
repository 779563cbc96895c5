import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../shared/viewer-protocol";
import { fold, initialSessionState, rowById } from "../../shared/fold";
import { MAX_TERMINAL_OUTPUT_CHARS } from "../../shared/limits";
import { compactEvents, compactItems, MAX_ITEM_CHARS } from "./compact-events";

const acp = (update: Record<string, unknown>): SessionEvent => ({ kind: "acp", update: update as any });
const chunk = (text: string, messageId?: string, kind = "agent_message_chunk") =>
  acp({ sessionUpdate: kind, content: { type: "text", text }, ...(messageId ? { messageId } : {}) });

describe("compactEvents", () => {
  it("merges consecutive text chunks of one message and keeps the last seq", () => {
    const out = compactEvents(["a", "b", "c"].map((t, i) => ({ seq: i + 1, event: chunk(t, "m1") })));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ seq: 3, event: { update: { content: { text: "abc" }, messageId: "m1" } } });
  });

  it("does not merge across messages, kinds or other events", () => {
    const events: SessionEvent[] = [
      chunk("t1", undefined, "agent_thought_chunk"),
      chunk("x", "m1"),
      chunk("y", "m2"),
      { kind: "user_message", id: "u", blocks: [{ type: "text", text: "hi" }], author: { id: "a", name: "A" }, at: 1 },
      chunk("z", "m2"),
    ];
    const out = compactEvents(events.map((event, i) => ({ seq: i + 1, event })));
    expect(out.map((o) => (o.event.kind === "acp" ? (o.event.update as any).content.text : o.event.kind))).toEqual(["t1", "x", "y", "user_message", "z"]);
  });

  it("folds tool_call_update into its tool_call and keeps unknown kinds as they are", () => {
    const out = compactEvents(
      [
        acp({ sessionUpdate: "tool_call", toolCallId: "t", title: "Run", status: "pending" }),
        acp({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "in_progress" }),
        acp({ sessionUpdate: "_custom", payload: 1 }),
        acp({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "completed", content: [{ type: "content", content: { type: "text", text: "ok" } }] }),
      ].map((event, i) => ({ seq: i + 1, event })),
    );
    expect(out).toHaveLength(2);
    expect(out[0]!.event).toMatchObject({ update: { sessionUpdate: "tool_call", title: "Run", status: "completed" } });
    expect(out[1]!.event).toMatchObject({ update: { sessionUpdate: "_custom" } });
  });

  it("terminal output pieces in tool updates' _meta are concatenated, not replaced; the fold shows the same text", () => {
    const delta = (data: string, extra: Record<string, unknown> = {}) =>
      acp({ sessionUpdate: "tool_call_update", toolCallId: "t", _meta: { terminal_output_delta: { terminal_id: "t", data }, ...extra } });
    const raw = [
      { kind: "user_message", id: "u", blocks: [{ type: "text", text: "ls" }], author: { id: "a", name: "A" }, at: 1 } as SessionEvent,
      acp({ sessionUpdate: "tool_call", toolCallId: "t", title: "ls", kind: "execute", status: "in_progress", content: [{ type: "terminal", terminalId: "t" }] }),
      delta("a\n"),
      delta("b\n"),
      acp({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "completed", _meta: { terminal_exit: { terminal_id: "t", exit_code: 0, signal: null } } }),
    ].map((event, i) => ({ seq: i + 1, event }));
    const out = compactEvents(raw);
    expect(out).toHaveLength(2);
    const live = raw.reduce((s, { seq, event }) => fold(s, { type: "event", seq, event }), initialSessionState());
    const replayed = fold(initialSessionState(), { type: "snapshot", seq: 5, events: out.map((o) => o.event) });
    expect(rowById(replayed, "tool:t")).toEqual(rowById(live, "tool:t"));
    expect(rowById(replayed, "tool:t")).toMatchObject({ terminals: [{ output: "a\nb\n", exit: { exitCode: 0 } }] });
  });

  it("output of two terminals of one tool is not merged into one: the fold shows both", () => {
    const out = (id: string, data: string) => acp({ sessionUpdate: "tool_call_update", toolCallId: "t", _meta: { terminal_output: { terminal_id: id, data } } });
    const raw = [acp({ sessionUpdate: "tool_call", toolCallId: "t", title: "two", status: "in_progress" }), out("a", "1"), out("b", "2"), out("a", "3"), out("b", "4")].map(
      (event, i) => ({ seq: i + 1, event }),
    );
    const live = raw.reduce((s, { seq, event }) => fold(s, { type: "event", seq, event }), initialSessionState());
    const replayed = fold(initialSessionState(), { type: "snapshot", seq: 5, events: compactEvents(raw).map((o) => o.event) });
    expect(rowById(replayed, "tool:t")).toEqual(rowById(live, "tool:t"));
    expect(rowById(live, "tool:t")).toMatchObject({ terminals: [{ terminalId: "a", output: "13" }, { terminalId: "b", output: "24" }] });
  });

  it("a long terminal output compacts to the bounded tail and still reads as cut after the fold", () => {
    const big = "x".repeat(1000) + "\n";
    const raw: SessionEvent[] = [acp({ sessionUpdate: "tool_call", toolCallId: "t", title: "yes", status: "in_progress" })];
    for (let i = 0; i < 100; i++) raw.push(acp({ sessionUpdate: "tool_call_update", toolCallId: "t", _meta: { terminal_output: { terminal_id: "t", data: big } } }));
    const out = compactEvents(raw.map((event, i) => ({ seq: i + 1, event })));
    expect(out).toHaveLength(1);
    const s = fold(initialSessionState(), { type: "snapshot", seq: 101, events: out.map((o) => o.event) });
    const row = rowById(s, "tool:t");
    expect(row).toMatchObject({ terminals: [{ truncated: true }] });
    expect(row?.kind === "tool" && row.terminals![0]!.output.length).toBeLessThanOrEqual(MAX_TERMINAL_OUTPUT_CHARS);
  });

  it("10k chunks compact to one row with the full text", () => {
    const n = 10_000;
    const out = compactEvents(Array.from({ length: n }, (_, i) => ({ seq: i + 1, event: chunk("ab", "m") })));
    expect(out).toHaveLength(1);
    expect(((out[0]!.event as any).update.content.text as string).length).toBe(2 * n);
  });

  it("a message past MAX_ITEM_CHARS is stored as its row's item and parts, each bounded; the fold shows one row with the whole text", () => {
    for (const messageId of ["m", undefined]) {
      const piece = "é\"x".repeat(1000); // escaped quotes count: the body is JSON
      const n = Math.ceil((3 * MAX_ITEM_CHARS) / piece.length);
      const raw: SessionEvent[] = [
        { kind: "user_message", id: "u", blocks: [{ type: "text", text: "long" }], author: { id: "a", name: "A" }, at: 1 },
        ...Array.from({ length: n }, () => chunk(piece, messageId)),
        { kind: "queue_state", entries: [], flushed: false },
        chunk("the end", messageId),
        { kind: "session_status", state: "idle", stopReason: "end_turn" },
      ];
      const seqd = raw.map((event, i) => ({ seq: i + 1, event }));
      const { items } = compactItems(seqd);
      for (const it of items) expect(JSON.stringify(it.events).length).toBeLessThanOrEqual(MAX_ITEM_CHARS);
      const head = items.find((it) => it.pos === 2)!;
      const parts = items.filter((it) => it.partOf !== null);
      expect(parts.length).toBeGreaterThanOrEqual(3);
      expect(parts.every((p) => p.partOf === head.pos && p.rows === 0)).toBe(true);
      const live = seqd.reduce((s, { seq, event }) => fold(s, { type: "event", seq, event }), initialSessionState());
      const out = compactEvents(seqd);
      const replayed = fold(initialSessionState(), { type: "snapshot", seq: seqd.length, events: out.map((o) => o.event), at: out.map((o) => o.seq) });
      const answer = replayed.rows.filter((r) => r.kind === "agent");
      expect(answer).toHaveLength(1);
      expect(answer[0]).toMatchObject({ kind: "agent", text: piece.repeat(n) + "the end" });
      expect(live.rows.filter((r) => r.kind === "agent").map((r) => r.kind === "agent" && r.text)).toEqual([piece.repeat(n) + "the end"]);
    }
  });
});
