/**
 * `baton login --user` / `baton attach` under built-in sign-in (issue 30 #1): a guest (an invited-only account)
 * may approve its own sign-in and attach to the sessions it was given, not pair a machine; a user token is no
 * sign-in for the rest of the API.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TUNNEL_PROTOCOL_VERSION } from "../../shared/protocol-version";
import type { ServerFrame } from "../../shared/viewer-protocol";
import { call, signInByCode } from "./auth-harness";
import { ORIGIN, TestDaemon, waitFor } from "./harness";

let clientNo = 0;

const signIn = (email: string) => signInByCode(email, "198.51.100");

const deviceCode = async (kind: "user" | "machine") =>
  (
    await call<{ deviceCode: string; userCode: string }>("/api/device/code", {
      method: "POST",
      headers: { "CF-Connecting-IP": `192.0.2.${++clientNo}` },
      body: JSON.stringify({ hostname: "gwen-laptop", os: "linux", agents: [], daemonVersion: "0.2.0", protocolVersion: TUNNEL_PROTOCOL_VERSION, kind }),
    })
  ).body;

describe("baton attach for a guest", () => {
  it("a guest approves its own sign-in and attaches to its session with its role; it cannot approve a machine; the token signs nothing else in", async () => {
    const alice = await signIn("alice@example.com");
    const pair = await call<{ machine: { id: string }; token: string }>("/api/machines", { method: "POST", headers: alice, body: "{}" });
    const daemon = new TestDaemon(pair.body.token);
    await daemon.connect();
    const s = await call<{ session: { id: string } }>("/api/sessions", { method: "POST", headers: alice, body: JSON.stringify({ machineId: pair.body.machine.id, agentId: "demo", cwd: "/work" }) });
    const sessionId = s.body.session.id;
    expect((await call(`/api/sessions/${sessionId}/members`, { method: "POST", headers: alice, body: JSON.stringify({ email: "gwen@elsewhere.example", role: "viewer" }) })).status).toBe(201);
    const guest = await signIn("gwen@elsewhere.example");

    // A machine's code: not for a guest.
    const machine = await deviceCode("machine");
    expect(await call(`/api/device/approvals/${machine.userCode}`, { headers: guest })).toMatchObject({ status: 403, body: { error: { code: "GUEST_ACCOUNT" } } });
    expect(await call(`/api/device/approvals/${machine.userCode}`, { method: "POST", headers: guest, body: JSON.stringify({ decision: "approve" }) })).toMatchObject({
      status: 403,
      body: { error: { code: "GUEST_ACCOUNT" } },
    });

    // Its own sign-in: approved, and the token attaches with the guest's role there (a viewer).
    const user = await deviceCode("user");
    expect((await call(`/api/device/approvals/${user.userCode}`, { headers: guest })).body.approval.kind).toBe("user");
    expect((await call(`/api/device/approvals/${user.userCode}`, { method: "POST", headers: guest, body: JSON.stringify({ decision: "approve" }) })).status).toBe(200);
    const got = await call<{ token: string; user: { email: string } }>("/api/device/token", { method: "POST", body: JSON.stringify({ deviceCode: user.deviceCode }) });
    expect(got.body.user.email).toBe("gwen@elsewhere.example");
    const token = got.body.token;
    const res = await exports.default.fetch(`${ORIGIN}/api/sessions/${sessionId}/attach?after=0`, { headers: { Upgrade: "websocket", Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    ws.accept();
    const frames: ServerFrame[] = [];
    ws.addEventListener("message", (e) => void frames.push(JSON.parse(e.data as string) as ServerFrame));
    await waitFor(() => frames.find((f) => f.type === "welcome"), "welcome");
    expect(frames.find((f) => f.type === "welcome")).toMatchObject({ viewer: { role: "viewer" } });

    // The token is no browser sign-in: the API and the member socket do not take it.
    const bearer = { Authorization: `Bearer ${token}` };
    expect((await call("/api/me", { headers: bearer })).status).toBe(401);
    expect((await call(`/api/sessions/${sessionId}`, { headers: bearer })).status).toBe(401);
    const member = await exports.default.fetch(`${ORIGIN}/api/sessions/${sessionId}/ws?after=0`, { headers: { Upgrade: "websocket", Origin: ORIGIN, ...bearer } });
    expect(member.status).toBe(401);

    ws.close();
  });
});
