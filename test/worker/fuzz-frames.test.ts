import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TUNNEL_TOKEN_HEADER } from "../../shared/tunnel-protocol";
import { RATE_BURST, RATE_NOTICE_WINDOW_MS, RATE_PER_SECOND, RATE_STRIKES_TO_CLOSE } from "../../shared/limits";
import { CLOSE_POLICY } from "../../worker/session-room/viewer-sockets";
import { frameCost } from "../../worker/session-room/rate-limit";
import { figure } from "../figure";
import { api, ORIGIN, setupSession, TestViewer, text, waitFor } from "./harness";
import { exports } from "cloudflare:workers";

/**
 * A flood's socket either drained, or — when the room took RATE_STRIKES_TO_CLOSE notice windows to read the burst
 * (a loaded machine reads a 1,000-frame burst slowly, and the gate sees time at read) — was closed 1008 after
 * one RATE_LIMITED per refused window before it.
 */
function expectFloodOutcome(flooder: TestViewer, outcome: "drained" | "closed", limited: number, seconds: number): void {
  if (outcome === "drained") return expect(flooder.closed).toBeNull();
  expect(flooder.closed?.code).toBe(CLOSE_POLICY);
  // At least one notice per strike before the close; more when a slow read let a window pass under the rate (the
  // strikes start again: rate-limit.test.ts has the exact rule).
  expect(limited).toBeGreaterThanOrEqual(RATE_STRIKES_TO_CLOSE - 1);
  expect(seconds).toBeGreaterThanOrEqual(((RATE_STRIKES_TO_CLOSE - 1) * RATE_NOTICE_WINDOW_MS) / 1000);
}

describe("hostile input against the real DOs", () => {
  it("300 random viewer frames: each answered with an error, the socket stays usable, nothing queued", async () => {
    const { sessionId } = await setupSession();
    const frames = fc.sample(
      fc.oneof(
        fc.string(),
        fc.jsonValue().map((j) => JSON.stringify(j)),
        fc.record({ op: fc.constantFrom("message.send", "queue.move", "nope"), rid: fc.string(), id: fc.jsonValue() }).map((o) => JSON.stringify(o)),
      ),
      { numRuns: 300, seed: 20261202 },
    );
    // "ping" is the keepalive the room auto-answers with "pong" (no error frame by design).
    const hostile = frames.filter((f) => f !== "ping");
    // Spread over sockets so each stays within its rate limit (junk is charged like valid ops).
    const perSocket = RATE_BURST - 5;
    const viewers: TestViewer[] = [];
    for (let i = 0; i < hostile.length; i += perSocket) viewers.push(await TestViewer.open(sessionId));
    await waitFor(() => viewers[0]!.lastStatus()?.state === "idle", "idle");
    hostile.forEach((f, i) => viewers[Math.floor(i / perSocket)]!.raw(f));
    // Every frame is answered: an error, or an ack for the few that happen to be valid (e.g. a queue.move).
    const all = () => viewers.flatMap((v) => v.frames);
    const replies = () => all().filter((f) => f.type === "error" || f.type === "ack");
    const t0 = Date.now();
    await waitFor(() => replies().length >= hostile.length, "a reply per frame", 15_000);
    const ms = Date.now() - t0;
    const acks = all().filter((f) => f.type === "ack");
    expect(all().filter((f) => f.type === "error" && f.code === "RATE_LIMITED")).toHaveLength(0);
    expect(acks.every((a) => a.type === "ack" && a.op !== "message.send")).toBe(true);
    expect(acks.length).toBeLessThan(hostile.length / 10);
    const v = viewers[0]!;
    expect(await v.op({ op: "message.send", id: "after-fuzz", blocks: text("still works") })).toMatchObject({ type: "ack" });
    const errors = replies().length - acks.length;
    figure("viewer frame fuzzing", `${hostile.length} frames`, `${errors} error frames, ${acks.length} acks (valid by chance), 0 crashes, socket usable`, ms);
  });

  it("junk is charged to the rate limit before parsing: 1,000 non-JSON frames get a burst of answers, one RATE_LIMITED per window, the rest dropped", async () => {
    const { sessionId } = await setupSession();
    const flooder = await TestViewer.open(sessionId);
    const other = await TestViewer.open(sessionId);
    await waitFor(() => flooder.lastStatus()?.state === "idle", "idle");
    const t0 = Date.now();
    for (let i = 0; i < 1000; i++) flooder.raw(`not json ${i}`);
    // Another viewer's op is answered meanwhile.
    expect(await other.op({ op: "message.send", id: "other", blocks: text("unaffected") })).toMatchObject({ type: "ack" });
    // In order on one socket: once a later op is answered, every junk frame before it has been seen.
    const outcome = await flooder.drained(RATE_NOTICE_WINDOW_MS);
    const errors = flooder.frames.filter((f) => f.type === "error");
    const limited = errors.filter((f) => f.type === "error" && f.code === "RATE_LIMITED");
    figure("viewer junk flood", "1000 non-JSON frames", `${errors.length - limited.length} parsed, ${limited.length} RATE_LIMITED, rest dropped, socket ${outcome}`, Date.now() - t0);
    // One RATE_LIMITED per window at most (1,000 frames may take the DO more than one window to read).
    const seconds = (Date.now() - t0) / 1000;
    expectFloodOutcome(flooder, outcome, limited.length, seconds);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(limited.length).toBeLessThanOrEqual(Math.ceil(seconds / (RATE_NOTICE_WINDOW_MS / 1000)) + 1);
    // Parsed: what the bucket allows over the time the room took to read the burst (a loaded machine reads it over
    // 10 s or more, so no fixed figure holds); the rest dropped without an answer.
    expect(errors.length - limited.length).toBeLessThanOrEqual(RATE_BURST + RATE_PER_SECOND * (seconds + 1));
    expect(errors.length).toBeLessThan(1000);
  });

  it("100 frames of 250 KB: only what the bucket allows is parsed", async () => {
    const { sessionId } = await setupSession();
    const flooder = await TestViewer.open(sessionId);
    await waitFor(() => flooder.lastStatus()?.state === "idle", "idle");
    const big = JSON.stringify({ op: "queue.cancel", rid: "big", id: "x".repeat(250 * 1024) });
    const t0 = Date.now();
    for (let i = 0; i < 100; i++) flooder.raw(big);
    const outcome = await flooder.drained(RATE_NOTICE_WINDOW_MS);
    const errors = flooder.frames.filter((f) => f.type === "error");
    const parsed = errors.filter((f) => f.type === "error" && f.code !== "RATE_LIMITED").length;
    const ms = Date.now() - t0;
    figure("viewer big-frame flood", "100 frames of 250 KB", `${parsed} parsed, ${errors.length - parsed} RATE_LIMITED, socket ${outcome}`, ms);
    expectFloodOutcome(flooder, outcome, errors.length - parsed, ms / 1000);
    expect(parsed).toBeLessThanOrEqual(1 + Math.ceil((RATE_PER_SECOND * (ms / 1000 + 1)) / frameCost(big.length)));
    expect(errors.length - parsed).toBeGreaterThanOrEqual(1);
  });

  it("random tunnel frames get error frames and the tunnel keeps working", async () => {
    const { daemon, sessionId } = await setupSession();
    const errors: unknown[] = [];
    daemon.ws.addEventListener("message", (e) => {
      const f = JSON.parse(e.data as string);
      if (f.type === "error") errors.push(f);
    });
    const junk = fc.sample(fc.oneof(fc.string(), fc.jsonValue().map((j) => JSON.stringify(j)), fc.constant(JSON.stringify({ type: "event", n: 1e9, event: { t: "?" } }))), 200);
    const t0 = Date.now();
    for (const j of junk) daemon.ws.send(j);
    await waitFor(() => errors.length >= 200, "tunnel errors", 15_000);
    const ms = Date.now() - t0;
    const v = await TestViewer.open(sessionId);
    await v.op({ op: "message.send", id: "ok", blocks: text("fine") });
    await waitFor(() => daemon.prompts(sessionId).length === 1, "prompt still routed");
    expect(daemon.prompts(sessionId)[0]!.messageId).toBe("ok");
    figure("tunnel frame fuzzing", `${junk.length} frames`, `${errors.length} error frames, 0 crashes, tunnel still routes prompts`, ms);
  });

  it("a daemon cannot write into another machine's session: foreign events and hello claims are ignored", async () => {
    const mine = await setupSession();
    const theirs = await setupSession();
    const v = await TestViewer.open(theirs.sessionId);
    await waitFor(() => v.lastStatus()?.state === "idle", "idle");
    const errors = () => mine.daemon.frames.filter((f) => f.type === "error");
    mine.daemon.emit({ t: "session.update", sessionId: theirs.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "injected" } } });
    mine.daemon.emit({ t: "session.failed", sessionId: theirs.sessionId, message: "hijacked" });
    await mine.daemon.settle();
    await waitFor(() => errors().some((e) => e.type === "error" && e.message.includes(theirs.sessionId)), "foreign events refused");
    // Claiming the session as live in a hello changes nothing for it either.
    await mine.daemon.connect([{ sessionId: theirs.sessionId, busy: true }]);
    expect(await v.op({ op: "message.send", id: "own", blocks: text("still mine") })).toMatchObject({ type: "ack", result: { queued: false } });
    await waitFor(() => theirs.daemon.prompts(theirs.sessionId).length === 1, "prompt reached the owning daemon");
    expect(mine.daemon.prompts()).toHaveLength(0);
    expect(v.ofKind("acp")).toHaveLength(0);
    expect(v.ofKind("session_status").map((s) => s.state)).not.toContain("error");
    // The owning daemon's own turn still completes normally.
    await theirs.daemon.finishTurn(theirs.sessionId, "real answer");
    await waitFor(() => v.lastStatus()?.state === "idle", "idle again");
    expect(v.ofKind("acp").map((e) => (e.update as { content?: { text?: string } }).content?.text)).toEqual(["real answer"]);
  });

  it("a tunnel upgrade without a token, or with a random one, is 401", async () => {
    for (const token of fc.sample(fc.string({ minLength: 1, maxLength: 64 }).filter((s) => /^[\x21-\x7e]+$/.test(s)), 20)) {
      const r = await exports.default.fetch(`${ORIGIN}/api/tunnel`, { headers: { Upgrade: "websocket", [TUNNEL_TOKEN_HEADER]: token } });
      expect(r.status).toBe(401);
    }
    expect((await api("/api/tunnel", { headers: { Upgrade: "websocket" } })).status).toBe(401);
  });
});
