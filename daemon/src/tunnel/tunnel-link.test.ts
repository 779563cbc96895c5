import { TUNNEL_PROTOCOL_VERSION } from "../../../shared/protocol-version";
import { describe, expect, it } from "vitest";
import { MAX_BATCH_EVENTS } from "../../../shared/limits";
import type { DaemonEvent, DaemonFrame, MachineCommand, MachineFrame } from "../../../shared/tunnel-protocol";
import { silentLogger } from "../log";
import { makeTunnelLink } from "./tunnel-link";

const ev = (i: number): DaemonEvent => ({
  t: "session.update",
  sessionId: "s1",
  update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `chunk ${i}` } },
});
const HELLO = { version: "0.1.0", hostname: "h", agents: [], roots: ["/tmp"], sessions: [] };

function harness() {
  const sent: DaemonFrame[] = [];
  const commands: MachineCommand[] = [];
  const invalid: string[] = [];
  const warnings: string[] = [];
  let open = true;
  const link = makeTunnelLink("ep1", {
    transmit: (f) => {
      if (!open) return false;
      sent.push(f);
      return true;
    },
    onCommand: (c) => void commands.push(c),
    onInvalidCommand: (_raw, reason) => void invalid.push(reason),
    log: { ...silentLogger, warn: (line) => void warnings.push(line) },
  });
  const from = (f: MachineFrame | string) => link.receive(typeof f === "string" ? f : JSON.stringify(f));
  /** The event numbers in what was sent, in order (batches expanded). */
  const ns = () => sent.flatMap((f) => (f.type === "event" ? [f.n] : f.type === "batch" ? f.events.map((e) => e.n) : []));
  const connect = (lastSeenUp = 0) => {
    sent.push(link.hello(HELLO));
    const w = from({ type: "welcome", machineId: "m1", lastSeenUp });
    link.resend();
    return w;
  };
  return { link, sent, commands, invalid, warnings, from, ns, connect, setOpen: (o: boolean) => (open = o) };
}

describe("tunnel link (the tunnel's protocol without a socket)", () => {
  it("hello carries the epoch and the last command seen; nothing numbered goes out before welcome", () => {
    const h = harness();
    expect(h.link.push(ev(1))).toBe(false);
    expect(h.link.hello(HELLO)).toEqual({ type: "hello", epoch: "ep1", lastSeenDown: 0, protocolVersion: TUNNEL_PROTOCOL_VERSION, ...HELLO });
    expect(h.link.flush()).toBe(false);
    expect(h.ns()).toEqual([]);
    expect(h.from({ type: "welcome", machineId: "m1", lastSeenUp: 0 })).toEqual({ type: "welcome", machineId: "m1", resend: 1 });
    h.link.resend();
    expect(h.ns()).toEqual([1]);
  });

  it("events pushed in one tick leave as one batch frame; the window holds the rest until an ack", () => {
    const h = harness();
    h.connect();
    for (let i = 1; i <= 3; i++) expect(h.link.push(ev(i))).toBe(true);
    expect(h.link.flush()).toBe(false);
    expect(h.sent.at(-1)).toMatchObject({ type: "batch", events: [{ n: 1 }, { n: 2 }, { n: 3 }] });
    h.link.push(ev(4));
    h.link.flush();
    // Two frames in flight: the next events wait and coalesce.
    h.link.push(ev(5));
    h.link.push(ev(6));
    expect(h.link.flush()).toBe(true);
    expect(h.ns()).toEqual([1, 2, 3, 4]);
    expect(h.from({ type: "ack", n: 3 })).toEqual({ type: "ack", waiting: true });
    expect(h.link.pending).toBe(3);
    expect(h.link.flush()).toBe(false);
    expect(h.ns()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("a stalled window (no ack) is freed and what waits is sent", () => {
    const h = harness();
    h.connect();
    for (let i = 1; i <= 2; i++) {
      h.link.push(ev(i));
      h.link.flush();
    }
    h.link.push(ev(3));
    expect(h.link.flush()).toBe(true);
    expect(h.link.stalled()).toBe(false);
    expect(h.ns()).toEqual([1, 2, 3]);
  });

  it("after a reconnect the unacked tail is resent from the welcome's lastSeenUp, in order", () => {
    const h = harness();
    h.connect();
    for (let i = 1; i <= 5; i++) h.link.push(ev(i));
    h.link.flush();
    h.from({ type: "ack", n: 2 });
    h.link.disconnected();
    expect(h.link.push(ev(6))).toBe(false);
    h.sent.length = 0;
    expect(h.connect(4)).toEqual({ type: "welcome", machineId: "m1", resend: 2 });
    expect(h.ns()).toEqual([5, 6]);
  });

  it("a frame the socket did not take is not counted in flight (and is resent after the next welcome)", () => {
    const h = harness();
    h.connect();
    h.setOpen(false);
    h.link.push(ev(1));
    expect(h.link.flush()).toBe(false);
    h.setOpen(true);
    h.link.disconnected();
    h.connect();
    expect(h.ns()).toEqual([1]);
  });

  it("batches are bounded by count", () => {
    const h = harness();
    h.link.hello(HELLO);
    for (let i = 1; i <= MAX_BATCH_EVENTS + 1; i++) h.link.push(ev(i));
    h.from({ type: "welcome", machineId: "m1", lastSeenUp: 0 });
    h.link.resend();
    expect(h.sent.map((f) => (f.type === "batch" ? f.events.length : 1))).toEqual([MAX_BATCH_EVENTS, 1]);
  });

  it("commands are handed over once each and all acked; before welcome they are ignored", () => {
    const h = harness();
    h.link.hello(HELLO);
    expect(h.from({ type: "command", n: 1, command: { t: "cancel", sessionId: "early" } })).toBeNull();
    expect(h.commands).toEqual([]);
    h.from({ type: "welcome", machineId: "m1", lastSeenUp: 0 });
    for (const n of [1, 2, 2]) h.from({ type: "command", n, command: { t: "cancel", sessionId: `s${n}` } });
    expect(h.commands.map((c) => c.sessionId)).toEqual(["s1", "s2"]);
    expect(h.sent.filter((f) => f.type === "ack")).toEqual([{ type: "ack", n: 1 }, { type: "ack", n: 2 }, { type: "ack", n: 2 }]);
    expect(h.link.lastSeenDown).toBe(2);
    expect(h.link.hello(HELLO)).toMatchObject({ lastSeenDown: 2 });
  });

  it("an unreadable numbered command is acked and reported; other bad frames are logged and ignored", () => {
    const h = harness();
    h.connect();
    h.from({ type: "command", n: 1, command: { t: "explode", sessionId: "s1" } } as unknown as MachineFrame);
    expect(h.invalid).toHaveLength(1);
    expect(h.sent.at(-1)).toEqual({ type: "ack", n: 1 });
    for (const bad of ["not json {", JSON.stringify({ type: "bogus" }), "null"]) expect(h.from(bad)).toBeNull();
    h.from({ type: "error", code: "BAD_FRAME", message: "hello first" });
    expect(h.warnings.filter((w) => w.includes("malformed") || w.includes("non-JSON"))).toHaveLength(3);
    expect(h.warnings.at(-1)).toBe("server error BAD_FRAME: hello first");
    expect(h.commands).toEqual([]);
  });
});
