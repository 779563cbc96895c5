import { describe, expect, it } from "vitest";
import { MAX_PROMPT_BYTES } from "../../../shared/limits";
import type { DaemonEvent } from "../../../shared/tunnel-protocol";
import { PromptBlocks } from "../../../shared/blocks";
import { fitUserBlocks, HistoryRelay, userBlock } from "./history-relay";

const user = (text: string) => ({ sessionUpdate: "user_message_chunk", content: { type: "text", text } });
const agent = (text: string) => ({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });

describe("HistoryRelay", () => {
  it("groups a user message's chunks into one history.user; agent output passes through", () => {
    const out: DaemonEvent[] = [];
    const relay = new HistoryRelay("s1", (e) => out.push(e));
    expect(relay.take(user("hello "))).toBe(false); // not active yet: nothing taken
    relay.start();
    expect(relay.take(user("first "))).toBe(true);
    expect(relay.take(user("prompt"))).toBe(true);
    expect(relay.take(agent("answer"))).toBe(false);
    expect(relay.take(user("second"))).toBe(true);
    expect(out).toEqual([{ t: "history.user", sessionId: "s1", blocks: [{ type: "text", text: "first prompt" }] }]);
    expect(relay.end()).toBe(4);
    expect(out.at(-1)).toEqual({ t: "history.user", sessionId: "s1", blocks: [{ type: "text", text: "second" }] });
    expect(relay.take(user("live"))).toBe(false); // after the end: live updates are not the relay's
  });

  it("a live kind (commands, usage) completes a held user message too and is not counted as history", () => {
    const out: DaemonEvent[] = [];
    const relay = new HistoryRelay("s1", (e) => out.push(e));
    relay.start();
    relay.take(user("q"));
    expect(relay.take({ sessionUpdate: "available_commands_update" })).toBe(false);
    expect(out).toHaveLength(1);
    expect(relay.end()).toBe(1);
  });
});

describe("user blocks from replayed content", () => {
  it("keeps text and links, stands in for images and embedded resources, drops the unreadable", () => {
    expect(userBlock({ type: "text", text: "x" })).toEqual({ type: "text", text: "x" });
    expect(userBlock({ type: "image", data: "AAAA", mimeType: "image/png" })).toEqual({ type: "text", text: "[image]" });
    expect(userBlock({ type: "resource_link", uri: "file:///a", name: "a" })).toEqual({ type: "resource_link", uri: "file:///a", name: "a" });
    expect(userBlock({ type: "resource", resource: { uri: "file:///b", text: "body" } })).toEqual({ type: "text", text: "body" });
    expect(userBlock({ type: "audio" })).toBeNull();
    expect(userBlock("junk")).toBeNull();
  });

  it("fits what a prompt may hold: an oversized message is clipped with a marker and still parses; an empty one is none", () => {
    const fitted = fitUserBlocks([{ type: "text", text: "a".repeat(MAX_PROMPT_BYTES * 2) }])!;
    expect(PromptBlocks.safeParse(fitted).success).toBe(true);
    expect((fitted[0] as { text: string }).text).toMatch(/truncated by baton/);
    expect(fitUserBlocks([{ type: "text", text: "  " }])).toBeNull();
    const many = Array.from({ length: 100 }, (_, i) => ({ type: "resource_link" as const, uri: `u${i}`, name: `n${i}` }));
    expect(PromptBlocks.safeParse(fitUserBlocks(many)).success).toBe(true);
  });
});
