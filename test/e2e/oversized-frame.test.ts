// A viewer frame over the runtime's WebSocket message limit (32 MiB for received messages, documented in the
// Durable Objects limits and not configurable; workerd refuses it in kj's WebSocket protocol layer, before the
// room sees it): the sender is told at once (close 1009 "Message is too large") and other viewers carry on.
// Only a real socket through workerd's HTTP stack hits that limit. Known and not ours to fix: workerd itself
// logs the refusal ("Uncaught exception: … Message is too large", cloudflare/workerd#2667) and tears the TCP
// connection down on its own timer (~10 s) after the close frame. Frames between MAX_VIEWER_FRAME_BYTES and
// 32 MiB reach the room and get FRAME_TOO_LARGE without parsing (test/worker/auth-dev.test.ts).
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { useStack } from "./file-stack";
import { createSession, NodeViewer, openIdleSession, text, waitFor } from "./support";

const e2e = useStack({ timeout: 180_000 });

/** The close frame's bound: under the ~10 s after which the runtime tears the connection down anyway (so a missing
 * close frame still fails), above the seconds 33 MiB take to cross a loaded 2-core machine (3.7 s seen under load). */
const CLOSE_FRAME_WITHIN_MS = 8_000;

describe("oversized viewer frame over a real socket", () => {
  it("a 33 MiB frame: the sender gets close 1009 within seconds, another viewer is unaffected", async () => {
    const sessionId = await createSession(e2e.stack.url);
    const other = await new NodeViewer(e2e.stack.url, sessionId).open();
    const ws = new WebSocket(`${e2e.stack.url.replace(/^http/, "ws")}/api/sessions/${sessionId}/ws?after=0`, { headers: { Origin: e2e.stack.url } });
    let ready = false;
    ws.on("message", (d) => (ready ||= String(d).includes('"ready"')));
    ws.on("error", () => {});
    await waitFor(() => ready, "ready");
    let closed: { code: number; reason: string; ms: number } | null = null;
    const t0 = Date.now();
    ws.on("close", (code, reason) => (closed = { code, reason: String(reason), ms: Date.now() - t0 }));
    let closing: number | null = null;
    const poll = setInterval(() => (closing ??= ws.readyState === WebSocket.CLOSING ? Date.now() - t0 : null), 20);
    ws.send("x".repeat(33 * 1024 * 1024));
    const outcome = await waitFor(() => closed, "sender closed", 30_000);
    clearInterval(poll);
    console.log("oversized frame: close frame after", closing, "ms; socket closed", outcome);
    // The sender learns at once: the close frame (1009) arrives within seconds of the frame. (The
    // TCP connection itself is torn down by the runtime on its own timer, ~10 s later.)
    expect(closing).not.toBeNull();
    expect(closing!).toBeLessThan(CLOSE_FRAME_WITHIN_MS);
    expect(outcome).toMatchObject({ code: 1009, reason: "Message is too large" });
    // Nothing of ours threw. workerd logs its own refusal (the socket pump under the upgrade's fetch event fails
    // in kj: "Uncaught exception: … Message is too large", and the trace note that this fetch "had no actual
    // exceptions"); no JavaScript of ours is involved, so there is nothing for our code to catch.
    await new Promise((r) => setTimeout(r, 500));
    const errorLines = e2e.stack.serverOutput().filter((l) => /uncaught|exception|error/i.test(l));
    const workerds = (l: string) => /Message is too large/.test(l) || /NOSENTRY reporting trace with exception outcome, but no actual exceptions/.test(l);
    expect(errorLines.filter((l) => !workerds(l))).toEqual([]);
    expect(await other.op({ op: "message.send", id: "after-oversized", blocks: text("still fine") })).toMatchObject({ type: "ack" });
    other.close();
  }, 120_000);

  // Issue 32 #2: the same refusal on the session list's socket (the SessionFeed DO): only workerd speaks.
  it("a 33 MiB frame on the session list's socket: close 1009, no error line of ours, a new list socket is served", async () => {
    const feedUrl = `${e2e.stack.url.replace(/^http/, "ws")}/api/sessions/feed`;
    const open = () => {
      const ws = new WebSocket(feedUrl, { headers: { Origin: e2e.stack.url } });
      ws.on("error", () => {});
      const frames: string[] = [];
      ws.on("message", (d) => frames.push(String(d)));
      return { ws, frames };
    };
    const before = e2e.stack.serverOutput().length;
    const hostile = open();
    await waitFor(() => hostile.frames.length > 0, "the feed's hello");
    let closed: { code: number; reason: string } | null = null;
    hostile.ws.on("close", (code, reason) => (closed = { code, reason: String(reason) }));
    hostile.ws.send("x".repeat(33 * 1024 * 1024));
    expect(await waitFor(() => closed, "feed socket closed", 30_000)).toMatchObject({ code: 1009, reason: "Message is too large" });
    await new Promise((r) => setTimeout(r, 500));
    const errorLines = e2e.stack.serverOutput().slice(before).filter((l) => /uncaught|exception|error/i.test(l));
    const workerds = (l: string) => /Message is too large/.test(l) || /NOSENTRY reporting trace with exception outcome, but no actual exceptions/.test(l);
    expect(errorLines.filter((l) => !workerds(l))).toEqual([]);
    const next = open();
    await waitFor(() => next.frames.length > 0, "a new list socket's hello");
    next.ws.close();
  }, 120_000);

  // Issue 19 #6: the stall seen right after hostile input (a just-sent message ×0 on a fresh join, a join
  // without `ready`, a queued message not flushing) — over real sockets, a burst with an oversized frame.
  it("hostile burst (junk + a 33 MiB frame), then normal use at once: send, queue, flush, a fresh join sees each once", async () => {
    const { sessionId, v: user } = await openIdleSession(e2e.stack.url);
    const where: string[] = [];
    const rounds = 3;
    for (let round = 0; round < rounds; round++) {
      const hostile = new WebSocket(`${e2e.stack.url.replace(/^http/, "ws")}/api/sessions/${sessionId}/ws?after=0`, { headers: { Origin: e2e.stack.url } });
      hostile.on("error", () => {});
      let ready = false;
      hostile.on("message", (d) => (ready ||= String(d).includes('"ready"')));
      await waitFor(() => ready, "hostile ready");
      hostile.pause(); // and it does not read what it is sent
      for (let i = 0; i < 300; i++) hostile.send(i % 3 ? `junk ${i}` : JSON.stringify({ op: "message.send", rid: `h${i}`, id: i }));
      hostile.send("x".repeat(33 * 1024 * 1024));
      let step = "send";
      try {
        const sent = await user.op({ op: "message.send", id: `m${round}`, blocks: text("sleep 8") });
        if (sent.type !== "ack" || sent.result.queued) throw new Error(JSON.stringify(sent));
        step = "queue";
        const queued = await user.op({ op: "message.send", id: `q${round}`, blocks: text(`after ${round}`) });
        if (queued.type !== "ack" || !queued.result.queued) throw new Error(JSON.stringify(queued));
        step = "fresh join mid-turn";
        const mid = await new NodeViewer(e2e.stack.url, sessionId).open();
        const once = (v: NodeViewer, id: string) => v.ofKind("user_message").filter((m) => m.id === id).length;
        if (once(mid, `m${round}`) !== 1) throw new Error(`m${round} ×${once(mid, `m${round}`)}`);
        mid.close();
        step = "flush";
        await waitFor(() => user.ofKind("user_message").some((m) => m.id === `q${round}`), "flush", 20_000);
        await waitFor(() => user.status() === "idle" && !user.ofKind("queue_state").at(-1)?.entries.length, "idle after flush", 20_000);
        step = "fresh join after";
        const after = await new NodeViewer(e2e.stack.url, sessionId).open();
        if (once(after, `m${round}`) !== 1 || once(after, `q${round}`) !== 1) throw new Error(`m×${once(after, `m${round}`)} q×${once(after, `q${round}`)}`);
        after.close();
      } catch (err) {
        where.push(`round ${round}: ${step}: ${err instanceof Error ? err.message : String(err)}`);
      }
      hostile.terminate();
    }
    console.log(`FIGURE hostile burst then normal use, real sockets | ${rounds} rounds | ${where.length} stalls${where.length ? `: ${where.join("; ")}` : ""} | n/a`);
    expect(where).toEqual([]);
    user.close();
  }, 240_000);
});
