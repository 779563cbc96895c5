/**
 * The socket the entry dials for a session page (issue 31 #1) is the one the session socket uses: what it
 * received before the session chunk loaded reaches the page in order, and no second connection is made.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerFrame } from "../../../shared/viewer-protocol";
import { dialEarly, resetEarlySocket, sessionOfPath, UNADOPTED_CLOSE_MS, withEarlySocket } from "./early-socket";
import { makeSessionSocket } from "./session-socket";
import { TestSocket } from "./test-socket";

/** A server the test drives: it accepts, pushes frames and drops; a close by the client is recorded. */
class FakeSocket extends TestSocket {
  static made: FakeSocket[] = [];
  closedByClient = false;
  constructor(url: string) {
    super(url);
    FakeSocket.made.push(this);
  }
  push(frame: ServerFrame): void {
    this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(frame) }));
  }
  override close(): void {
    this.closedByClient = true;
    super.close();
  }
}
const Fake = FakeSocket as unknown as typeof WebSocket;
const LOC = { protocol: "http:", host: "baton.test" };

const welcome: ServerFrame = { type: "welcome", sessionId: "s1", viewer: { id: "u1", name: "Ada", role: "owner" }, headSeq: 2 };
const ready: ServerFrame = { type: "ready", seq: 2 };

describe("early socket", () => {
  beforeEach(() => {
    FakeSocket.made = [];
    vi.stubGlobal("location", { ...location, protocol: LOC.protocol, host: LOC.host });
  });
  afterEach(() => {
    resetEarlySocket();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("a session page's path names its session; other pages none", () => {
    expect(sessionOfPath("/s/abc-1")).toBe("abc-1");
    expect(sessionOfPath("/s/a%20b/")).toBe("a b");
    expect(sessionOfPath("/")).toBeNull();
    expect(sessionOfPath("/s/")).toBeNull();
    expect(sessionOfPath("/s/a/b")).toBeNull();
    expect(sessionOfPath("/s/%E0%A4%A")).toBeNull();
  });

  it("the session socket adopts the dialled socket: frames that came before it reach the page in order, one connection", async () => {
    dialEarly("s1", Fake, LOC);
    const early = FakeSocket.made[0]!;
    expect(early.url).toBe("ws://baton.test/api/sessions/s1/ws?after=0");
    // The join arrives while the session chunk loads.
    early.accept();
    early.push(welcome);
    early.push(ready);
    const frames: string[] = [];
    const states: string[] = [];
    const socket = makeSessionSocket({ sessionId: "s1", cursor: () => 0, onFrame: (f) => frames.push(f.type), onState: (s) => states.push(s), WebSocket: withEarlySocket(Fake) });
    await vi.waitFor(() => expect(frames).toEqual(["welcome", "ready"]));
    expect(FakeSocket.made).toHaveLength(1);
    expect(states.at(-1)).toBe("live");
    // What comes after is delivered as usual.
    early.push({ type: "event", seq: 3, event: { kind: "session_status", state: "idle" } });
    expect(frames).toEqual(["welcome", "ready", "event"]);
    socket.close();
  });

  it("a socket still connecting is adopted and opens for the page", async () => {
    dialEarly("s1", Fake, LOC);
    const frames: string[] = [];
    const socket = makeSessionSocket({ sessionId: "s1", cursor: () => 0, onFrame: (f) => frames.push(f.type), onState: () => {}, WebSocket: withEarlySocket(Fake) });
    await new Promise((r) => setTimeout(r, 0));
    const early = FakeSocket.made[0]!;
    early.accept();
    early.push(welcome);
    expect(frames).toEqual(["welcome"]);
    expect(FakeSocket.made).toHaveLength(1);
    socket.close();
  });

  it("another session's page, or a socket that already closed, dials its own", async () => {
    dialEarly("s1", Fake, LOC);
    const other = makeSessionSocket({ sessionId: "s2", cursor: () => 0, onFrame: () => {}, onState: () => {}, WebSocket: withEarlySocket(Fake) });
    await vi.waitFor(() => expect(FakeSocket.made).toHaveLength(2));
    expect(FakeSocket.made[1]!.url).toBe("ws://baton.test/api/sessions/s2/ws?after=0");
    other.close();
    FakeSocket.made[0]!.drop();
    const same = makeSessionSocket({ sessionId: "s1", cursor: () => 0, onFrame: () => {}, onState: () => {}, WebSocket: withEarlySocket(Fake) });
    await vi.waitFor(() => expect(FakeSocket.made).toHaveLength(3));
    expect(FakeSocket.made[2]!.url).toBe("ws://baton.test/api/sessions/s1/ws?after=0");
    same.close();
  });

  it("a dialled socket nobody adopts is closed", () => {
    vi.useFakeTimers();
    dialEarly("s1", Fake, LOC);
    const early = FakeSocket.made[0]!;
    vi.advanceTimersByTime(UNADOPTED_CLOSE_MS - 1);
    expect(early.closedByClient).toBe(false);
    vi.advanceTimersByTime(1);
    expect(early.closedByClient).toBe(true);
  });
});
