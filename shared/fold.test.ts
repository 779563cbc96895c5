import { describe, expect, it } from "vitest";
import { fold, type FoldState, initialSessionState } from "./fold";
import type { QueueEntry, ServerFrame, SessionEvent } from "./viewer-protocol";

let seq = 0;
const ev = (event: SessionEvent): ServerFrame => ({ type: "event", seq: ++seq, event });
const st = (event: SessionEvent): ServerFrame => ({ type: "state", event });
const run = (frames: ServerFrame[], s: FoldState = initialSessionState()) => frames.reduce(fold, s);
const entry = (id: string): QueueEntry => ({ id, blocks: [{ type: "text", text: id }], author: { id: "a", name: "A" }, createdAt: 1, state: "queued" });
const echo = (id: string): SessionEvent => ({ kind: "user_message", id, blocks: [{ type: "text", text: id }], author: { id: "a", name: "A" }, at: 1 });
const chunk = (text: string, messageId?: string): SessionEvent => ({
  kind: "acp",
  update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text }, ...(messageId ? { messageId } : {}) },
});

describe("fold", () => {
  it("queue_state sets and clears the queue; a flush clear adds no row (the echo paints it)", () => {
    let s = run([st({ kind: "queue_state", entries: [entry("q")], flushed: false })]);
    expect(s.queue.map((e) => e.id)).toEqual(["q"]);
    s = run([st({ kind: "queue_state", entries: [], flushed: true })], s);
    expect(s.queue).toEqual([]);
    expect(s.rows).toEqual([]);
    s = run([ev(echo("q"))], s);
    expect(s.rows.map((r) => r.kind)).toEqual(["user"]);
  });

  it("the echo starts the turn for a non-sending viewer; idle closes open rows", () => {
    let s = run([st({ kind: "session_status", state: "idle" }), ev(echo("m")), ev(chunk("Hel")), ev(chunk("lo"))]);
    expect(s.turnActive).toBe(true);
    expect(s.rows[1]).toMatchObject({ kind: "agent", text: "Hello", open: true });
    s = run([ev({ kind: "session_status", state: "idle", stopReason: "end_turn" })], s);
    expect(s.turnActive).toBe(false);
    expect(s.rows[1]).toMatchObject({ open: false });
  });

  it("cancel clear adds no row and keeps the dropped entries for restore", () => {
    const s = run([st({ kind: "queue_state", entries: [], flushed: false, dropped: [entry("d")] })]);
    expect(s.rows).toEqual([]);
    expect(s.dropped.map((e) => e.id)).toEqual(["d"]);
  });

  it("ignores events at or below the cursor (no duplicates)", () => {
    const f = ev(echo("x"));
    const s = run([f, f, { type: "event", seq: 0, event: echo("y") }]);
    expect(s.rows).toHaveLength(1);
  });

  it("snapshot resets, pages append, then the tail continues", () => {
    let s = run([ev(echo("old"))]);
    s = fold(s, { type: "snapshot", seq: 0, events: [echo("a"), chunk("one ", "m1")] });
    s = fold(s, { type: "snapshot", seq: 50, append: true, events: [chunk("two", "m1")] });
    expect(s.rows.map((r) => r.id)).toEqual(["user:a", "agent:m1"]);
    expect(s.rows[1]).toMatchObject({ text: "one two" });
    s = fold(s, { type: "event", seq: 51, event: chunk("!", "m1") });
    expect(s.rows[1]).toMatchObject({ text: "one two!" });
    expect(s.seq).toBe(51);
  });

  it("synthetic active after replay puts the viewer in Stop state; offline with a running turn too", () => {
    let s = run([st({ kind: "session_status", state: "active", synthetic: true }), { type: "ready", seq: 3 }]);
    expect(s.turnActive).toBe(true);
    expect(s.ready).toBe(true);
    s = run([st({ kind: "session_status", state: "offline", turnRunning: true })], s);
    expect(s.turnActive).toBe(true);
  });

  it("merges tool updates, resolves permissions, ignores unknown kinds", () => {
    const s = run([
      ev({ kind: "acp", update: { sessionUpdate: "tool_call", toolCallId: "t", title: "Read file", kind: "read", status: "pending" } }),
      ev({ kind: "acp", update: { sessionUpdate: "tool_call_update", toolCallId: "t", status: "completed", content: [{ type: "content", content: { type: "text", text: "ok" } }] } }),
      ev({ kind: "acp", update: { sessionUpdate: "_demo_custom", x: 1 } }),
      ev({ kind: "permission_request", requestId: "p", toolCall: { title: "Run" }, options: [{ optionId: "y", name: "Yes", kind: "allow_once" }] }),
      ev({ kind: "permission_resolved", requestId: "p", outcome: "selected", optionId: "y", by: { id: "b", name: "Bea" } }),
    ]);
    expect(s.rows).toMatchObject([
      { kind: "tool", title: "Read file", status: "completed", output: "ok" },
      { kind: "permission", resolved: { optionId: "y", by: "Bea" } },
    ]);
  });
});
