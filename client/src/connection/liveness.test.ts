import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { WebSocket as ReconnectingWebSocket } from "partysocket";
import { VIEWER_PING_EVERY_MS } from "../../../shared/limits";
import { keepAlive } from "./liveness";

/** The parts of a partysocket keepAlive touches: its events, readyState, send and reconnect. */
class SocketDouble extends EventTarget {
  readyState = 1;
  sent: string[] = [];
  reconnects = 0;
  send(data: string) {
    this.sent.push(data);
  }
  reconnect() {
    this.reconnects++;
  }
  as(): ReconnectingWebSocket {
    return this as unknown as ReconnectingWebSocket;
  }
}

describe("keepAlive", () => {
  let ws: SocketDouble;
  let wakes: number;
  let states: string[];
  let alive: { stop(): void };
  beforeEach(() => {
    vi.useFakeTimers();
    ws = new SocketDouble();
    wakes = 0;
    states = [];
    alive = keepAlive(ws.as(), { wakeNow: () => wakes++ }, { online: () => states.push("online"), offline: () => states.push("offline") });
    ws.dispatchEvent(new Event("open"));
  });
  afterEach(() => {
    alive.stop();
    vi.useRealTimers();
  });

  it("pings on its period and reconnects when nothing comes back in time", () => {
    vi.advanceTimersByTime(VIEWER_PING_EVERY_MS);
    expect(ws.sent).toEqual(["ping"]);
    vi.advanceTimersByTime(5_999);
    expect(ws.reconnects).toBe(0);
    vi.advanceTimersByTime(1);
    expect(ws.reconnects).toBe(1);
  });

  it("any frame after a ping proves the socket alive", () => {
    vi.advanceTimersByTime(VIEWER_PING_EVERY_MS);
    ws.dispatchEvent(new MessageEvent("message", { data: "pong" }));
    vi.advanceTimersByTime(10_000);
    expect(ws.reconnects).toBe(0);
  });

  it("the network back: told first, then dials now with the backoff's wait cut short; offline is told", () => {
    window.dispatchEvent(new Event("offline"));
    window.dispatchEvent(new Event("online"));
    expect(states).toEqual(["offline", "online"]);
    expect([wakes, ws.reconnects]).toEqual([1, 1]);
  });

  it("back on the page: an open socket is probed (3 s), a closed one dialled at once", () => {
    window.dispatchEvent(new Event("pageshow"));
    expect(ws.sent).toEqual(["ping"]);
    vi.advanceTimersByTime(3_000);
    expect(ws.reconnects).toBe(1);
    ws.readyState = 3;
    ws.dispatchEvent(new Event("close"));
    window.dispatchEvent(new Event("pageshow"));
    expect([wakes, ws.reconnects]).toEqual([1, 2]);
  });

  it("stop() ends the pings and the listeners", () => {
    alive.stop();
    vi.advanceTimersByTime(VIEWER_PING_EVERY_MS * 3);
    window.dispatchEvent(new Event("online"));
    window.dispatchEvent(new Event("pageshow"));
    expect([ws.sent, ws.reconnects, wakes, states]).toEqual([[], 0, 0, []]);
  });
});
