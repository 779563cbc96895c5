import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ClientOp } from "../../../shared/viewer-protocol";
import { makeOpClient, type OpClientOptions, type OpReply } from "./op-client";
import { makeOutbox, type OutboxStorage, type SendOp } from "./outbox";
import { makeBackoff, socketUrl } from "./session-socket";

const text = (t: string) => [{ type: "text" as const, text: t }];

function harness(extra: Partial<OpClientOptions> = {}) {
  const wire: ClientOp[] = [];
  let open = true;
  let n = 0;
  const client = makeOpClient({
    transmit: (f) => {
      if (!open) return false;
      wire.push(f);
      return true;
    },
    mintId: () => `r${++n}`,
    timeoutMs: 1000,
    ...extra,
  });
  return {
    client,
    wire,
    setOpen: (o: boolean) => (open = o),
    // The op client matches answers by rid alone: any op's ack shape will do here.
    ack: (rid: string, result: Record<string, unknown> = {}) => client.handle(JSON.parse(JSON.stringify({ type: "ack", rid, op: "x", result }))),
    err: (rid: string, code: string) => client.handle({ type: "error", rid, code, message: code }),
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("op client", () => {
  it("every op carries a fresh rid; the promise resolves with the matching ack", async () => {
    const h = harness();
    h.client.setLive(true);
    const p1 = h.client.request({ op: "queue.cancel", id: "q" });
    const p2 = h.client.request({ op: "turn.cancel" });
    expect(h.wire.map((f) => f.rid)).toEqual(["r1", "r2"]);
    h.ack("r2", { outcome: "idle", dropped: [] });
    h.ack("r1", { outcome: "cancelled" });
    await expect(p1).resolves.toMatchObject({ type: "ack", rid: "r1", result: { outcome: "cancelled" } });
    await expect(p2).resolves.toMatchObject({ type: "ack", rid: "r2" });
  });

  it("a non-send op times out with an error; a late ack is ignored", async () => {
    const h = harness();
    h.client.setLive(true);
    const p = h.client.request({ op: "config.set", configId: "model", value: "x" });
    vi.advanceTimersByTime(1000);
    await expect(p).resolves.toMatchObject({ type: "error", code: "TIMEOUT" });
    expect(h.ack("r1")).toBe(false);
  });

  it("a non-send op while not live fails fast (never sent later by surprise)", async () => {
    const h = harness();
    await expect(h.client.request({ op: "turn.cancel" })).resolves.toMatchObject({ type: "error", code: "NOT_CONNECTED" });
    h.client.setLive(true);
    expect(h.wire).toEqual([]);
  });

  it("a drop fails in-flight non-send ops (outcome unknown) but keeps sends", async () => {
    const h = harness();
    h.client.setLive(true);
    const cancel = h.client.request({ op: "queue.cancel", id: "q" });
    const send = h.client.request({ op: "message.send", id: "m1", blocks: text("hi") });
    h.client.setLive(false);
    await expect(cancel).resolves.toMatchObject({ type: "error", code: "DISCONNECTED" });
    expect(h.client.pendingSends().map((s) => s.id)).toEqual(["m1"]);
    let settled = false;
    void send.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(5000);
    expect(settled).toBe(false);
  });
});

describe("send outbox", () => {
  it("sends typed while offline go out after ready, oldest first, with their original ids", async () => {
    const h = harness();
    const p1 = h.client.request({ op: "message.send", id: "m1", blocks: text("one") });
    const p2 = h.client.request({ op: "message.send", id: "m2", blocks: text("two") });
    expect(h.wire).toEqual([]);
    h.client.setLive(true);
    expect(h.wire.map((f) => (f.op === "message.send" ? f.id : ""))).toEqual(["m1", "m2"]);
    h.ack("r1", { queued: false });
    h.ack("r2", { queued: true });
    await expect(p1).resolves.toMatchObject({ result: { queued: false } });
    await expect(p2).resolves.toMatchObject({ result: { queued: true } });
    expect(h.client.pendingSends()).toEqual([]);
  });

  it("an unacked send is resent after every reconnect until the room answers; then never again", async () => {
    const h = harness();
    h.client.setLive(true);
    const p = h.client.request({ op: "message.send", id: "m1", blocks: text("hi") });
    expect(h.wire).toHaveLength(1);
    // Dropped before the ack: resent (same id, same rid — the room is idempotent by id).
    h.client.setLive(false);
    h.client.setLive(true);
    h.client.setLive(false);
    h.client.setLive(true);
    expect(h.wire.map((f) => [f.rid, f.op === "message.send" && f.id])).toEqual([
      ["r1", "m1"],
      ["r1", "m1"],
      ["r1", "m1"],
    ]);
    h.ack("r1", { queued: false, duplicate: true });
    await expect(p).resolves.toMatchObject({ type: "ack" });
    h.client.setLive(false);
    h.client.setLive(true);
    expect(h.wire).toHaveLength(3);
  });

  it("a refused send leaves the outbox and resolves with the error (the caller restores the draft)", async () => {
    const h = harness();
    h.client.setLive(true);
    const p = h.client.request({ op: "message.send", id: "m1", blocks: text("hi") });
    h.err("r1", "QUEUE_FULL");
    await expect(p).resolves.toMatchObject({ type: "error", code: "QUEUE_FULL" });
    h.client.setLive(false);
    h.client.setLive(true);
    expect(h.wire).toHaveLength(1);
  });

  it("a send unanswered on a live socket reports a stall (reconnect) instead of failing", async () => {
    const onStall = vi.fn();
    const h = harness({ onStall });
    h.client.setLive(true);
    const p = h.client.request({ op: "message.send", id: "m1", blocks: text("hi") });
    vi.advanceTimersByTime(1000);
    expect(onStall).toHaveBeenCalledTimes(1);
    expect(h.client.pendingSends()).toHaveLength(1);
    h.client.setLive(false);
    h.client.setLive(true);
    h.ack("r1", { queued: false });
    await expect(p).resolves.toMatchObject({ type: "ack" });
  });

  it("reports the outbox size as it changes", () => {
    const sizes: number[] = [];
    const h = harness({ onOutboxChange: (n) => sizes.push(n) });
    void h.client.request({ op: "message.send", id: "m1", blocks: text("a") });
    void h.client.request({ op: "message.send", id: "m2", blocks: text("b") });
    h.client.setLive(true);
    h.ack("r1");
    h.err("r2", "MACHINE_BUSY");
    expect(sizes).toEqual([1, 2, 1, 0]);
  });

  it("sends restored from storage (a reload) are resent, and their answers go to onOrphanReply", () => {
    const saved: SendOp[][] = [];
    const storage: OutboxStorage = {
      load: () => [{ op: "message.send", rid: "old", id: "m0", blocks: text("typed before reload") }],
      save: (ops) => saved.push(ops),
    };
    const orphans: [SendOp, OpReply][] = [];
    const h = harness({ outbox: makeOutbox(storage), onOrphanReply: (op, r) => orphans.push([op, r]) });
    h.client.setLive(true);
    expect(h.wire).toEqual([{ op: "message.send", rid: "old", id: "m0", blocks: text("typed before reload") }]);
    h.err("old", "MACHINE_OFFLINE");
    expect(orphans).toHaveLength(1);
    expect(orphans[0]![0].id).toBe("m0");
    expect(orphans[0]![1]).toMatchObject({ code: "MACHINE_OFFLINE" });
    expect(saved.at(-1)).toEqual([]);
  });

  it("ignores corrupt stored entries", () => {
    const outbox = makeOutbox({ load: () => [null, { op: "queue.cancel" }, { op: "message.send", id: 3 }] as unknown as SendOp[], save: () => {} });
    expect(outbox.size).toBe(0);
  });
});

describe("socket helpers", () => {
  it("the URL carries the cursor on every connect", () => {
    expect(socketUrl({ protocol: "https:", host: "baton.example" }, "s 1", 42)).toBe("wss://baton.example/api/sessions/s%201/ws?after=42");
    expect(socketUrl({ protocol: "http:", host: "127.0.0.1:8787" }, "s", 0)).toBe("ws://127.0.0.1:8787/api/sessions/s/ws?after=0");
  });

  it("the backoff is jittered on every step, first dial at once, first retry ≤ 1 s, capped at 10 s", () => {
    let r = 0;
    const seq = [0, 1, 0.5];
    const b = makeBackoff(undefined, () => seq[r++ % seq.length]!);
    expect(b.delayFor(0)).toBe(0);
    const firstRetries = [b.delayFor(1), b.delayFor(1), b.delayFor(1)];
    expect(new Set(firstRetries).size).toBe(3);
    expect(Math.max(...firstRetries)).toBeLessThanOrEqual(1000);
    expect(b.delayFor(40)).toBe(10_000);
  });
});
