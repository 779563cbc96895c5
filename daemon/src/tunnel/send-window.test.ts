import { describe, expect, it } from "vitest";
import { makeSendWindow } from "./send-window";

describe("send window", () => {
  it("sends while slots are free, then holds and coalesces until an ack frees one", () => {
    const w = makeSendWindow<number>(2);
    w.push(1);
    expect(w.take()).toEqual([1]);
    w.sent(1);
    w.push(2);
    w.push(3);
    expect(w.take()).toEqual([2, 3]);
    w.sent(3);
    for (let i = 4; i <= 40; i++) w.push(i);
    expect(w.take()).toEqual([]); // full: two frames unacked
    expect(w.queued).toBe(37);
    w.ack(1);
    expect(w.inFlight).toBe(1);
    expect(w.take()).toEqual(Array.from({ length: 37 }, (_, i) => i + 4)); // one frame for the pile
  });

  it("an ack covers every frame ending at or below it; stale acks change nothing", () => {
    const w = makeSendWindow<number>(2);
    w.sent(5);
    w.sent(9);
    w.ack(3);
    expect(w.inFlight).toBe(2);
    w.ack(9);
    expect(w.inFlight).toBe(0);
  });

  it("release frees the slots and keeps the queue; reset drops both", () => {
    const w = makeSendWindow<string>(1);
    w.sent(1);
    w.push("a");
    expect(w.take()).toEqual([]);
    w.release();
    expect(w.take()).toEqual(["a"]);
    w.sent(2);
    w.push("b");
    w.reset();
    expect([w.inFlight, w.queued]).toEqual([0, 0]);
    expect(w.take()).toEqual([]);
  });
});
