/**
 * Read-only share links (issue 30 #3) under AUTH_MODE=access, where "anonymous" is real (no Access JWT): the
 * link's scope (signed in vs anyone), expiry (new joins refused, open sockets closed within a second),
 * revoke (sockets closed now), every mutating op refused for a spectator (the op names come from the
 * protocol), owner-only management, tokens stored hashed, wrong tokens and deleted sessions refused.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { CLOSE_SHARE_ENDED } from "../../shared/close-codes";
import { SHARE_PROTOCOL } from "../../shared/share-socket";
import type { CreatedShareLink, OpenedShare, ShareLinksReply } from "../../shared/share-api";
import { ClientOp, type ClientOpName, type ServerFrame } from "../../shared/viewer-protocol";
import { asUser, AuthedViewer, call } from "./auth-harness";
import { ORIGIN, TestDaemon, waitFor } from "./harness";

const OWNER = "share-owner@example.com";
const MEMBER = "share-member@example.com";
const VIEWER = "share-viewer@example.com";
const STRANGER = "share-stranger@example.com";

async function pairAndStart() {
  const h = await asUser(OWNER);
  const pair = await call<{ machine: { id: string }; token: string }>("/api/machines", { method: "POST", headers: h, body: JSON.stringify({ name: "laptop" }) });
  const daemon = new TestDaemon(pair.body.token);
  await daemon.connect();
  const created = await call<{ session: { id: string } }>("/api/sessions", { method: "POST", headers: h, body: JSON.stringify({ machineId: pair.body.machine.id, agentId: "demo", cwd: "/work" }) });
  expect(created.status).toBe(201);
  const sessionId = created.body.session.id;
  await waitFor(() => daemon.of("session.open").some((c) => c.sessionId === sessionId), "session.open");
  await daemon.settle();
  return { daemon, sessionId };
}

async function createLink(sessionId: string, body: Record<string, unknown>, who = OWNER) {
  return call<CreatedShareLink>(`/api/sessions/${sessionId}/share-links`, { method: "POST", headers: await asUser(who), body: JSON.stringify(body) });
}
const tokenOf = (url: string) => new URL(url).hash.slice(1);

/** A spectator's socket: the token in Sec-WebSocket-Protocol, optionally signed in (a viewer socket otherwise). */
class Spectator extends AuthedViewer {
  static override upgrade(token: string, headers: Record<string, string> = {}) {
    return exports.default.fetch(`${ORIGIN}/api/share/ws?after=0`, {
      headers: { Upgrade: "websocket", Origin: ORIGIN, "Sec-WebSocket-Protocol": `${SHARE_PROTOCOL}, ${token}`, ...headers },
    });
  }
  static override async open(token: string, headers: Record<string, string> = {}) {
    const res = await Spectator.upgrade(token, headers);
    expect(res.status).toBe(101);
    expect(res.headers.get("Sec-WebSocket-Protocol")).toBe(SHARE_PROTOCOL);
    res.webSocket!.accept();
    const s = new Spectator(res.webSocket!);
    await waitFor(() => s.frames.some((f) => f.type === "ready"), "spectator ready");
    return s;
  }
  texts() {
    return this.frames.flatMap((f) => (f.type === "event" ? [f.event] : f.type === "snapshot" ? f.events : [])).flatMap((e) => {
      if (e.kind === "user_message") return e.blocks.flatMap((b) => (b.type === "text" ? [b.text] : []));
      const u = e.kind === "acp" ? (e.update as { sessionUpdate?: string; content?: { text?: string } }) : null;
      return u?.sessionUpdate === "agent_message_chunk" && u.content?.text ? [u.content.text] : [];
    });
  }
}

async function refusal(token: string, headers: Record<string, string> = {}) {
  const res = await Spectator.upgrade(token, headers);
  const body = (await res.json()) as { error: { code: string; message: string } };
  const open = await call<{ error: { code: string; message: string } }>("/api/share/open", { method: "POST", headers, body: JSON.stringify({ token }) });
  expect(open.body.error).toEqual(body.error);
  expect(res.webSocket).toBeNull();
  return { status: res.status, ...body.error };
}

describe("share links", () => {
  let s: Awaited<ReturnType<typeof pairAndStart>>;
  beforeAll(async () => {
    s = await pairAndStart();
    const owner = await asUser(OWNER);
    for (const [email, role] of [[MEMBER, "member"], [VIEWER, "viewer"]] as const)
      expect((await call(`/api/sessions/${s.sessionId}/members`, { method: "POST", headers: owner, body: JSON.stringify({ email, role }) })).status).toBe(201);
  });

  it("only the owner creates, lists and revokes links; strangers do not learn the session exists", async () => {
    const made = await createLink(s.sessionId, { expiry: "1d" });
    expect(made.status).toBe(201);
    expect(made.body.link.scope).toBe("signed_in"); // the default
    for (const who of [MEMBER, VIEWER]) {
      const h = await asUser(who);
      expect((await createLink(s.sessionId, { expiry: "1h" }, who)).status, who).toBe(403);
      expect((await call(`/api/sessions/${s.sessionId}/share-links`, { headers: h })).status, who).toBe(403);
      expect((await call(`/api/sessions/${s.sessionId}/share-links/${made.body.link.id}`, { method: "DELETE", headers: h })).status, who).toBe(403);
    }
    const stranger = await asUser(STRANGER);
    expect((await createLink(s.sessionId, { expiry: "1h" }, STRANGER)).status).toBe(404);
    expect((await call(`/api/sessions/${s.sessionId}/share-links`, { headers: stranger })).status).toBe(404);
    expect((await call(`/api/sessions/${s.sessionId}/share-links/${made.body.link.id}`, { method: "DELETE", headers: stranger })).status).toBe(404);
    // Anonymous callers cannot manage either.
    expect((await call(`/api/sessions/${s.sessionId}/share-links`, { method: "POST", body: JSON.stringify({ expiry: "1h" }) })).status).toBe(401);
    // Still active: none of that revoked it.
    const list = await call<ShareLinksReply>(`/api/sessions/${s.sessionId}/share-links`, { headers: await asUser(OWNER) });
    expect(list.body.links.map((l) => l.id)).toContain(made.body.link.id);
  });

  it("bad create bodies are refused with a sentence; nothing is stored", async () => {
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM share_links").first<{ n: number }>();
    for (const body of [{}, { expiry: "2h" }, { expiry: "1h", scope: "everyone" }, null])
      expect((await createLink(s.sessionId, body ?? {})).body).toMatchObject({ error: { code: "BAD_REQUEST" } });
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM share_links").first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
  });

  it("stores the token hashed: the D1 row holds its SHA-256, never the token; tokens carry 256 bits", async () => {
    const made = await createLink(s.sessionId, { expiry: "7d", scope: "anyone" });
    const token = tokenOf(made.body.url);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    const row = await env.DB.prepare("SELECT * FROM share_links WHERE id = ?").bind(made.body.link.id).first<Record<string, unknown>>();
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
    expect(row!.token_hash).toBe([...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join(""));
    expect(Object.values(row!).some((v) => typeof v === "string" && v.includes(token))).toBe(false);
    const dump = await env.DB.prepare("SELECT * FROM share_links").all();
    expect(JSON.stringify(dump.results)).not.toContain(token);
    // The list never carries a token or a URL.
    const list = await call(`/api/sessions/${s.sessionId}/share-links`, { headers: await asUser(OWNER) });
    expect(JSON.stringify(list.body)).not.toContain(token);
    // Two links never share a token.
    expect(tokenOf((await createLink(s.sessionId, { expiry: "7d" })).body.url)).not.toBe(token);
  });

  it("scope: a signed-in-only link asks an anonymous caller to sign in; an anyone link admits them", async () => {
    const signedIn = tokenOf((await createLink(s.sessionId, { expiry: "1h", scope: "signed_in" })).body.url);
    expect(await refusal(signedIn)).toMatchObject({ status: 401, code: "SHARE_SIGN_IN_REQUIRED", message: expect.stringMatching(/Sign in/) });
    const stranger = await Spectator.open(signedIn, await asUser(STRANGER));
    expect(stranger.welcome()?.viewer).toMatchObject({ role: "viewer", name: expect.any(String) });
    const opened = await call<OpenedShare>("/api/share/open", { headers: await asUser(STRANGER), method: "POST", body: JSON.stringify({ token: signedIn }) });
    expect(opened.body).toMatchObject({ sessionId: s.sessionId, scope: "signed_in" });

    const anyone = tokenOf((await createLink(s.sessionId, { expiry: "1h", scope: "anyone" })).body.url);
    const anon = await Spectator.open(anyone);
    expect(anon.welcome()?.viewer).toMatchObject({ role: "viewer", name: "Spectator" });
    // A spectator follows a turn live: the owner's message and the agent's answer arrive.
    const owner = await AuthedViewer.open(s.sessionId, await asUser(OWNER));
    expect(await owner.op({ op: "message.send", id: "m-live", blocks: [{ type: "text", text: "hello spectators" }] })).toMatchObject({ type: "ack" });
    await s.daemon.finishTurn(s.sessionId, "answer for all");
    await waitFor(() => anon.texts().includes("answer for all"), "the spectator sees the turn");
    expect(anon.texts()).toContain("hello spectators");
    for (const v of [stranger, anon, owner]) v.ws.close(1000, "bye");
  });

  it("every op that acts on the session is refused for a spectator; reading is allowed; nothing changes", async () => {
    const token = tokenOf((await createLink(s.sessionId, { expiry: "1h", scope: "anyone" })).body.url);
    const spectator = await Spectator.open(token);
    // One valid frame per op of the protocol. The Record's keys are the protocol's op names: a new op fails
    // the typecheck here until it is listed, and the runtime check below ties the list to the schema.
    const samples: { [K in ClientOpName]: Record<string, unknown> } = {
      "message.send": { id: "spec-send", blocks: [{ type: "text", text: "sneaky" }] },
      "queue.cancel": { id: "q1" },
      "queue.edit": { id: "q1", blocks: [{ type: "text", text: "x" }] },
      "queue.move": { id: "q1", before: null },
      "queue.steer": { id: "q1" },
      "turn.cancel": {},
      "queue.claimDropped": { ids: ["q1"] },
      "config.set": { configId: "model", value: "smart" },
      "mode.set": { modeId: "ask" },
      "model.set": { modelId: "smart" },
      "permission.respond": { requestId: "p1", optionId: "allow" },
      "elicitation.respond": { requestId: "e1", action: "decline" },
      "history.page": { before: 1, limit: 10 },
      "history.search": { query: "hello" },
      "settings.set": { queueDepth: 3 },
    };
    const protocolOps = ClientOp.options.map((o) => o.shape.op.value).sort();
    expect(Object.keys(samples).sort()).toEqual(protocolOps);
    const READS: ClientOpName[] = ["history.page", "history.search"];
    const promptsBefore = s.daemon.prompts(s.sessionId).length;
    const commandsBefore = s.daemon.commands.length;
    for (const name of protocolOps) {
      const frame = { op: name, ...samples[name as ClientOpName] };
      expect(ClientOp.safeParse({ ...frame, rid: "x" }).success, `sample for ${name} is a valid frame`).toBe(true);
      const reply = await spectator.op(frame);
      if (READS.includes(name as ClientOpName)) expect(reply.type, name).toBe("ack");
      else expect(reply, name).toMatchObject({ type: "error", code: "FORBIDDEN" });
    }
    await s.daemon.settle();
    expect(s.daemon.prompts(s.sessionId).length).toBe(promptsBefore);
    expect(s.daemon.commands.length).toBe(commandsBefore);
    // The settings did not move (the owner's join shows the default depth).
    const owner = await AuthedViewer.open(s.sessionId, await asUser(OWNER));
    const config = owner.frames.flatMap((f) => (f.type === "event" || f.type === "state" ? [f.event] : [])).find((e) => e.kind === "config_state");
    expect(config && config.kind === "config_state" ? config.config.queueDepth : null).not.toBe(3);
    owner.close();
    spectator.ws.close(1000, "bye");
  });

  it("revoke refuses new joins and closes the link's open sockets at once; other links are untouched", async () => {
    const made = await createLink(s.sessionId, { expiry: "never", scope: "anyone" });
    const token = tokenOf(made.body.url);
    const other = await Spectator.open(tokenOf((await createLink(s.sessionId, { expiry: "never", scope: "anyone" })).body.url));
    const a = await Spectator.open(token);
    const b = await Spectator.open(token, await asUser(STRANGER));
    // A member's socket cannot claim to be a link's (the header is the Worker's to set): revoke leaves it open.
    const member = await AuthedViewer.open(s.sessionId, { ...(await asUser(MEMBER)), "x-baton-share": JSON.stringify({ linkId: made.body.link.id, expiresAt: null }) });
    const revoked = await call<ShareLinksReply>(`/api/sessions/${s.sessionId}/share-links/${made.body.link.id}`, { method: "DELETE", headers: await asUser(OWNER) });
    // The room closes them before the DELETE is answered: "at once" is measured from the answer (the request's own
    // time through D1 and the room is not the close's).
    const answered = Date.now();
    expect(revoked.status).toBe(200);
    expect(revoked.body.links.map((l) => l.id)).not.toContain(made.body.link.id);
    await waitFor(() => a.closed && b.closed, "both spectators closed", 1000);
    expect(a.closed).toMatchObject({ code: CLOSE_SHARE_ENDED, reason: "revoked" });
    expect(b.closed!.at - answered).toBeLessThan(1000);
    expect(other.closed).toBeNull();
    expect(member.closed).toBeNull();
    member.close();
    expect(await refusal(token)).toMatchObject({ status: 410, code: "SHARE_REVOKED", message: expect.stringMatching(/revoked/) });
    // Revoking twice: a clear 404, nothing else changes.
    expect((await call(`/api/sessions/${s.sessionId}/share-links/${made.body.link.id}`, { method: "DELETE", headers: await asUser(OWNER) })).status).toBe(404);
    other.ws.close(1000, "bye");
  });

  it("expiry refuses new joins and closes open sockets within a second of it", async () => {
    const made = await createLink(s.sessionId, { expiry: "1h", scope: "anyone" });
    const token = tokenOf(made.body.url);
    // The link expires 2.5 s from now (as if it were made an hour ago, minus that): time for the two joins below
    // on a loaded machine.
    const expiresAt = Date.now() + 2500;
    await env.DB.prepare("UPDATE share_links SET expires_at = ? WHERE id = ?").bind(expiresAt, made.body.link.id).run();
    const never = await Spectator.open(tokenOf((await createLink(s.sessionId, { expiry: "never", scope: "anyone" })).body.url));
    const spectator = await Spectator.open(token);
    expect(Date.now(), "the spectator joined before the expiry").toBeLessThan(expiresAt);
    expect(spectator.closed).toBeNull();
    await waitFor(() => spectator.closed, "closed at expiry", 5000);
    expect(spectator.closed).toMatchObject({ code: CLOSE_SHARE_ENDED, reason: "expired" });
    expect(spectator.closed!.at).toBeGreaterThanOrEqual(expiresAt);
    expect(spectator.closed!.at - expiresAt).toBeLessThan(1000);
    expect(never.closed).toBeNull();
    expect(await refusal(token)).toMatchObject({ status: 410, code: "SHARE_EXPIRED", message: expect.stringMatching(/expired/) });
    const list = await call<ShareLinksReply>(`/api/sessions/${s.sessionId}/share-links`, { headers: await asUser(OWNER) });
    expect(list.body.links.map((l) => l.id)).not.toContain(made.body.link.id);
    never.ws.close(1000, "bye");
  });

  it("a wrong or malformed token is refused with a sentence; a foreign page cannot open a spectator socket", async () => {
    const real = tokenOf((await createLink(s.sessionId, { expiry: "1h", scope: "anyone" })).body.url);
    const wrong = `${real.slice(0, -1)}${real.endsWith("A") ? "B" : "A"}`;
    for (const t of [wrong, "short", ""]) expect(await refusal(t), t).toMatchObject({ status: 404, code: "SHARE_NOT_FOUND", message: expect.stringMatching(/not valid/) });
    // The token in the URL is not a way in.
    const inUrl = await exports.default.fetch(`${ORIGIN}/api/share/ws?token=${real}`, { headers: { Upgrade: "websocket", Origin: ORIGIN } });
    expect(inUrl.status).toBe(404);
    const foreign = await Spectator.upgrade(real, { Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
  });

  it("a deleted session's links stop working and its spectators are closed", async () => {
    const own = await pairAndStart();
    const token = tokenOf((await createLink(own.sessionId, { expiry: "never", scope: "anyone" })).body.url);
    const spectator = await Spectator.open(token);
    const del = await call(`/api/sessions/${own.sessionId}`, { method: "DELETE", headers: await asUser(OWNER), body: JSON.stringify({}) });
    expect(del.status).toBe(200);
    await waitFor(() => spectator.closed, "spectator closed on delete");
    expect(await refusal(token)).toMatchObject({ status: 410, code: "SHARE_SESSION_DELETED", message: expect.stringMatching(/deleted/) });
  });
});
