import { describe, expect, it } from "vitest";
import { busyRoom, setupSession, TestViewer, text, waitFor } from "./harness";

describe("queue beyond one slot", () => {
  it("depth N: FIFO one per turn, edit keeps id and position, move reorders, same order for every viewer", async () => {
    const { daemon, sessionId, a } = await busyRoom(3);
    for (const id of ["q1", "q2", "q3"]) expect(await a.op({ op: "message.send", id, blocks: text(id) })).toMatchObject({ result: { queued: true } });
    expect(await a.op({ op: "message.send", id: "q4", blocks: text("q4") })).toMatchObject({ code: "QUEUE_FULL" });
    expect(await a.op({ op: "queue.edit", id: "q2", blocks: text("q2 edited") })).toMatchObject({ result: { outcome: "edited" } });
    expect(await a.op({ op: "queue.move", id: "q3", before: "q1" })).toMatchObject({ result: { outcome: "moved" } });
    const b = await TestViewer.open(sessionId);
    expect(a.lastQueue()!.entries.map((e) => e.id)).toEqual(["q3", "q1", "q2"]);
    expect(b.lastQueue()!.entries.map((e) => e.id)).toEqual(["q3", "q1", "q2"]);
    expect(b.lastQueue()!.entries[2]!.blocks).toEqual(text("q2 edited"));
    for (let i = 0; i < 3; i++) {
      await daemon.finishTurn(sessionId);
      await waitFor(() => daemon.prompts(sessionId).length === i + 2, `flush ${i}`);
    }
    expect(daemon.prompts(sessionId).map((p) => p.messageId)).toEqual(["run", "q3", "q1", "q2"]);
    expect(daemon.prompts(sessionId)[3]!.blocks).toEqual(text("q2 edited"));
    expect(await a.op({ op: "queue.edit", id: "q1", blocks: text("late") })).toMatchObject({ result: { outcome: "already_sent" } });
    expect(await a.op({ op: "queue.move", id: "q1", before: null })).toMatchObject({ result: { outcome: "already_sent" } });
  });

  it("races: cancel vs flush and edit vs flush resolve one way, nothing runs twice", async () => {
    const { daemon, sessionId, a } = await busyRoom(2);
    const b = await TestViewer.open(sessionId);
    await a.op({ op: "message.send", id: "c1", blocks: text("c1") });
    await a.op({ op: "message.send", id: "c2", blocks: text("c2") });
    // Turn ends while B cancels c1 and A edits c2, all in flight together.
    const p = daemon.prompts(sessionId).at(-1)!;
    daemon.emit({ t: "turn.ended", sessionId, turnId: p.turnId, stopReason: "end_turn" });
    const [cancel, edit] = await Promise.all([b.op({ op: "queue.cancel", id: "c1" }), a.op({ op: "queue.edit", id: "c2", blocks: text("c2 v2") })]);
    await daemon.settle();
    await waitFor(() => daemon.prompts(sessionId).length >= 2, "a flush");
    const ran = daemon.prompts(sessionId).slice(1).map((x) => x.messageId);
    const cancelOutcome = cancel.type === "ack" ? cancel.result.outcome : "";
    if (cancelOutcome === "cancelled") expect(ran).not.toContain("c1");
    else expect(cancelOutcome).toBe("already_sent");
    const editOutcome = edit.type === "ack" ? edit.result.outcome : "";
    expect(["edited", "already_sent"]).toContain(editOutcome);
    // Drain and check: each id ran at most once, and an edit that won is what ran.
    while (a.lastQueue()!.entries.length) {
      await daemon.finishTurn(sessionId);
      await new Promise((r) => setTimeout(r, 20));
    }
    const all = daemon.prompts(sessionId).map((x) => x.messageId);
    expect(new Set(all).size).toBe(all.length);
    if (editOutcome === "edited") expect(daemon.prompts(sessionId).find((x) => x.messageId === "c2")!.blocks).toEqual(text("c2 v2"));
  });

  it("two viewers reordering at once converge on one order", async () => {
    const { sessionId, a } = await busyRoom(4);
    const b = await TestViewer.open(sessionId);
    for (const id of ["r1", "r2", "r3", "r4"]) await a.op({ op: "message.send", id, blocks: text(id) });
    await Promise.all([
      a.op({ op: "queue.move", id: "r4", before: "r1" }),
      b.op({ op: "queue.move", id: "r1", before: null }),
      a.op({ op: "queue.move", id: "r2", before: "r4" }),
      b.op({ op: "queue.move", id: "r3", before: "r2" }),
    ]);
    await new Promise((r) => setTimeout(r, 50));
    const c = await TestViewer.open(sessionId);
    const final = c.lastQueue()!.entries.map((e) => e.id);
    expect(a.lastQueue()!.entries.map((e) => e.id)).toEqual(final);
    expect(b.lastQueue()!.entries.map((e) => e.id)).toEqual(final);
    expect([...final].sort()).toEqual(["r1", "r2", "r3", "r4"]);
  });

  it("steer: injected entries leave the queue with an echo; promptRequired keeps them; indeterminate waits for an explicit retry", async () => {
    const { daemon, sessionId, a } = await busyRoom(3);
    await a.op({ op: "message.send", id: "s1", blocks: text("steer me") });
    await a.op({ op: "message.send", id: "s2", blocks: text("unsure") });
    expect(await a.op({ op: "queue.steer", id: "s1" })).toMatchObject({ result: { outcome: "steering" } });
    await waitFor(() => daemon.of("steer").length === 1, "steer forwarded");
    // While out for steering it cannot be cancelled (it may land in the turn).
    expect(await a.op({ op: "queue.cancel", id: "s1" })).toMatchObject({ result: { outcome: "steering" } });
    daemon.emit({ t: "steer.result", sessionId, entryId: "s1", outcome: "injected" });
    await a.op({ op: "queue.steer", id: "s2" });
    daemon.emit({ t: "steer.result", sessionId, entryId: "s2", outcome: "indeterminate" });
    await daemon.settle();
    await waitFor(() => a.ofKind("steer_result").length === 2, "results");
    expect(a.ofKind("user_message").map((m) => m.id)).toEqual(["run", "s1"]);
    expect(a.lastQueue()!.entries).toMatchObject([{ id: "s2", state: "indeterminate" }]);
    // The indeterminate entry is not replayed automatically at idle.
    await daemon.finishTurn(sessionId);
    await new Promise((r) => setTimeout(r, 50));
    expect(daemon.prompts(sessionId).map((p) => p.messageId)).toEqual(["run"]);
    expect(await a.op({ op: "queue.cancel", id: "s2" })).toMatchObject({ result: { outcome: "cancelled" } });
  });

  it("an unconfirmed entry retried at idle runs as the next turn, once; a late promptRequired flushes", async () => {
    const { daemon, sessionId, a } = await busyRoom(3);
    await a.op({ op: "message.send", id: "u1", blocks: text("unsure") });
    await a.op({ op: "message.send", id: "p1", blocks: text("late steer") });
    await a.op({ op: "queue.steer", id: "u1" });
    daemon.emit({ t: "steer.result", sessionId, entryId: "u1", outcome: "indeterminate" });
    await a.op({ op: "queue.steer", id: "p1" });
    await waitFor(() => daemon.of("steer").length === 2, "steers forwarded");
    // The turn ends while p1 is out for steering: nothing is flushed (u1 unconfirmed, p1 steering).
    await daemon.finishTurn(sessionId);
    await new Promise((r) => setTimeout(r, 50));
    expect(daemon.prompts(sessionId).map((p) => p.messageId)).toEqual(["run"]);
    // The agent answers promptRequired (it was idle): p1 runs as the next turn instead of sitting idle.
    daemon.emit({ t: "steer.result", sessionId, entryId: "p1", outcome: "promptRequired" });
    await waitFor(() => daemon.prompts(sessionId).length === 2, "p1 flushed");
    expect(daemon.prompts(sessionId)[1]!.messageId).toBe("p1");
    await daemon.finishTurn(sessionId);
    await new Promise((r) => setTimeout(r, 50));
    expect(daemon.prompts(sessionId)).toHaveLength(2);
    // An explicit retry of the unconfirmed entry while idle runs it as a prompt.
    expect(await a.op({ op: "queue.steer", id: "u1" })).toMatchObject({ result: { outcome: "requeued" } });
    await waitFor(() => daemon.prompts(sessionId).length === 3, "u1 runs");
    expect(daemon.prompts(sessionId)[2]!.messageId).toBe("u1");
    await waitFor(() => a.lastQueue()!.entries.length === 0, "queue empty");
    expect(await a.op({ op: "queue.steer", id: "u1" })).toMatchObject({ result: { outcome: "already_sent" } });
    const ids = a.ofKind("user_message").map((m) => m.id);
    expect(ids).toEqual(["run", "p1", "u1"]);
  });

  it("steer is refused for agents that did not advertise it", async () => {
    const s = await setupSession();
    s.daemon.config = { ...s.daemon.config, steering: false };
    s.daemon.emit({ t: "config.state", sessionId: s.sessionId, config: s.daemon.config });
    await s.daemon.settle();
    const a = await TestViewer.open(s.sessionId);
    await a.op({ op: "message.send", id: "m", blocks: text("x") });
    await a.op({ op: "message.send", id: "n", blocks: text("y") });
    expect(await a.op({ op: "queue.steer", id: "n" })).toMatchObject({ type: "error", code: "NOT_SUPPORTED" });
  });

  it("merge mode: queued entries run as one turn joined with a blank line", async () => {
    const { daemon, sessionId, a } = await busyRoom(3);
    await a.op({ op: "settings.set", mergeQueued: true });
    await a.op({ op: "message.send", id: "j1", blocks: text("first") });
    await a.op({ op: "message.send", id: "j2", blocks: text("second") });
    await daemon.finishTurn(sessionId);
    await waitFor(() => daemon.prompts(sessionId).length === 2, "merged flush");
    expect(daemon.prompts(sessionId)[1]!.blocks).toEqual(text("first\n\nsecond"));
    await waitFor(() => a.ofKind("user_message").length === 3, "both echoes");
  });

  it("viewers are read-only", async () => {
    // Role enforcement is in the room; a viewer attachment is refused every write op.
    const s = await setupSession();
    const { env } = await import("cloudflare:workers");
    const stub = env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(s.sessionId));
    const res = await stub.fetch(`http://room/ws`, {
      headers: { Upgrade: "websocket", "x-baton-viewer": JSON.stringify({ id: "v", name: "Vic", role: "viewer" }) },
    });
    const ws = res.webSocket!;
    ws.accept();
    const frames: any[] = [];
    ws.addEventListener("message", (e) => void frames.push(JSON.parse(e.data as string)));
    ws.send(JSON.stringify({ op: "message.send", rid: "v1", id: "vv", blocks: text("nope") }));
    await waitFor(() => frames.find((f) => f.rid === "v1"), "reply");
    expect(frames.find((f) => f.rid === "v1")).toMatchObject({ type: "error", code: "FORBIDDEN" });
  });
});
