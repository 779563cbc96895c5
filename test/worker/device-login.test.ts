// `baton login` against the real Worker and D1: device code → approval by a signed-in person → the
// daemon's poll mints the machine token once; expiry, denial, reuse, polling pace and rate limits;
// and the Machine refusing a daemon whose tunnel protocol is too old.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEVICE_CODES_PER_CLIENT_PER_HOUR } from "../../worker/device-auth-rules";
import { CLOSE_UPGRADE_REQUIRED, TUNNEL_PROTOCOL_VERSION, upgradeCommand } from "../../shared/protocol-version";
import { TUNNEL_TOKEN_HEADER, type MachineFrame } from "../../shared/tunnel-protocol";
import { api, ORIGIN, waitFor } from "./harness";

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

let ipSeq = 0;
/** Each test asks from its own address, so the per-client limit of one test does not leak into another. */
const newIp = () => `10.0.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

const daemonInfo = {
  hostname: "build-box",
  os: "linux x64",
  agents: [{ id: "demo", label: "Demo agent" }, { id: "gemini", label: "Gemini CLI", version: "0.61.0" }],
  daemonVersion: "0.2.0",
  protocolVersion: TUNNEL_PROTOCOL_VERSION,
};

type Code = { deviceCode: string; userCode: string; verificationUri: string; verificationUriComplete: string; expiresIn: number; interval: number };
type ApiErr = { error: { code: string; message: string; interval?: number } };

async function newCode(ip = newIp()) {
  const r = await api<Code>("/api/device/code", json(daemonInfo, { "CF-Connecting-IP": ip }));
  expect(r.status).toBe(201);
  return r.body;
}
const poll = (deviceCode: string) => api<{ token: string; machine: { id: string; name: string } } & ApiErr>("/api/device/token", json({ deviceCode }));
/** Each poll is the daemon's, at its interval: clear the pacing so a test need not wait 5 s between polls. */
const paced = (userCode: string) => env.DB.prepare("UPDATE device_codes SET last_poll_at = NULL WHERE user_code = ?").bind(userCode).run();
const decide = (userCode: string, decision: "approve" | "deny", name?: string) =>
  api(`/api/device/approvals/${encodeURIComponent(userCode)}`, json({ decision, name }));

describe("baton login: device codes", () => {
  it("code → pending → approved in the browser → the daemon's poll gets a working token, once", async () => {
    const code = await newCode();
    expect(code.userCode).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(code.verificationUri).toBe(`${ORIGIN}/machines/approve`);
    expect(code.verificationUriComplete).toBe(`${ORIGIN}/machines/approve?code=${code.userCode}`);
    expect(code.expiresIn).toBeGreaterThanOrEqual(60);
    expect(code.expiresIn).toBeLessThanOrEqual(15 * 60);
    expect(code.interval).toBe(5);

    const pending = await poll(code.deviceCode);
    expect(pending.status).toBe(400);
    expect(pending.body.error.code).toBe("authorization_pending");

    // What the Approve view shows; the code is found however it is typed.
    const view = await api(`/api/device/approvals/${code.userCode.toLowerCase().replace("-", "")}`);
    expect(view.status).toBe(200);
    expect(view.body.approval).toMatchObject({ userCode: code.userCode, hostname: "build-box", os: "linux x64", status: "pending", daemonVersion: "0.2.0" });
    expect(view.body.approval.agents.map((a: { id: string }) => a.id)).toEqual(["demo", "gemini"]);

    expect((await decide(code.userCode, "approve", "Build box")).status).toBe(200);
    await paced(code.userCode);
    const issued = await poll(code.deviceCode);
    expect(issued.status).toBe(200);
    expect(issued.body.token).toMatch(/^bt_/);
    expect(issued.body.machine.name).toBe("Build box");

    const check = await api("/api/tunnel/check", { headers: { [TUNNEL_TOKEN_HEADER]: issued.body.token } });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ machine: { id: issued.body.machine.id, name: "Build box" }, protocolVersion: TUNNEL_PROTOCOL_VERSION });
    const machines = await api<{ machines: { id: string }[] }>("/api/machines");
    expect(machines.body.machines.some((m) => m.id === issued.body.machine.id)).toBe(true);

    // Single use: the same device code never mints a second token, and the code cannot be approved again.
    await paced(code.userCode);
    const again = await poll(code.deviceCode);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("invalid_grant");
    const reapprove = await decide(code.userCode, "approve");
    expect(reapprove.status).toBe(409);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM machines WHERE name = 'Build box'").first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it("is bound to the requesting daemon: the user code (what the browser sees) fetches nothing", async () => {
    const code = await newCode();
    expect((await decide(code.userCode, "approve")).status).toBe(200);
    for (const guess of [code.userCode, code.userCode.replace("-", ""), `bd_${code.userCode}`]) {
      const r = await poll(guess);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("invalid_grant");
    }
    await paced(code.userCode);
    expect((await poll(code.deviceCode)).status).toBe(200);
  });

  it("denied → access_denied; a denied code cannot be approved afterwards", async () => {
    const code = await newCode();
    expect((await decide(code.userCode, "deny")).status).toBe(200);
    const r = await poll(code.deviceCode);
    expect(r.body.error.code).toBe("access_denied");
    expect(r.body.error.message).toMatch(/denied/);
    expect((await decide(code.userCode, "approve")).status).toBe(409);
  });

  it("expired → expired_token, even if it was approved; the Approve view says expired and refuses", async () => {
    const a = await newCode();
    const b = await newCode();
    expect((await decide(b.userCode, "approve")).status).toBe(200);
    // Time passes: both codes' expiry is now behind us.
    await env.DB.prepare("UPDATE device_codes SET expires_at = ? WHERE user_code IN (?, ?)").bind(Date.now() - 1, a.userCode, b.userCode).run();
    for (const c of [a, b]) {
      const r = await poll(c.deviceCode);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("expired_token");
      expect(r.body.error.message).toMatch(/baton login/);
    }
    expect((await api(`/api/device/approvals/${a.userCode}`)).body.approval.status).toBe("expired");
    const late = await decide(a.userCode, "approve");
    expect(late.status).toBe(409);
    expect(late.body.error.message).toMatch(/expired/);
  });

  it("polling faster than the interval gets slow_down with a longer interval", async () => {
    const code = await newCode();
    expect((await poll(code.deviceCode)).body.error.code).toBe("authorization_pending");
    const fast = await poll(code.deviceCode);
    expect(fast.body.error.code).toBe("slow_down");
    expect(fast.body.error.interval).toBe(10);
  });

  it("rate-limited per client address; another address still gets codes", async () => {
    const ip = newIp();
    for (let i = 0; i < DEVICE_CODES_PER_CLIENT_PER_HOUR; i++) await newCode(ip);
    const refused = await api<ApiErr>("/api/device/code", json(daemonInfo, { "CF-Connecting-IP": ip }));
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/per hour/);
    await newCode(newIp());
  });

  it("bad requests get a clear 400; a daemon with a too-old protocol is told to upgrade before any code", async () => {
    expect((await api("/api/device/code", json({ hostname: "" }))).status).toBe(400);
    expect((await api("/api/device/token", json({}))).status).toBe(400);
    const old = await api<ApiErr>("/api/device/code", json({ ...daemonInfo, protocolVersion: 0 }, { "CF-Connecting-IP": newIp() }));
    expect(old.status).toBe(426);
    expect(old.body.error.message).toContain(upgradeCommand);
    expect((await api("/api/device/approvals/ZZZZ-ZZZZ")).status).toBe(404);
    expect((await api("/api/tunnel/check", { headers: { [TUNNEL_TOKEN_HEADER]: "bt_nope" } })).status).toBe(401);
  });
});

describe("tunnel protocol version", () => {
  async function helloWith(protocolVersion: number | undefined) {
    const pair = await api<{ machine: { id: string }; token: string }>("/api/dev/pair", { method: "POST", body: "{}" });
    const res = await exports.default.fetch(`${ORIGIN}/api/tunnel`, { headers: { Upgrade: "websocket", [TUNNEL_TOKEN_HEADER]: pair.body.token } });
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    ws.accept();
    const frames: MachineFrame[] = [];
    let closed: { code: number; reason: string } | null = null;
    ws.addEventListener("message", (e) => {
      frames.push(JSON.parse(e.data as string) as MachineFrame);
    });
    ws.addEventListener("close", (e) => void (closed = { code: e.code, reason: e.reason }));
    ws.send(
      JSON.stringify({
        type: "hello",
        epoch: crypto.randomUUID(),
        version: "0.0.9",
        ...(protocolVersion === undefined ? {} : { protocolVersion }),
        hostname: "old-box",
        agents: [],
        roots: ["/work"],
        sessions: [],
        lastSeenDown: 0,
      }),
    );
    return { machineId: pair.body.machine.id, frames, ws, closed: () => closed };
  }

  it("a daemon from before versioning is refused with the upgrade command, and the Machines page learns its version", async () => {
    const t = await helloWith(undefined);
    const close = await waitFor(() => t.closed(), "close");
    expect(close.code).toBe(CLOSE_UPGRADE_REQUIRED);
    expect(close.reason).toContain(upgradeCommand);
    const err = t.frames.find((f) => f.type === "error");
    expect(err).toMatchObject({ type: "error", code: "UPGRADE_REQUIRED" });
    expect(t.frames.some((f) => f.type === "welcome")).toBe(false);
    const m = (await api<{ machines: { id: string; online: boolean; daemonVersion: string | null; protocolVersion: number | null }[] }>("/api/machines")).body.machines.find(
      (x) => x.id === t.machineId,
    );
    expect(m).toMatchObject({ online: false, daemonVersion: "0.0.9", protocolVersion: 0 });
  });

  it("a daemon newer than the server is refused too (pointing at the server); the current one is welcomed", async () => {
    const newer = await helloWith(TUNNEL_PROTOCOL_VERSION + 1);
    expect((await waitFor(() => newer.closed(), "close")).code).toBe(CLOSE_UPGRADE_REQUIRED);
    expect(newer.frames.find((f) => f.type === "error")).toMatchObject({ code: "UPGRADE_REQUIRED" });
    const current = await helloWith(TUNNEL_PROTOCOL_VERSION);
    await waitFor(() => current.frames.some((f) => f.type === "welcome"), "welcome");
    expect(current.closed()).toBeNull();
    current.ws.close();
  });
});
