import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../shared/viewer-protocol";
import { forkableEvents, readyNotice } from "./room-start";

const log = (events: SessionEvent[]) => events.map((event, i) => ({ seq: i + 1, event }));
const user = (text: string): SessionEvent => ({ kind: "user_message", id: text, blocks: [{ type: "text", text }], author: { id: "u", name: "U" }, at: 1 });
const chunk = (text: string): SessionEvent => ({ kind: "acp", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });

describe("forkableEvents", () => {
  it("copies the transcript, not the original's live state; a running turn ends idle in the copy", () => {
    const { events, truncated } = forkableEvents(
      log([
        user("one"),
        { kind: "session_status", state: "active", turnId: "t" },
        chunk("answer"),
        { kind: "permission_request", requestId: "p", toolCall: {}, options: [] } as unknown as SessionEvent,
        { kind: "queue_state", entries: [] } as unknown as SessionEvent,
        { kind: "session_status", state: "offline" },
      ]),
      1e6,
    );
    expect(truncated).toBe(false);
    expect(events.map((e) => e.kind)).toEqual(["user_message", "session_status", "acp", "session_status"]);
    expect(events.at(-1)).toMatchObject({ state: "idle", stopReason: "forked" });
  });

  it("keeps the newest events that fit the byte bound, in order", () => {
    const all = log([user("a".repeat(100)), user("b".repeat(100)), user("c".repeat(100))]);
    const one = JSON.stringify(all[0]!.event).length;
    const { events, truncated } = forkableEvents(all, one * 2);
    expect(truncated).toBe(true);
    expect(events.map((e) => (e.kind === "user_message" ? e.id[0] : "?"))).toEqual(["b", "c"]);
  });
});

describe("readyNotice", () => {
  it("names how the session began; a plain first open says nothing", () => {
    expect(readyNotice(null, null, false)).toBeNull();
    expect(readyNotice("import", "a", true)?.text).toMatch(/Imported/);
    expect(readyNotice("fork", "a", true)).toMatchObject({ level: "info" });
    expect(readyNotice("fork", "a", false)).toMatchObject({ level: "warn" });
    expect(readyNotice(null, "a", true)?.text).toMatch(/resumed/);
    expect(readyNotice(null, "a", false)).toMatchObject({ level: "warn" });
  });
});
