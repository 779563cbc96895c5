import { describe, expect, it, vi } from "vitest";
import type { SessionFeedFrame } from "../../../shared/session-list";
import { parseFrame } from "../session/list-check";
import { item } from "../session/list-fixtures";
import { feedUrl, makeFrameHandler } from "./session-feed";

describe("session feed", () => {
  it("the feed's URL follows the page's scheme", () => {
    expect(feedUrl({ protocol: "https:", host: "baton.example" })).toBe("wss://baton.example/api/sessions/feed");
    expect(feedUrl({ protocol: "http:", host: "localhost:8787" })).toBe("ws://localhost:8787/api/sessions/feed");
  });

  it("frames are checked and kept in order while the check loads; hello asks for the page; a bad frame changes nothing", async () => {
    let loaded!: (m: { parseFrame: typeof parseFrame }) => void;
    const check = new Promise<{ parseFrame: typeof parseFrame }>((r) => (loaded = r));
    const frames: SessionFeedFrame[] = [];
    const hello = vi.fn();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const handle = makeFrameHandler({ loadCheck: () => check, onHello: hello, onFrame: (f) => frames.push(f), onCheckFailed: () => {}, isClosed: () => false });
    handle(JSON.stringify({ type: "hello", at: 1 }));
    handle("{not json");
    handle(JSON.stringify({ type: "upsert", item: { id: "x" } }));
    handle(JSON.stringify({ type: "upsert", item: item("a", { version: 2 }) }));
    handle(JSON.stringify({ type: "remove", id: "a", reason: "deleted" }));
    await Promise.resolve();
    expect(frames).toEqual([]);
    loaded({ parseFrame });
    await vi.waitFor(() => expect(frames).toHaveLength(2));
    expect(frames.map((f) => f.type)).toEqual(["upsert", "remove"]);
    expect(hello).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });

  it("a check that cannot load asks for a reconnect (whose hello refetches); a closed feed delivers nothing", async () => {
    const failed = vi.fn();
    const onFrame = vi.fn();
    makeFrameHandler({ loadCheck: () => Promise.reject(new Error("offline")), onHello: () => {}, onFrame, onCheckFailed: failed, isClosed: () => false })("{}");
    await vi.waitFor(() => expect(failed).toHaveBeenCalledTimes(1));
    const closed = makeFrameHandler({ loadCheck: async () => ({ parseFrame }), onHello: () => {}, onFrame, onCheckFailed: failed, isClosed: () => true });
    closed(JSON.stringify({ type: "remove", id: "a", reason: "deleted" }));
    await new Promise((r) => setTimeout(r, 0));
    expect(onFrame).not.toHaveBeenCalled();
  });
});
