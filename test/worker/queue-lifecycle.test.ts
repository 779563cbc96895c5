import { describe, expect, it } from "vitest";
import { setupSession, TestViewer, text, waitFor } from "./harness";

describe("SessionRoom queue lifecycle (depth 1)", () => {
  it("park → QUEUE_FULL → second viewer gets the chip → idle flush → Stop drops without flushing", async () => {
    const { daemon, sessionId } = await setupSession();
    const a = await TestViewer.open(sessionId);
    await waitFor(() => a.lastStatus()?.state === "idle", "idle");

    // Idle send: forwarded, echoed, ack queued:false.
    const first = await a.op({ op: "message.send", id: "m1", blocks: text("first") });
    expect(first).toMatchObject({ type: "ack", result: { queued: false } });
    expect(daemon.prompts(sessionId)).toHaveLength(1);
    expect(a.ofKind("user_message").map((m) => m.id)).toEqual(["m1"]);
    expect(a.lastStatus()?.state).toBe("active");

    // Busy send parks.
    const parked = await a.op({ op: "message.send", id: "m2", blocks: text("second") });
    expect(parked).toMatchObject({ type: "ack", result: { queued: true } });
    expect(a.lastQueue()).toMatchObject({ entries: [{ id: "m2" }], flushed: false });
    expect(daemon.prompts(sessionId)).toHaveLength(1);

    // Depth 1: a second park bounces, nothing parked.
    const full = await a.op({ op: "message.send", id: "m3", blocks: text("third") });
    expect(full).toMatchObject({ type: "error", code: "QUEUE_FULL" });
    expect(a.lastQueue()?.entries.map((e) => e.id)).toEqual(["m2"]);

    // A second viewer joins mid-turn: the chip and Stop state are replayed.
    const b = await TestViewer.open(sessionId);
    expect(b.lastQueue()?.entries.map((e) => e.id)).toEqual(["m2"]);
    expect(b.lastStatus()).toMatchObject({ state: "active", synthetic: true });

    // Idle: flush forwards m2 once, queue_state(flushed) → user_message → active, on both viewers.
    a.clear();
    b.clear();
    await daemon.finishTurn(sessionId);
    await waitFor(() => daemon.prompts(sessionId).length === 2, "flush forward");
    for (const v of [a, b]) {
      await waitFor(() => v.ofKind("user_message").length === 1, "echo");
      const kinds = v.events().map((e) => (e.kind === "queue_state" ? `queue:${e.flushed}` : e.kind === "session_status" ? `status:${e.state}` : e.kind));
      const qi = kinds.indexOf("queue:true");
      expect(qi).toBeGreaterThan(-1);
      expect(kinds.slice(qi, qi + 3)).toEqual(["queue:true", "user_message", "status:active"]);
      expect(kinds.indexOf("status:idle")).toBeLessThan(qi);
    }
    expect(daemon.prompts(sessionId)[1]!.messageId).toBe("m2");
    expect(daemon.prompts(sessionId)[1]!.blocks).toEqual(text("second"));

    // Queue again, then Stop: entry dropped and returned, cancel forwarded, no flush after the turn ends.
    await a.op({ op: "message.send", id: "m4", blocks: text("fourth") });
    const stop = await b.op({ op: "turn.cancel" });
    expect(stop).toMatchObject({ type: "ack", result: { outcome: "cancelled", dropped: [{ id: "m4" }] } });
    await waitFor(() => a.lastQueue()?.dropped?.[0]?.id === "m4", "dropped frame on A");
    expect(a.lastQueue()).toMatchObject({ entries: [], flushed: false });
    await waitFor(() => daemon.of("cancel").length === 1, "cancel forwarded");
    await daemon.finishTurn(sessionId, "", "cancelled");
    await waitFor(() => a.lastStatus()?.state === "idle", "idle after cancel");
    expect(daemon.prompts(sessionId)).toHaveLength(2);
    // A queue op on the dropped entry reports it, never a silent no-op.
    expect(await a.op({ op: "queue.cancel", id: "m4" })).toMatchObject({ result: { outcome: "cancelled" } });
    expect(await a.op({ op: "queue.cancel", id: "m2" })).toMatchObject({ result: { outcome: "already_sent" } });
  });

  it("queue.cancel drops the parked entry, is idempotent, and a cancelled entry never flushes", async () => {
    const { daemon, sessionId } = await setupSession();
    const a = await TestViewer.open(sessionId);
    await waitFor(() => a.lastStatus()?.state === "idle", "idle");
    await a.op({ op: "message.send", id: "x1", blocks: text("run") });
    await a.op({ op: "message.send", id: "x2", blocks: text("parked") });
    const c1 = await a.op({ op: "queue.cancel", id: "x2" });
    expect(c1).toMatchObject({ result: { outcome: "cancelled", entry: { id: "x2", blocks: text("parked") } } });
    expect(await a.op({ op: "queue.cancel", id: "x2" })).toMatchObject({ result: { outcome: "cancelled" } });
    expect(await a.op({ op: "queue.cancel", id: "nope" })).toMatchObject({ result: { outcome: "not_found" } });
    await daemon.finishTurn(sessionId);
    await waitFor(() => a.lastStatus()?.state === "idle", "idle");
    expect(daemon.prompts(sessionId).map((p) => p.messageId)).toEqual(["x1"]);
    // The slot is free again.
    expect(await a.op({ op: "message.send", id: "x3", blocks: text("again") })).toMatchObject({ result: { queued: false } });
  });

  it("a retried message id runs once and returns the original outcome", async () => {
    const { daemon, sessionId } = await setupSession();
    const a = await TestViewer.open(sessionId);
    await waitFor(() => a.lastStatus()?.state === "idle", "idle");
    const r1 = await a.op({ op: "message.send", id: "dup", blocks: text("once") });
    const r2 = await a.op({ op: "message.send", id: "dup", blocks: text("once") });
    expect(r1).toMatchObject({ result: { queued: false } });
    expect(r2).toMatchObject({ result: { queued: false, duplicate: true } });
    const q1 = await a.op({ op: "message.send", id: "dupq", blocks: text("q") });
    const q2 = await a.op({ op: "message.send", id: "dupq", blocks: text("q") });
    expect(q1).toMatchObject({ result: { queued: true } });
    expect(q2).toMatchObject({ result: { queued: true, duplicate: true } });
    // Two copies racing in one burst, from a second socket too.
    const b = await TestViewer.open(sessionId);
    await daemon.finishTurn(sessionId);
    await waitFor(() => daemon.prompts(sessionId).length === 2, "flush");
    await daemon.finishTurn(sessionId);
    b.raw(JSON.stringify({ op: "message.send", rid: "b1", id: "race", blocks: text("r") }));
    a.raw(JSON.stringify({ op: "message.send", rid: "a1", id: "race", blocks: text("r") }));
    await waitFor(() => a.frames.some((f) => f.type === "ack" && f.rid === "a1") && b.frames.some((f) => f.type === "ack" && f.rid === "b1"), "both acks");
    expect(daemon.prompts(sessionId).map((p) => p.messageId)).toEqual(["dup", "dupq", "race"]);
    expect(a.ofKind("user_message").filter((m) => m.id === "race")).toHaveLength(1);
  });

  it("config writes are never busy-gated and report applies-from-next-turn", async () => {
    const { daemon, sessionId } = await setupSession();
    const a = await TestViewer.open(sessionId);
    await waitFor(() => a.lastStatus()?.state === "idle", "idle");
    expect(await a.op({ op: "config.set", configId: "model", value: "smart" })).toMatchObject({ result: { appliesNextTurn: false } });
    await a.op({ op: "message.send", id: "c1", blocks: text("go") });
    expect(await a.op({ op: "config.set", configId: "model", value: "fast" })).toMatchObject({ result: { appliesNextTurn: true } });
    expect(await a.op({ op: "mode.set", modeId: "ask" })).toMatchObject({ type: "ack" });
    expect(await a.op({ op: "mode.set", modeId: "nope" })).toMatchObject({ type: "error", code: "NOT_SUPPORTED" });
    expect(await a.op({ op: "model.set", modelId: "x" })).toMatchObject({ type: "error", code: "NOT_SUPPORTED" });
    await waitFor(() => daemon.of("config.set").length === 2 && daemon.of("mode.set").length === 1, "forwarded");
    expect(daemon.of("config.set").map((c) => c.value)).toEqual(["smart", "fast"]);
  });
});
