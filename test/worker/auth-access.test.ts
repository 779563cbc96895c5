/**
 * AUTH_MODE=access: identity from a verified Cloudflare Access JWT on every route and socket;
 * session membership and roles (owner / member / viewer); CSRF and Origin guards; machine revocation.
 */
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { TUNNEL_TOKEN_HEADER } from "../../shared/tunnel-protocol";
import { accessJwt, asUser, AuthedViewer, AUD, call, forgedJwt } from "./auth-harness";
import { ORIGIN, TestDaemon, text, waitFor } from "./harness";

const OWNER = "owner@example.com";
const BOB = "bob@example.com";
const CAROL = "carol@example.com";

async function pairAndStart(owner = OWNER) {
  const h = await asUser(owner);
  const pair = await call<{ machine: { id: string }; token: string; command: string }>("/api/machines", { method: "POST", headers: h, body: JSON.stringify({ name: "laptop" }) });
  expect(pair.status).toBe(201);
  expect(pair.body.command).toContain(`--token ${pair.body.token}`);
  const daemon = new TestDaemon(pair.body.token);
  await daemon.connect();
  const created = await call<{ session: { id: string } }>("/api/sessions", {
    method: "POST",
    headers: h,
    body: JSON.stringify({ machineId: pair.body.machine.id, agentId: "demo", cwd: "/work" }),
  });
  expect(created.status).toBe(201);
  const sessionId = created.body.session.id;
  await waitFor(() => daemon.of("session.open").some((c) => c.sessionId === sessionId), "session.open");
  await daemon.settle();
  return { machineId: pair.body.machine.id, token: pair.body.token, daemon, sessionId };
}

describe("Access JWT verification", () => {
  it("accepts a genuine token and maps it to a user", async () => {
    const me = await call<{ email: string; authMode: string }>("/api/me", { headers: await asUser("Dana@Example.com") });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: "dana@example.com", authMode: "access" });
  });

  it("refuses missing, forged, expired, wrong-audience and wrong-issuer tokens on every route and the socket", async () => {
    const { sessionId, machineId } = await pairAndStart();
    const bad: Record<string, Record<string, string>> = {
      missing: {},
      garbage: { "Cf-Access-Jwt-Assertion": "not.a.jwt" },
      forged: { "Cf-Access-Jwt-Assertion": await forgedJwt(OWNER) },
      expired: { "Cf-Access-Jwt-Assertion": await accessJwt({ email: OWNER, expSecondsFromNow: -3600 }) },
      wrongAudience: { "Cf-Access-Jwt-Assertion": await accessJwt({ email: OWNER, aud: `${AUD}-other` }) },
      wrongIssuer: { "Cf-Access-Jwt-Assertion": await accessJwt({ email: OWNER, iss: "https://evil.cloudflareaccess.com" }) },
    };
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/me"],
      ["GET", "/api/machines"],
      ["POST", "/api/machines", { name: "x" }],
      ["DELETE", `/api/machines/${machineId}`],
      ["GET", "/api/sessions"],
      ["POST", "/api/sessions", { machineId, agentId: "demo", cwd: "/work" }],
      ["GET", `/api/sessions/${sessionId}`],
      ["GET", `/api/sessions/${sessionId}/members`],
      ["POST", `/api/sessions/${sessionId}/members`, { email: BOB, role: "member" }],
      ["PATCH", `/api/sessions/${sessionId}/members/someone`, { role: "viewer" }],
      ["DELETE", `/api/sessions/${sessionId}/members/someone`],
    ];
    for (const [label, headers] of Object.entries(bad)) {
      for (const [method, path, body] of routes) {
        const r = await call(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        expect(r.status, `${label} ${method} ${path}`).toBe(401);
      }
      const ws = await AuthedViewer.upgrade(sessionId, headers);
      expect(ws.status, `${label} socket`).toBe(401);
      expect(ws.webSocket).toBeNull();
    }
    // The machine survived all of that: nothing was revoked by an unauthenticated DELETE.
    const list = await call<{ machines: { id: string; online: boolean }[] }>("/api/machines", { headers: await asUser(OWNER) });
    expect(list.body.machines.find((m) => m.id === machineId)?.online).toBe(true);
  });
});

describe("membership and roles", () => {
  let s: Awaited<ReturnType<typeof pairAndStart>>;
  beforeAll(async () => {
    s = await pairAndStart();
  });

  it("a non-member gets 404 on the session, its members and its socket, and does not see it listed", async () => {
    const h = await asUser(CAROL);
    expect((await call(`/api/sessions/${s.sessionId}`, { headers: h })).status).toBe(404);
    expect((await call(`/api/sessions/${s.sessionId}/members`, { headers: h })).status).toBe(404);
    expect((await AuthedViewer.upgrade(s.sessionId, h)).status).toBe(404);
    const list = await call<{ sessions: { id: string }[] }>("/api/sessions", { headers: h });
    expect(list.body.sessions.map((x) => x.id)).not.toContain(s.sessionId);
    // Nor can they use, revoke or manage the owner's machine / members.
    expect((await call(`/api/machines/${s.machineId}`, { method: "DELETE", headers: h })).status).toBe(404);
    expect((await call("/api/sessions", { method: "POST", headers: h, body: JSON.stringify({ machineId: s.machineId, agentId: "demo", cwd: "/w" }) })).status).toBe(404);
    expect((await call(`/api/sessions/${s.sessionId}/members`, { method: "POST", headers: h, body: JSON.stringify({ email: CAROL, role: "member" }) })).status).toBe(404);
  });

  it("a viewer is read-only: send, queue ops, stop, approvals, config and settings are refused in the room", async () => {
    const owner = await asUser(OWNER);
    const add = await call(`/api/sessions/${s.sessionId}/members`, { method: "POST", headers: owner, body: JSON.stringify({ email: BOB, role: "viewer" }) });
    expect(add.status).toBe(201);
    const bob = await AuthedViewer.open(s.sessionId, await asUser(BOB));
    expect(bob.welcome()?.viewer.role).toBe("viewer");
    const prompts = s.daemon.prompts(s.sessionId).length;
    const ops = [
      { op: "message.send", id: "v-send-1", blocks: text("hi") },
      { op: "queue.cancel", id: "q1" },
      { op: "queue.edit", id: "q1", blocks: text("x") },
      { op: "queue.move", id: "q1", before: null },
      { op: "queue.steer", id: "q1" },
      { op: "turn.cancel" },
      { op: "config.set", configId: "model", value: "smart" },
      { op: "mode.set", modeId: "ask" },
      { op: "model.set", modelId: "smart" },
      { op: "permission.respond", requestId: "p1", optionId: "allow" },
      { op: "elicitation.respond", requestId: "e1", action: "decline" },
      { op: "settings.set", queueDepth: 4 },
    ];
    for (const op of ops) {
      const r = await bob.op(op);
      expect(r, String(op.op)).toMatchObject({ type: "error", code: "FORBIDDEN" });
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(s.daemon.prompts(s.sessionId).length).toBe(prompts);
    expect(s.daemon.of("config.set").length + s.daemon.of("cancel").length).toBe(0);
    // A viewer cannot manage members either.
    const bobH = await asUser(BOB);
    expect((await call(`/api/sessions/${s.sessionId}/members`, { method: "POST", headers: bobH, body: JSON.stringify({ email: CAROL, role: "member" }) })).status).toBe(403);
    // But can read the session and its members.
    const members = await call<{ members: { email: string; role: string }[]; role: string }>(`/api/sessions/${s.sessionId}/members`, { headers: bobH });
    expect(members.status).toBe(200);
    expect(members.body.role).toBe("viewer");
    expect(members.body.members.map((m) => [m.email, m.role])).toEqual([
      [OWNER, "owner"],
      [BOB, "viewer"],
    ]);
    bob.close();
  });

  it("promotion closes the open socket; the reconnect carries the new role; removal locks the user out", async () => {
    const owner = await asUser(OWNER);
    const bobH = await asUser(BOB);
    const members = await call<{ members: { userId: string; email: string }[] }>(`/api/sessions/${s.sessionId}/members`, { headers: owner });
    const bobId = members.body.members.find((m) => m.email === BOB)!.userId;
    const before = await AuthedViewer.open(s.sessionId, bobH);
    const promote = await call(`/api/sessions/${s.sessionId}/members/${bobId}`, { method: "PATCH", headers: owner, body: JSON.stringify({ role: "member" }) });
    expect(promote.status).toBe(200);
    await waitFor(() => before.closed, "socket closed on role change");
    expect(before.closed!.code).toBe(4403);

    const member = await AuthedViewer.open(s.sessionId, bobH);
    expect(member.welcome()?.viewer.role).toBe("member");
    const sent = await member.op({ op: "message.send", id: "bob-send-1", blocks: text("from bob") });
    expect(sent).toMatchObject({ type: "ack" });
    await waitFor(() => s.daemon.prompts(s.sessionId).length > 0, "prompt forwarded");
    await s.daemon.finishTurn(s.sessionId);

    // Members cannot change roles or remove the owner.
    expect((await call(`/api/sessions/${s.sessionId}/members/${bobId}`, { method: "PATCH", headers: bobH, body: JSON.stringify({ role: "member" }) })).status).toBe(403);
    const ownerId = members.body.members.find((m) => m.email === OWNER)!.userId;
    expect((await call(`/api/sessions/${s.sessionId}/members/${ownerId}`, { method: "DELETE", headers: owner })).status).toBe(400);
    // Only grantable roles.
    expect((await call(`/api/sessions/${s.sessionId}/members`, { method: "POST", headers: owner, body: JSON.stringify({ email: CAROL, role: "owner" }) })).status).toBe(400);

    const remove = await call(`/api/sessions/${s.sessionId}/members/${bobId}`, { method: "DELETE", headers: owner });
    expect(remove.status).toBe(200);
    await waitFor(() => member.closed, "socket closed on removal");
    expect((await AuthedViewer.upgrade(s.sessionId, bobH)).status).toBe(404);
    expect((await call(`/api/sessions/${s.sessionId}`, { headers: bobH })).status).toBe(404);
  });
});

describe("CSRF and Origin", () => {
  it("refuses writes without our Origin and sockets from a foreign Origin", async () => {
    const { sessionId } = await pairAndStart();
    const h = await asUser(OWNER);
    expect((await call("/api/machines", { method: "POST", headers: { ...h, Origin: "https://evil.example" }, body: "{}" })).status).toBe(403);
    expect((await call("/api/machines", { method: "POST", headers: { ...h, Origin: "" }, body: "{}" })).status).toBe(403);
    expect((await call("/api/machines", { method: "POST", headers: h, body: "{}" })).status).toBe(201);
    const foreign = await AuthedViewer.upgrade(sessionId, { ...h, Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const ok = await AuthedViewer.open(sessionId, h);
    expect(ok.welcome()?.viewer.role).toBe("owner");
    ok.close();
  });
});

describe("machine tokens", () => {
  it("revoking from the API closes the open tunnel at once and refuses the token afterwards", async () => {
    const s = await pairAndStart();
    let closed: number | null = null;
    s.daemon.ws.addEventListener("close", (e) => {
      closed = e.code;
    });
    const revoke = await call(`/api/machines/${s.machineId}`, { method: "DELETE", headers: await asUser(OWNER) });
    expect(revoke.status).toBe(200);
    await waitFor(() => closed, "tunnel closed");
    expect(closed).toBe(4401);
    const again = await exports.default.fetch(`${ORIGIN}/api/tunnel`, { headers: { Upgrade: "websocket", [TUNNEL_TOKEN_HEADER]: s.token } });
    expect(again.status).toBe(401);
    const list = await call<{ machines: { id: string }[] }>("/api/machines", { headers: await asUser(OWNER) });
    expect(list.body.machines.map((m) => m.id)).not.toContain(s.machineId);
  });
});
