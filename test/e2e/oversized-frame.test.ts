// A viewer frame over the runtime's WebSocket message limit (32 MiB; workerd refuses it in its protocol
// layer, before the room sees it): the sender is told at once (close 1009) and other viewers carry on.
// Only a real socket through workerd's HTTP stack hits that limit. Known and not ours to fix: workerd
// still logs the refusal as "Uncaught exception: … Message is too large" and tears the TCP connection
// down on its own timer (~10 s), whatever the room's webSocketError does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createSession, NodeViewer, type Stack, startTestStack, waitFor } from "./support";

const text = (t: string) => [{ type: "text" as const, text: t }];

let stack: Stack;

beforeAll(async () => {
  stack = await startTestStack();
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe("oversized viewer frame over a real socket", () => {
  it("a 33 MiB frame: the sender gets close 1009 within 3 s, another viewer is unaffected", async () => {
    const sessionId = await createSession(stack.url);
    const other = await new NodeViewer(stack.url, sessionId).open();
    const ws = new WebSocket(`${stack.url.replace(/^http/, "ws")}/api/sessions/${sessionId}/ws?after=0`, { headers: { Origin: stack.url } });
    let ready = false;
    ws.on("message", (d) => (ready ||= String(d).includes('"ready"')));
    ws.on("error", () => {});
    await waitFor(() => ready, "ready");
    let closed: { code: number; ms: number } | null = null;
    const t0 = Date.now();
    ws.on("close", (code) => (closed = { code, ms: Date.now() - t0 }));
    let closing: number | null = null;
    const poll = setInterval(() => (closing ??= ws.readyState === WebSocket.CLOSING ? Date.now() - t0 : null), 20);
    ws.send("x".repeat(33 * 1024 * 1024));
    const outcome = await waitFor(() => closed, "sender closed", 30_000);
    clearInterval(poll);
    console.log("oversized frame: close frame after", closing, "ms; socket closed", outcome);
    // The sender learns at once: the close frame (1009) arrives within a few seconds of the frame. (The
    // TCP connection itself is torn down by the runtime on its own timer, ~10 s later.)
    expect(closing).not.toBeNull();
    expect(closing!).toBeLessThan(3000);
    expect(outcome.code).toBe(1009);
    expect(await other.op({ op: "message.send", id: "after-oversized", blocks: text("still fine") })).toMatchObject({ type: "ack" });
    other.close();
  }, 120_000);
});
