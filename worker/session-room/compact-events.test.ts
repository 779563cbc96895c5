import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../shared/viewer-protocol";
import { compactEvents } from "./compact-events";

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

  it("10k chunks compact to one row with the full text", () => {
    const n = 10_000;
    const out = compactEvents(Array.from({ length: n }, (_, i) => ({ seq: i + 1, event: chunk("ab", "m") })));
    expect(out).toHaveLength(1);
    expect(((out[0]!.event as any).update.content.text as string).length).toBe(2 * n);
  });
});
