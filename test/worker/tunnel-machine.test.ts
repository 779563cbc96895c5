import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SessionRoom } from "../../worker/session-room/session-room-do";
import { MAX_TUNNEL_FRAME_BYTES } from "../../shared/limits";
import { figure } from "../figure";
import { api, newSession, setupSession, TestDaemon, TestViewer, text, waitFor } from "./harness";

/**
 * Runs `body` with SessionRoom's daemon-event entry point replaced by `ingest` (the class is shared by
 * every room in this isolate), which gets the room, the call's number from 1, and the real entry point.
 * Returns how many calls the rooms got meanwhile.
 */
async function withRoomIngest(
  ingest: (room: SessionRoom & { ctx: DurableObjectState }, call: number, proceed: () => Promise<void>) => Promise<void>,
  body: () => Promise<void>,
): Promise<number> {
  const original = SessionRoom.prototype.onDaemonEvents;
  let calls = 0;
  SessionRoom.prototype.onDaemonEvents = function (this: SessionRoom, ...args) {
    return ingest(this as SessionRoom & { ctx: DurableObjectState }, ++calls, () => original.apply(this, args));
  };
  try {
    await body();
    return calls;
  } finally {
    SessionRoom.prototype.onDaemonEvents = original;
  }
}

const machine = (id: string) => env.MACHINE.get(env.MACHINE.idFromName(id));

describe("tunnel and Machine DO", () => {
  it("killing the tunnel 5 times mid-turn: every event reaches the viewer exactly once, in order", async () => {
    const { daemon, sessionId } = await setupSession();
    const v = await TestViewer.open(sessionId);
    await waitFor(() => v.lastStatus()?.state === "idle", "idle");
    await v.op({ op: "message.send", id: "t1", blocks: text("stream") });
    let sent = 0;
    const t0 = Date.now();
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 10; i++)
        daemon.chunk(sessionId, `${sent++},`);
      daemon.close(); // some of those are in flight or unacked
      for (let i = 0; i < 5; i++)
        daemon.chunk(sessionId, `${sent++},`);
      await daemon.connect([{ sessionId, busy: true }]);
    }
    await daemon.finishTurn(sessionId, "end");
    await waitFor(() => v.lastStatus()?.state === "idle", "turn end");
    const texts = v.chunkTexts();
    expect(texts.join("")).toBe(Array.from({ length: sent }, (_, i) => `${i},`).join("") + "end");
    figure("tunnel kill mid-turn (workerd)", "5 kills", `${sent + 1} events, each at the viewer exactly once, in order`, Date.now() - t0);
  });

  it("a Machine restart with lost acks: the daemon resends events the room already has; each reaches viewers once", async () => {
    const { daemon, sessionId, machineId } = await setupSession();
    const v = await TestViewer.open(sessionId);
    const chunk = (i: number) => daemon.chunk(sessionId, `${i},`);
    for (let i = 0; i < 30; i++) chunk(i);
    const inFlight = [...daemon.unacked];
    await daemon.settle();
    await waitFor(() => v.ofKind("acp").length === 30, "30 delivered");
    // The acks never reached the daemon, and the Machine restarts: its lastSeenUp hint was not persisted
    // (acks do not wait for a Machine commit), so welcome reports less and all 30 come again.
    daemon.unacked = inFlight;
    daemon.close();
    await evictDurableObject(machine(machineId));
    await daemon.connect([{ sessionId, busy: false }]);
    expect(daemon.frames.filter((f) => f.type === "welcome").at(-1)).toMatchObject({ lastSeenUp: 0 });
    for (let i = 30; i < 40; i++) chunk(i);
    await daemon.settle();
    await waitFor(() => v.ofKind("acp").length >= 40, "40 delivered");
    await new Promise((r) => setTimeout(r, 100));
    const texts = v.chunkTexts();
    expect(texts.join("")).toBe(Array.from({ length: 40 }, (_, i) => `${i},`).join(""));
  });

  it("a room reset while taking events: the Machine calls it again on a fresh stub; nothing lost, nothing twice", async () => {
    const { daemon, sessionId } = await setupSession();
    const v = await TestViewer.open(sessionId);
    const chunk = (i: number) => daemon.chunk(sessionId, `${i},`);
    const calls = await withRoomIngest(
      async (room, call, proceed) => {
        // The first call resets the room for real (the runtime's abort): the caller sees durableObjectReset.
        if (call === 1) room.ctx.abort("reset while taking events");
        return proceed();
      },
      async () => {
        for (let i = 0; i < 10; i++) chunk(i);
        await daemon.settle();
      },
    );
    expect(calls).toBeGreaterThanOrEqual(2);
    // The reset dropped the viewer's socket too; it reconnects from its cursor.
    await waitFor(() => v.ws.readyState !== WebSocket.OPEN, "viewer socket closed by the reset");
    await v.connect(sessionId);
    for (let i = 10; i < 15; i++) chunk(i);
    await daemon.settle();
    // A catch-up may come as one compacted append snapshot (chunks merged), so wait on the text, not a count.
    const all = Array.from({ length: 15 }, (_, i) => `${i},`).join("");
    await waitFor(() => v.chunkTexts().join("").length >= all.length, "15 delivered");
    expect(v.chunkTexts().join("")).toBe(all);
  });

  it("a room that stays unavailable: nothing is acked, the tunnel closes 'try again later', and the resend lands once", async () => {
    const { daemon, sessionId } = await setupSession();
    const v = await TestViewer.open(sessionId);
    const chunk = (i: number) => daemon.chunk(sessionId, `${i},`);
    const ackedBefore = daemon.acked;
    let closeCode = 0;
    daemon.ws.addEventListener("close", (e) => void (closeCode = e.code));
    const calls = await withRoomIngest(
      async () => {
        throw Object.assign(new Error("storage unavailable"), { retryable: true });
      },
      async () => {
        for (let i = 0; i < 5; i++) chunk(i);
        await waitFor(() => closeCode !== 0, "tunnel closed");
      },
    );
    expect(closeCode).toBe(1013);
    expect(calls).toBe(3); // ROOM_CALL_ATTEMPTS, then the daemon is told to come back
    expect(daemon.acked).toBe(ackedBefore);
    expect(daemon.unacked).toHaveLength(5);
    await daemon.connect([{ sessionId, busy: false }]);
    await daemon.settle();
    await waitFor(() => v.ofKind("acp").length >= 5, "5 delivered after the resend");
    await new Promise((r) => setTimeout(r, 50));
    const texts = v.chunkTexts();
    expect(texts.join("")).toBe("0,1,2,3,4,");
  });

  it("a tunnel peer flooding frames is charged by size before parsing: refused RATE_LIMITED and closed 'try again later'; the resend lands once", async () => {
    const { daemon, sessionId } = await setupSession();
    const v = await TestViewer.open(sessionId);
    let closeCode = 0;
    daemon.ws.addEventListener("close", (e) => void (closeCode = e.code));
    const errors = () => daemon.frames.filter((f) => f.type === "error");
    const before = errors().length;
    daemon.chunk(sessionId, "kept,"); // a real event in flight with the flood: not lost
    // Frames a send window would never allow (≤ 2 unacked), each of the largest size: without the gate each is
    // parsed and answered. The gate lets through its burst plus the refill (~30 + ~15/s of these).
    const junk = JSON.stringify({ type: "nonsense", pad: "x".repeat(MAX_TUNNEL_FRAME_BYTES - 100) });
    for (let i = 0; i < 150; i++) daemon.ws.send(junk);
    await waitFor(() => closeCode !== 0, "tunnel closed", 20_000);
    expect(closeCode).toBe(1013);
    const answered = errors().slice(before);
    expect(answered.filter((f) => f.type === "error" && f.code === "RATE_LIMITED").length).toBeGreaterThanOrEqual(1);
    // Parsed (BAD_FRAME): fewer than were sent.
    expect(answered.filter((f) => f.type === "error" && f.code === "BAD_FRAME").length).toBeLessThan(150);
    await daemon.connect([{ sessionId, busy: false }]);
    await daemon.settle();
    await waitFor(() => v.chunkTexts().join("").includes("kept,"), "the real event delivered");
    expect(v.chunkTexts().join("")).toBe("kept,");
  });

  it("an error thrown by the room's own code drops that share once and keeps the tunnel (a bad event cannot wedge the machine)", async () => {
    const { daemon, sessionId } = await setupSession();
    const v = await TestViewer.open(sessionId);
    const chunk = (i: number) => daemon.chunk(sessionId, `${i},`);
    const calls = await withRoomIngest(
      async (_room, call, proceed) => {
        if (call === 1) throw new Error("a bug in the room");
        return proceed();
      },
      async () => {
        chunk(0);
        await daemon.settle();
        chunk(1);
        await daemon.settle();
      },
    );
    expect(calls).toBe(2); // not retried: the room's code would throw again
    expect(daemon.ws.readyState).toBe(WebSocket.OPEN);
    await waitFor(() => v.ofKind("acp").length >= 1, "the next event delivered");
    expect(v.chunkTexts()).toEqual(["1,"]);
  });

  it("MACHINE_BUSY at the per-machine budget; a queued send adds no concurrency", async () => {
    const { daemon, sessionId, machineId } = await setupSession();
    await machine(machineId).setBudget(1);
    const other = await newSession(machineId);
    await waitFor(() => daemon.of("session.open").some((c) => c.sessionId === other), "open other");
    await daemon.settle();
    const a = await TestViewer.open(sessionId);
    const b = await TestViewer.open(other);
    await waitFor(() => a.lastStatus()?.state === "idle" && b.lastStatus()?.state === "idle", "both idle");
    expect(await a.op({ op: "message.send", id: "a1", blocks: text("a") })).toMatchObject({ result: { queued: false } });
    const busy = await b.op({ op: "message.send", id: "b1", blocks: text("b") });
    expect(busy).toMatchObject({ type: "error", code: "MACHINE_BUSY" });
    expect(b.ofKind("user_message")).toHaveLength(0);
    // Queue behind own turn is fine, and the flush runs though the budget is taken by this very session.
    expect(await a.op({ op: "message.send", id: "a2", blocks: text("a2") })).toMatchObject({ result: { queued: true } });
    await daemon.finishTurn(sessionId);
    await waitFor(() => daemon.prompts(sessionId).length === 2, "flush");
    expect((await machine(machineId).status()).activeCount).toBe(1);
    // The refused id was not settled: a retry after the budget frees succeeds.
    await daemon.finishTurn(sessionId);
    await waitFor(() => a.lastStatus()?.state === "idle", "a idle");
    expect(await b.op({ op: "message.send", id: "b1", blocks: text("b") })).toMatchObject({ type: "ack", result: { queued: false } });
  });

  it("wrong and revoked tokens are refused; revoking disconnects the daemon at once", async () => {
    const none = await api("/api/tunnel", { headers: { Upgrade: "websocket" } });
    expect(none.status).toBe(401);
    const wrong = await api("/api/tunnel", { headers: { Upgrade: "websocket", "x-baton-machine-token": "bt_forged" } });
    expect(wrong.status).toBe(401);
    const { daemon, machineId, token, sessionId } = await setupSession();
    let closed: number | null = null;
    daemon.ws.addEventListener("close", (e) => void (closed = e.code));
    expect((await api(`/api/machines/${machineId}`, { method: "DELETE" })).status).toBe(200);
    await waitFor(() => closed !== null, "tunnel closed");
    expect(closed).toBe(4401);
    const again = await api("/api/tunnel", { headers: { Upgrade: "websocket", "x-baton-machine-token": token } });
    expect(again.status).toBe(401);
    const v = await TestViewer.open(sessionId);
    expect(v.lastStatus()?.state).toBe("offline");
    expect(await v.op({ op: "message.send", id: "o1", blocks: text("hi") })).toMatchObject({ type: "error", code: "MACHINE_OFFLINE" });
  });

  it("permission requests reach every viewer; the first answer wins", async () => {
    const { daemon, sessionId } = await setupSession();
    const a = await TestViewer.open(sessionId);
    const b = await TestViewer.open(sessionId);
    await waitFor(() => a.lastStatus()?.state === "idle", "idle");
    await a.op({ op: "message.send", id: "perm", blocks: text("permission") });
    daemon.emit({
      t: "permission.request",
      sessionId,
      requestId: "req1",
      toolCall: { toolCallId: "tc1", title: "rm file" },
      options: [
        { optionId: "allow", name: "Allow", kind: "allow_once" },
        { optionId: "deny", name: "Deny", kind: "reject_once" },
      ],
    });
    await daemon.settle();
    await waitFor(() => b.ofKind("permission_request").length === 1, "request on b");
    const [ra, rb] = await Promise.all([
      a.op({ op: "permission.respond", requestId: "req1", optionId: "allow" }),
      b.op({ op: "permission.respond", requestId: "req1", optionId: "deny" }),
    ]);
    const outcomes = [ra, rb].map((r) => (r.type === "ack" ? r.result.outcome : r.code)).sort();
    expect(outcomes).toEqual(["accepted", "already_resolved"]);
    await waitFor(() => daemon.of("permission.respond").length === 1, "one answer forwarded");
    await waitFor(() => a.ofKind("permission_resolved").length === 1 && b.ofKind("permission_resolved").length === 1, "resolved everywhere");
    expect(await a.op({ op: "permission.respond", requestId: "req1", optionId: "nope" })).toMatchObject({ type: "error", code: "BAD_FRAME" });
  });

  it("a daemon restart (new epoch) loses the turn, reopens the session with resume, keeps the queue", async () => {
    const { daemon, sessionId, token } = await setupSession();
    const v = await TestViewer.open(sessionId);
    await waitFor(() => v.lastStatus()?.state === "idle", "idle");
    await v.op({ op: "message.send", id: "r1", blocks: text("work") });
    await v.op({ op: "message.send", id: "r2", blocks: text("later") });
    daemon.close();
    await waitFor(() => v.lastStatus()?.state === "offline", "offline");
    expect(v.lastStatus()).toMatchObject({ turnRunning: true });
    const fresh = new TestDaemon(token); // new process: new epoch, no live sessions
    await fresh.connect([]);
    await waitFor(() => fresh.of("session.open").some((c) => c.agentSessionId === `agent-${sessionId}`), "resume open");
    await waitFor(() => v.ofKind("turn_error").some((e) => e.code === "AGENT_RESTARTED"), "restart error");
    await waitFor(() => fresh.prompts(sessionId).length === 1, "queued prompt flushed to the new daemon");
    expect(fresh.prompts(sessionId)[0]!.messageId).toBe("r2");
    expect(v.ofKind("notice").some((n) => n.text.includes("resumed"))).toBe(true);
  });

  it("a daemon restart with no one in a session: its agent is not started until someone joins (or sends); the joiner sees it start", async () => {
    const { daemon, machineId, token } = await setupSession();
    // A second, idle session on the same machine, and a third that someone has open.
    const quiet = await newSession(machineId);
    const watched = await newSession(machineId);
    await waitFor(() => [quiet, watched].every((id) => daemon.of("session.open").some((c) => c.sessionId === id)), "opened");
    await daemon.settle();
    const w = await TestViewer.open(watched);
    await waitFor(() => w.lastStatus()?.state === "idle", "idle");
    daemon.close();
    await waitFor(() => w.lastStatus()?.state === "offline", "offline");

    const fresh = new TestDaemon(token); // new process: new epoch, no live sessions
    fresh.autoReady = false;
    await fresh.connect([]);
    // The watched session reopens at once; the others wait.
    await waitFor(() => fresh.of("session.open").some((c) => c.sessionId === watched), "the watched session reopened");
    await fresh.settle();
    expect(fresh.of("session.open").map((c) => c.sessionId)).toEqual([watched]);
    // The session list says idle (nothing runs), not "starting" forever.
    const listed = await api<{ sessions: { id: string; status: string }[] }>("/api/sessions");
    expect(listed.body.sessions.find((x) => x.id === quiet)?.status).toBe("idle");

    // Someone opens the quiet session: the agent is asked to load it, and the joiner sees it starting.
    const v = await TestViewer.open(quiet);
    const open = await waitFor(() => fresh.of("session.open").find((c) => c.sessionId === quiet), "opened on join");
    expect(open.agentSessionId).toBe(`agent-${quiet}`);
    // What it joined to (the wake ran before its replay): the agent starting, not idle.
    expect(v.lastStatus()?.state).toBe("starting");
    fresh.emit({ t: "session.ready", sessionId: quiet, agentSessionId: `agent-${quiet}`, config: fresh.config, resumed: true });
    await waitFor(() => v.lastStatus()?.state === "idle", "ready");
    await v.op({ op: "message.send", id: "q1", blocks: text("hello again") });
    await waitFor(() => fresh.prompts(quiet).length === 1, "the prompt reaches the reopened agent");
    expect(fresh.of("session.open").filter((c) => c.sessionId === quiet)).toHaveLength(1);
    v.close();
    w.close();
    fresh.close();
  });
});
