// `baton login --user` and `baton attach` (issue 30 #1) against the real Worker, D1 and rooms: a user token is
// issued by the device flow, opens only the attach socket, carries the user's own role per session, and a
// revoked one is refused; a non-member and a deleted session are told apart.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TUNNEL_PROTOCOL_VERSION } from "../../shared/protocol-version";
import type { ServerFrame } from "../../shared/viewer-protocol";
import { framesOf } from "../../shared/fold";
import { createUserToken } from "../../worker/attach/user-tokens";
import { CLOSE_ACCESS_CHANGED } from "../../worker/session-room/viewer-sockets";
import { upsertUser } from "../../worker/d1-directory";
import { api, ORIGIN, setupSession, text, waitFor } from "./harness";

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});
const signInRequest = { hostname: "laptop", os: "linux x64", agents: [], daemonVersion: "0.2.0", protocolVersion: TUNNEL_PROTOCOL_VERSION, kind: "user" };

/** The whole `baton login --user` flow as the dev user: code, approval in the browser, the terminal's poll. */
async function signIn(ip: string): Promise<{ token: string; user: { email: string } }> {
  const code = await api<{ deviceCode: string; userCode: string }>("/api/device/code", json(signInRequest, { "CF-Connecting-IP": ip }));
  expect(code.status).toBe(201);
  const view = await api(`/api/device/approvals/${code.body.userCode}`);
  expect(view.body.approval.kind).toBe("user");
  expect((await api(`/api/device/approvals/${code.body.userCode}`, json({ decision: "approve" }))).status).toBe(200);
  const got = await api<{ token: string; user: { email: string } }>("/api/device/token", json({ deviceCode: code.body.deviceCode }));
  expect(got.status).toBe(200);
  return got.body;
}

type Attached = { status: number; body: unknown; frames: ServerFrame[]; ws: WebSocket | null };
async function attach(sessionId: string, token: string | null): Promise<Attached> {
  const headers: Record<string, string> = { Upgrade: "websocket" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await exports.default.fetch(`${ORIGIN}/api/sessions/${sessionId}/attach?after=0`, { headers });
  if (res.status !== 101) return { status: res.status, body: await res.json(), frames: [], ws: null };
  const ws = res.webSocket!;
  ws.accept();
  const frames: ServerFrame[] = [];
  ws.addEventListener("message", (e) => void frames.push(...framesOf(JSON.parse(e.data as string) as ServerFrame)));
  await waitFor(() => frames.some((f) => f.type === "ready"), "ready");
  return { status: 101, body: null, frames, ws };
}
async function op(a: Attached, frame: Record<string, unknown>) {
  const rid = crypto.randomUUID();
  a.ws!.send(JSON.stringify({ ...frame, rid }));
  return waitFor(() => a.frames.find((f) => (f.type === "ack" || f.type === "error") && f.rid === rid), "reply");
}
const welcome = (a: Attached) => a.frames.find((f) => f.type === "welcome");

describe("user tokens", () => {
  it("issued by the device flow; attaches as the user (owner); listed; revoked → refused", async () => {
    const { sessionId } = await setupSession();
    const { token, user } = await signIn("10.9.0.1");
    expect(token).toMatch(/^bu_/);
    expect(user.email).toBe("dev@localhost");
    // Only its hash is stored.
    const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM user_tokens WHERE token_hash = ?").bind(token).first<{ n: number }>();
    expect(row?.n).toBe(0);

    const a = await attach(sessionId, token);
    expect(a.status).toBe(101);
    expect(welcome(a)).toMatchObject({ viewer: { role: "owner" } });
    expect(await op(a, { op: "message.send", id: "from-editor", blocks: text("hi") })).toMatchObject({ type: "ack" });
    let closedWith: number | null = null;
    a.ws!.addEventListener("close", (e) => void (closedWith = e.code));

    const listed = await api<{ tokens: { id: string; name: string; lastUsedAt: number | null }[] }>("/api/user-tokens");
    const mine = listed.body.tokens.find((t) => t.name === "laptop" && t.lastUsedAt !== null)!;
    expect(mine).toBeTruthy();
    const revoked = await api<{ tokens: { id: string }[] }>(`/api/user-tokens/${mine.id}`, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(revoked.body.tokens.map((t) => t.id)).not.toContain(mine.id);
    // The open socket of that sign-in is closed at once (as when access changes), not at its next reconnect.
    await waitFor(() => closedWith !== null, "the attached socket closes");
    expect(closedWith).toBe(CLOSE_ACCESS_CHANGED);
    const after = await attach(sessionId, token);
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: { code: "BAD_TOKEN", message: expect.stringContaining("baton login --user") } });
    // Revoking twice, or someone else's id, finds nothing.
    expect((await api(`/api/user-tokens/${mine.id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("the attach route wants a WebSocket upgrade and a user token: a machine token or none is refused", async () => {
    const { sessionId } = await setupSession();
    const { token } = await signIn("10.9.0.2");
    const plain = await exports.default.fetch(`${ORIGIN}/api/sessions/${sessionId}/attach`, { headers: { Authorization: `Bearer ${token}` } });
    expect(plain.status).toBe(426);
    const machineToken = await attach(sessionId, "bt_a-machine-token");
    expect(machineToken.status).toBe(401);
    expect((await attach(sessionId, null)).status).toBe(401);
  });

  it("the user's own role: a viewer-only member attaches and only watches; a non-member and a deleted session are told apart", async () => {
    const { sessionId } = await setupSession();
    const viewer = await upsertUser(env.DB, "watcher@example.com", "Watcher");
    const stranger = await upsertUser(env.DB, "stranger@example.com", "Stranger");
    expect((await api(`/api/sessions/${sessionId}/members`, json({ email: "watcher@example.com", role: "viewer" }))).status).toBe(201);
    const { token: viewerToken } = await createUserToken(env.DB, viewer.id, "watcher's laptop", Date.now());
    const { token: strangerToken } = await createUserToken(env.DB, stranger.id, "elsewhere", Date.now());

    const w = await attach(sessionId, viewerToken);
    expect(welcome(w)).toMatchObject({ viewer: { id: viewer.id, role: "viewer" } });
    expect(await op(w, { op: "message.send", id: "nope", blocks: text("let me in") })).toMatchObject({ type: "error", code: "FORBIDDEN" });
    expect(await op(w, { op: "turn.cancel" })).toMatchObject({ type: "error", code: "FORBIDDEN" });
    expect(await op(w, { op: "mode.set", modeId: "ask" })).toMatchObject({ type: "error", code: "FORBIDDEN" });
    w.ws!.close();

    const s = await attach(sessionId, strangerToken);
    expect(s.status).toBe(403);
    expect(s.body).toMatchObject({ error: { code: "NOT_A_MEMBER", message: expect.stringContaining("stranger@example.com") } });

    expect((await api(`/api/sessions/${sessionId}`, { method: "DELETE" })).status).toBe(200);
    const gone = await attach(sessionId, viewerToken);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: { code: "NOT_FOUND", message: expect.stringContaining("deleted") } });
  });

  it("someone else's sign-in cannot be listed or revoked", async () => {
    const other = await upsertUser(env.DB, "other@example.com", "Other");
    const { id } = await createUserToken(env.DB, other.id, "theirs", Date.now());
    expect((await api<{ tokens: { id: string }[] }>("/api/user-tokens")).body.tokens.map((t) => t.id)).not.toContain(id);
    expect((await api(`/api/user-tokens/${id}`, { method: "DELETE" })).status).toBe(404);
  });
});
