/**
 * Back within a second (issue 31 #6): when the network returns (`online`, the page becoming visible), the
 * socket dials at once instead of waiting out the backoff it reached while the network was gone.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BACKOFF, makeSessionSocket } from "./session-socket";
import { TestSocket } from "./test-socket";

/** A socket to a network that is down: every dial fails at once (as a browser's does offline). */
class DeadSocket extends TestSocket {
  static dials: number[] = [];
  static reachable = false;
  constructor(url: string) {
    super(url);
    DeadSocket.dials.push(Date.now());
    queueMicrotask(() => {
      if (DeadSocket.reachable) return this.accept();
      this.readyState = 3;
      this.dispatchEvent(new Event("error"));
      this.drop();
    });
  }
}

describe("session socket: back at once when the network returns", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    DeadSocket.dials = [];
    DeadSocket.reachable = false;
  });
  afterEach(() => vi.useRealTimers());

  const open = () =>
    makeSessionSocket({ sessionId: "s1", cursor: () => 0, onFrame: () => {}, onState: () => {}, WebSocket: DeadSocket as unknown as typeof WebSocket });

  it("an `online` event dials now, not after the backoff reached while offline", async () => {
    const socket = open();
    // 40 s without a network: the retries back off towards BACKOFF.maxMs.
    await vi.advanceTimersByTimeAsync(40_000);
    const offlineDials = DeadSocket.dials.length;
    expect(offlineDials).toBeGreaterThan(3);
    expect(offlineDials).toBeLessThan(40); // it did back off
    DeadSocket.reachable = true;
    window.dispatchEvent(new Event("online"));
    await vi.advanceTimersByTimeAsync(50);
    expect(DeadSocket.dials.length).toBe(offlineDials + 1);
    socket.close();
  });

  it("the page becoming visible again dials now too", async () => {
    const socket = open();
    await vi.advanceTimersByTimeAsync(40_000);
    const before = DeadSocket.dials.length;
    document.dispatchEvent(new Event("visibilitychange"));
    await vi.advanceTimersByTimeAsync(50);
    expect(DeadSocket.dials.length).toBe(before + 1);
    socket.close();
  });

  it("without such an event it keeps backing off (no tight loop)", async () => {
    const socket = open();
    await vi.advanceTimersByTimeAsync(40_000);
    const before = DeadSocket.dials.length;
    await vi.advanceTimersByTimeAsync(BACKOFF.maxMs / 2);
    expect(DeadSocket.dials.length - before).toBeLessThanOrEqual(1);
    socket.close();
  });
});
