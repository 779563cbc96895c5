// The daemon's side of protocol versioning: its hello carries TUNNEL_PROTOCOL_VERSION, and a refusal
// (close 4426) is reported once with the upgrade command and retried slowly, never in a tight loop.
import { afterEach, describe, expect, it } from "vitest";
import { makeLogger } from "../../daemon/src/log";
import { createTunnelClient, type TunnelClient } from "../../daemon/src/tunnel/tunnel-client";
import { CLOSE_UPGRADE_REQUIRED, TUNNEL_PROTOCOL_VERSION, upgradeCommand } from "../../shared/protocol-version";
import { sendFrame, useMachineServers } from "./fake-machine";

const machineServer = useMachineServers();
let client: TunnelClient | null = null;
afterEach(async () => {
  await client?.stop();
  client = null;
});

describe("tunnel protocol version (daemon side)", () => {
  it("hello carries the protocol version; a 4426 refusal is said once and retried slowly", async () => {
    const srv = await machineServer();
    const logs: string[] = [];
    const statuses: string[] = [];
    const c = createTunnelClient({
      server: srv.url,
      token: "t",
      hello: () => ({ version: "0.1.0", hostname: "h", agents: [], roots: ["/tmp"], sessions: [] }),
      onCommand: () => {},
      onStatus: (s) => statuses.push(s),
      log: makeLogger({ sink: (level, line) => logs.push(`${level} ${line}`), secrets: [] }),
      backoff: { baseMs: 10, maxMs: 20 },
      authRetryMs: 400,
    });
    client = c;
    c.start();
    await srv.until(() => srv.conns[0]?.frames.length === 1);
    expect(srv.conns[0]!.frames[0]).toMatchObject({ type: "hello", protocolVersion: TUNNEL_PROTOCOL_VERSION });
    // What the Machine does with an incompatible daemon: an error frame, then close 4426.
    sendFrame(srv.conns[0]!.ws, { type: "error", code: "UPGRADE_REQUIRED", message: `too old. Upgrade the daemon: ${upgradeCommand}` });
    srv.conns[0]!.ws.close(CLOSE_UPGRADE_REQUIRED, `upgrade the daemon: ${upgradeCommand}`);
    const t0 = Date.now();
    await srv.until(() => c.status === "incompatible");
    await srv.until(() => srv.conns.length === 2 && srv.conns[1]!.frames.length === 1, 3000);
    // The normal backoff here is 10–20 ms; the redial waited for the slow retry (400 ms, jittered to ≥ 200 ms).
    expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
    srv.conns[1]!.ws.close(CLOSE_UPGRADE_REQUIRED, `upgrade the daemon: ${upgradeCommand}`);
    await new Promise((r) => setTimeout(r, 100));
    const refusals = logs.filter((l) => l.includes("the server refused this daemon"));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain(upgradeCommand);
    expect(statuses.slice(statuses.indexOf("incompatible"))).toEqual(["incompatible"]);
  });
});
