import { afterEach, describe, expect, it } from "vitest";
import { TUNNEL_PATH, TUNNEL_TOKEN_HEADER, type DaemonEvent, type MachineCommand } from "../../shared/tunnel-protocol";
import { makeLogger } from "../../daemon/src/log";
import { createTunnelClient, tunnelUrl, type TunnelClient } from "../../daemon/src/tunnel/tunnel-client";
import { eventNs, sendFrame, sendFrame as send, useMachineServers } from "./fake-machine";

const TOKEN = "secret-machine-token-123";

const ev = (i: number): DaemonEvent => ({
  t: "session.update",
  sessionId: "s1",
  update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `chunk ${i}` } },
});

const machineServer = useMachineServers();
let client: TunnelClient | null = null;
afterEach(async () => {
  await client?.stop();
  client = null;
});

function makeClient(server: string, extra: Partial<Parameters<typeof createTunnelClient>[0]> = {}) {
  const logs: string[] = [];
  const commands: MachineCommand[] = [];
  const c = createTunnelClient({
    server,
    token: TOKEN,
    hello: () => ({ version: "0.1.0", hostname: "test-host", agents: [], roots: ["/tmp"], sessions: [] }),
    onCommand: (cmd) => commands.push(cmd),
    log: makeLogger({ sink: (level, line) => logs.push(`${level} ${line}`), secrets: [TOKEN], debug: true }),
    backoff: { baseMs: 20, maxMs: 100 },
    ...extra,
  });
  return { c, logs, commands };
}

/** A fake Machine (`machine`) and a started client on it (also the file's `client`), once the client's hello is on the first connection. */
async function startedClient(server: Parameters<typeof machineServer>[0] = {}, extra: Parameters<typeof makeClient>[1] = {}) {
  const s = await machineServer(server);
  const made = makeClient(s.url, extra);
  client = made.c;
  made.c.start();
  await s.until(() => s.conns[0]?.frames.length === 1);
  return { ...made, machine: s, conn: s.conns[0]! };
}

/** startedClient, welcomed (lastSeenUp 0), once the client says it is connected. */
async function connectedClient(extra: Parameters<typeof makeClient>[1] = {}) {
  const started = await startedClient({}, extra);
  send(started.conn.ws, { type: "welcome", machineId: "m1", lastSeenUp: 0 });
  await started.machine.until(() => started.c.status === "connected");
  return started;
}

describe("tunnel client", () => {
  it("builds the tunnel URL from the server URL (http→ws, https→wss, no token)", () => {
    expect(tunnelUrl("http://localhost:8787")).toBe(`ws://localhost:8787${TUNNEL_PATH}`);
    expect(tunnelUrl("https://baton.example.com/")).toBe(`wss://baton.example.com${TUNNEL_PATH}`);
    expect(tunnelUrl("https://example.com/team/")).toBe(`wss://example.com/team${TUNNEL_PATH}`);
  });

  it("says hello with the token in the header, numbers events, resends the unacked tail after a kill", async () => {
    const srv = await machineServer();
    const { c, logs } = makeClient(srv.url);
    client = c;
    c.send(ev(1)); // queued before connecting
    c.start();
    await srv.until(() => srv.conns.length === 1 && srv.conns[0]!.frames.length >= 1);
    const first = srv.conns[0]!;
    expect(first.headers[TUNNEL_TOKEN_HEADER]).toBe(TOKEN);
    expect(first.url).toBe(TUNNEL_PATH);
    const hello = first.frames[0]!;
    expect(hello).toMatchObject({ type: "hello", hostname: "test-host", lastSeenDown: 0, epoch: c.epoch });
    // nothing is sent before welcome
    await new Promise((r) => setTimeout(r, 50));
    expect(eventNs(first)).toEqual([]);
    send(first.ws, { type: "welcome", machineId: "m1", lastSeenUp: 0 });
    for (let i = 2; i <= 5; i++) c.send(ev(i));
    await srv.until(() => eventNs(first).length === 5);
    expect(eventNs(first)).toEqual([1, 2, 3, 4, 5]);
    send(first.ws, { type: "ack", n: 2 }); // 1–2 acked and dropped from the outbox
    await srv.until(() => c.pending === 3);

    // the server dies mid-stream; the daemon keeps producing meanwhile
    first.ws.terminate();
    for (let i = 6; i <= 8; i++) c.send(ev(i));
    await srv.until(() => srv.conns.length === 2 && srv.conns[1]!.frames.length >= 1);
    const second = srv.conns[1]!;
    expect(second.frames[0]).toMatchObject({ type: "hello", epoch: c.epoch });
    // welcome with 0: the acked 1–2 are gone from the outbox, so only 3… comes again
    send(second.ws, { type: "welcome", machineId: "m1", lastSeenUp: 0 });
    await srv.until(() => eventNs(second).length === 6);
    expect(eventNs(second)).toEqual([3, 4, 5, 6, 7, 8]);

    second.ws.terminate();
    await srv.until(() => srv.conns.length === 3 && srv.conns[2]!.frames.length >= 1);
    const third = srv.conns[2]!;
    // the machine had processed up to 6 (its acks were lost with the socket)
    send(third.ws, { type: "welcome", machineId: "m1", lastSeenUp: 6 });
    c.send(ev(9));
    await srv.until(() => eventNs(third).includes(9));
    expect(eventNs(third)).toEqual([7, 8, 9]);

    // after dedupe by n, the machine saw every event exactly once, in order
    const seen = new Map<number, DaemonEvent>();
    for (const conn of srv.conns) for (const f of conn.frames) if (f.type === "event" && !seen.has(f.n)) seen.set(f.n, f.event);
    expect([...seen.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect([...seen.values()].map((e) => (e.t === "session.update" ? (e.update.content as { text: string }).text : ""))).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `chunk ${i}`),
    );
    send(third.ws, { type: "ack", n: 9 });
    await srv.until(() => c.pending === 0);

    // A burst in one tick travels as batch frames, not one socket message per event.
    const before = third.messages;
    for (let i = 10; i < 110; i++) c.send(ev(i));
    await srv.until(() => eventNs(third).includes(109));
    expect(eventNs(third).slice(-100)).toEqual(Array.from({ length: 100 }, (_, i) => i + 10));
    expect(third.messages - before).toBeLessThanOrEqual(2);
    expect(logs.some((l) => l.includes("connected to ws://127.0.0.1"))).toBe(true);
    expect(logs.join("\n")).not.toContain(TOKEN);
  });

  it("hands each command over once (duplicates skipped) and acks all, reporting lastSeenDown on reconnect", async () => {
    const { commands, conn: first, machine } = await startedClient();
    send(first.ws, { type: "welcome", machineId: "m1", lastSeenUp: 0 });
    const cmd = (n: number) => ({ type: "command", n, command: { t: "cancel", sessionId: `s${n}` } });
    send(first.ws, cmd(1));
    send(first.ws, cmd(2));
    send(first.ws, cmd(2)); // a resend
    await machine.until(() => first.frames.filter((f) => f.type === "ack").length === 3);
    expect(first.frames.filter((f) => f.type === "ack").map((f) => (f as { n: number }).n)).toEqual([1, 2, 2]);
    expect(commands.map((x) => x.sessionId)).toEqual(["s1", "s2"]);

    first.ws.terminate();
    await machine.until(() => machine.conns[1]?.frames.length === 1);
    const second = machine.conns[1]!;
    expect(second.frames[0]).toMatchObject({ type: "hello", lastSeenDown: 2 });
    send(second.ws, { type: "welcome", machineId: "m1", lastSeenUp: 0 });
    send(second.ws, cmd(2));
    send(second.ws, cmd(3));
    await machine.until(() => second.frames.filter((f) => f.type === "ack").length === 2);
    expect(commands.map((x) => x.sessionId)).toEqual(["s1", "s2", "s3"]);
  });

  it("logs and ignores malformed frames, acks an unreadable numbered command, logs error frames", async () => {
    const invalid: string[] = [];
    const { c, logs, commands, conn, machine } = await startedClient({}, { onInvalidCommand: (_raw, reason) => invalid.push(reason) });
    const ws = conn.ws;
    send(ws, { type: "welcome", machineId: "m1", lastSeenUp: 0 });
    send(ws, "this is not json {");
    send(ws, { type: "bogus" });
    send(ws, { type: "ack", n: "x" });
    send(ws, "null");
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    send(ws, { type: "command", n: 1, command: { t: "explode", sessionId: "s1" } });
    send(ws, { type: "error", code: "BAD_FRAME", message: "hello first" });
    send(ws, { type: "command", n: 2, command: { t: "cancel", sessionId: "s2" } });
    await machine.until(() => machine.conns[0]!.frames.filter((f) => f.type === "ack").length === 2);
    expect(commands.map((x) => x.sessionId)).toEqual(["s2"]);
    expect(invalid).toHaveLength(1);
    expect(logs.filter((l) => l.includes("ignored")).length).toBeGreaterThanOrEqual(5);
    expect(logs.some((l) => l.includes("server error BAD_FRAME: hello first"))).toBe(true);
    expect(c.status).toBe("connected");
  });

  it("a 401 on upgrade is reported clearly and retried slowly, without crashing", async () => {
    const srv = await machineServer({ status: 401 });
    const statuses: string[] = [];
    const { c, logs } = makeClient(srv.url, { authRetryMs: 300, onStatus: (s) => statuses.push(s) });
    client = c;
    c.start();
    const t0 = Date.now();
    await srv.until(() => srv.upgrades >= 2);
    await new Promise((r) => setTimeout(r, 700));
    // Slow retries (~150–300 ms apart here), not a hot loop: bounded by the time it had, however loaded.
    expect(srv.upgrades).toBeLessThanOrEqual(2 + Math.ceil((Date.now() - t0) / 150));
    expect(c.status).toBe("unauthorized");
    // The slow retries do not flicker back to "connecting": it stays unauthorized until a welcome.
    expect(statuses.slice(statuses.indexOf("unauthorized"))).toEqual(["unauthorized"]);
    const authLines = logs.filter((l) => l.includes("rejected the machine token (HTTP 401)"));
    expect(authLines).toHaveLength(1); // said once, not on every retry
    expect(logs.join("\n")).not.toContain(TOKEN);
  });

  it("close code 4401 (token revoked) is reported once and retried slowly, without crashing", async () => {
    const { c, logs, machine } = await connectedClient({ authRetryMs: 300 });
    machine.conns[0]!.ws.close(4401, "token revoked");
    await machine.until(() => c.status === "unauthorized");
    machine.conns[1]?.ws.close(4401, "token revoked");
    await new Promise((r) => setTimeout(r, 100));
    expect(machine.conns.length).toBeLessThanOrEqual(2); // not a hot loop (backoff here is 20 ms)
    await machine.until(() => machine.conns.length >= 2, 2000);
    machine.conns[1]!.ws.close(4401, "token revoked");
    await new Promise((r) => setTimeout(r, 100));
    expect(logs.filter((l) => l.includes("token was revoked"))).toHaveLength(1);
    expect(logs.join("\n")).not.toContain(TOKEN);
  });

  it("an overloaded Machine (RATE_LIMITED, close 1013): logged, redialled with normal backoff, unacked events resent", async () => {
    const { c, logs, machine } = await connectedClient();
    for (let i = 1; i <= 5; i++) c.send(ev(i));
    await machine.until(() => eventNs(machine.conns[0]!).length > 0);
    sendFrame(machine.conns[0]!.ws, { type: "ack", n: 2 });
    sendFrame(machine.conns[0]!.ws, { type: "error", code: "RATE_LIMITED", message: "tunnel backlog full: reconnect and resend unacked events" });
    machine.conns[0]!.ws.close(1013, "tunnel backlog full");
    await machine.until(() => machine.conns[1]?.frames.length === 1, 2000); // hello on a new connection
    sendFrame(machine.conns[1]!.ws, { type: "welcome", machineId: "m1", lastSeenUp: 2 });
    await machine.until(() => eventNs(machine.conns[1]!).includes(5));
    expect(eventNs(machine.conns[1]!)).toEqual([3, 4, 5]);
    expect(c.status).toBe("connected");
    expect(logs.join("\n")).toContain("RATE_LIMITED");
  });

  it("keeps retrying while the server is down; events queued meanwhile arrive once it is back", async () => {
    const down = await machineServer();
    const port = Number(new URL(down.url).port);
    await down.close();
    const { c } = makeClient(`http://127.0.0.1:${port}`);
    client = c;
    c.start();
    c.send(ev(1));
    await new Promise((r) => setTimeout(r, 300));
    expect(c.status).not.toBe("connected");
    c.send(ev(2));
    const srv = await machineServer({ port });
    await srv.until(() => srv.conns[0]?.frames.length === 1, 3000);
    send(srv.conns[0]!.ws, { type: "welcome", machineId: "m1", lastSeenUp: 0 });
    await srv.until(() => eventNs(srv.conns[0]!).length === 2);
    expect(eventNs(srv.conns[0]!)).toEqual([1, 2]);
    await c.stop();
    expect(c.status).toBe("stopped");
  });

  it("heartbeat: a silent server (no pongs) is dropped and redialled; a healthy one is kept", async () => {
    const { c, logs, conn, machine: silent } = await startedClient({ autoPong: false }, { heartbeatMs: 40 });
    sendFrame(conn.ws, { type: "welcome", machineId: "m1", lastSeenUp: 0 });
    await silent.until(() => silent.conns.length >= 2, 2000);
    expect(logs.some((l) => l.includes("heartbeat lost"))).toBe(true);
    await c.stop();
    await silent.close();

    const healthy = await startedClient({}, { heartbeatMs: 40 });
    sendFrame(healthy.conn.ws, { type: "welcome", machineId: "m1", lastSeenUp: 0 });
    await new Promise((r) => setTimeout(r, 400));
    expect(healthy.machine.conns).toHaveLength(1);
    expect(healthy.c.status).toBe("connected");
  });

  it("while two frames wait for acks, events sent tick after tick coalesce into one frame sent on the next ack", async () => {
    const { c, conn, machine } = await connectedClient();
    const tick = () => new Promise((r) => setImmediate(r));
    c.send(ev(1));
    await machine.until(() => eventNs(conn).length === 1);
    c.send(ev(2));
    await machine.until(() => eventNs(conn).length === 2);
    const before = conn.messages;
    for (let i = 3; i <= 40; i++) {
      c.send(ev(i));
      await tick();
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(conn.messages).toBe(before); // window full: nothing more on the socket
    send(conn.ws, { type: "ack", n: 1 });
    await machine.until(() => eventNs(conn).length === 40);
    expect(eventNs(conn)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(conn.messages - before).toBe(1);
  });

  it("a frame that is never acked does not hold events back for good", async () => {
    const { c, conn, machine } = await connectedClient();
    c.send(ev(1));
    await machine.until(() => eventNs(conn).length === 1);
    c.send(ev(2));
    await machine.until(() => eventNs(conn).length === 2);
    c.send(ev(3)); // no acks ever: released after the stall timeout
    await machine.until(() => eventNs(conn).length === 3, 10_000);
    expect(eventNs(conn)).toEqual([1, 2, 3]);
  });
});
