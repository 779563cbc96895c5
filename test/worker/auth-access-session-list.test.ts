/**
 * The live session list and the session lifecycle (issue 26), with real users (Access JWTs), the real rooms,
 * Machine and per-user SessionFeed DOs: the feed reaches the owner and members, never a stranger; rename /
 * archive / delete by each role; bad titles; delete removes the room's storage and nothing brings it back;
 * bulk archive; paging and filters (the server's rule is `matchesQuery`); the feed after eviction.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CLOSE_SESSION_DELETED, MAX_SESSION_TITLE, matchesQuery } from "../../shared/session-list-rules";
import {
  SessionFeedFrame,
  type SessionListItem,
  SessionListPage,
  type SessionListQuery,
} from "../../shared/session-list";
import { asUser, AuthedViewer, call } from "./auth-harness";
import { ORIGIN, TestDaemon, text, waitFor } from "./harness";

/** One list page's feed socket, as the client opens it. */
class Feed {
  frames: SessionFeedFrame[] = [];
  bytes = 0;
  closed: number | null = null;
  private constructor(readonly ws: WebSocket) {
    ws.addEventListener("message", (e) => {
      if (e.data === "pong") return;
      this.bytes += (e.data as string).length;
      this.frames.push(SessionFeedFrame.parse(JSON.parse(e.data as string)));
    });
    ws.addEventListener("close", (e) => void (this.closed = e.code));
  }
  static async open(email: string): Promise<Feed> {
    const res = await exports.default.fetch(`${ORIGIN}/api/sessions/feed`, { headers: { Upgrade: "websocket", Origin: ORIGIN, ...(await asUser(email)) } });
    expect(res.status).toBe(101);
    res.webSocket!.accept();
    const f = new Feed(res.webSocket!);
    await waitFor(() => f.frames.some((x) => x.type === "hello"), "hello");
    return f;
  }
  upserts(id: string): SessionListItem[] {
    return this.frames.flatMap((f) => (f.type === "upsert" && f.item.id === id ? [f.item] : []));
  }
  /** The row as the client would hold it: the highest version seen. */
  row(id: string): SessionListItem | undefined {
    return this.upserts(id).reduce<SessionListItem | undefined>((a, b) => (!a || b.version > a.version ? b : a), undefined);
  }
  async until(what: string, pred: (row: SessionListItem | undefined) => boolean, id: string): Promise<SessionListItem> {
    return (await waitFor(() => pred(this.row(id)) && this.row(id), what))!;
  }
  close(): void {
    try {
      this.ws.close(1000, "bye");
    } catch {
      /* closed */
    }
  }
}

async function pairMachine(owner: string) {
  const pair = await call<{ machine: { id: string }; token: string }>("/api/machines", { method: "POST", headers: await asUser(owner), body: JSON.stringify({ name: "laptop" }) });
  expect(pair.status).toBe(201);
  const daemon = new TestDaemon(pair.body.token);
  await daemon.connect();
  return { machineId: pair.body.machine.id, daemon };
}

async function startSession(owner: string, m: { machineId: string; daemon: TestDaemon }, cwd = "/work") {
  const created = await call<{ session: { id: string } }>("/api/sessions", {
    method: "POST",
    headers: await asUser(owner),
    body: JSON.stringify({ machineId: m.machineId, agentId: "demo", cwd }),
  });
  expect(created.status).toBe(201);
  const id = created.body.session.id;
  await waitFor(() => m.daemon.of("session.open").some((c) => c.sessionId === id), "session.open");
  await m.daemon.settle();
  return id;
}

async function invite(owner: string, sessionId: string, email: string, role: "member" | "viewer") {
  const r = await call(`/api/sessions/${sessionId}/members`, { method: "POST", headers: await asUser(owner), body: JSON.stringify({ email, role }) });
  expect(r.status).toBe(201);
}

const patch = async (email: string, id: string, body: unknown) =>
  call<{ session?: SessionListItem; error?: { code: string; message: string } }>(`/api/sessions/${id}`, { method: "PATCH", headers: await asUser(email), body: JSON.stringify(body) });
const del = async (email: string, id: string, body?: unknown) =>
  call<{ ok?: true; agentSessionDeleted?: boolean | null; error?: { code: string } }>(`/api/sessions/${id}`, {
    method: "DELETE",
    headers: await asUser(email),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const list = async (email: string, q: Record<string, string | number> = {}) => {
  const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();
  const r = await call(`/api/sessions${qs ? `?${qs}` : ""}`, { headers: await asUser(email) });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return SessionListPage.parse(r.body);
};
/** Polls an async condition (a D1 read) until it holds. */
async function eventually(fn: () => Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
const room = (sessionId: string) => env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(sessionId));

describe("the live list feed", () => {
  const OWNER = "feed-owner@example.com";
  const MEMBER = "feed-member@example.com";
  const STRANGER = "feed-stranger@example.com";

  it("a change in one room reaches the owner's and a member's list, never a stranger's", async () => {
    const m = await pairMachine(OWNER);
    const sessionId = await startSession(OWNER, m);
    const [owner, member, stranger] = await Promise.all([Feed.open(OWNER), Feed.open(MEMBER), Feed.open(STRANGER)]);
    await invite(OWNER, sessionId, MEMBER, "member");
    // Being invited puts the session in the member's list, as theirs to write, new to them.
    const invited = await member.until("invited row", (r) => r !== undefined, sessionId);
    expect(invited).toMatchObject({ role: "member", unread: true, status: "idle" });

    // A turn runs (the room's status and activity), the agent asks for permission (needs you), it ends.
    const v = await AuthedViewer.open(sessionId, await asUser(OWNER));
    expect(await v.op({ op: "message.send", id: "feed-1", blocks: text("fix the flaky login test") })).toMatchObject({ type: "ack" });
    for (const f of [owner, member]) await f.until("running", (r) => r?.status === "active" && r.firstPrompt === "fix the flaky login test", sessionId);
    m.daemon.emit({ t: "permission.request", sessionId, requestId: "p1", toolCall: { title: "rm -rf build" }, options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }] });
    for (const f of [owner, member]) await f.until("needs you", (r) => r?.needsYou === true, sessionId);
    m.daemon.emit({ t: "permission.cancelled", sessionId, requestId: "p1" });
    await m.daemon.finishTurn(sessionId);
    for (const f of [owner, member]) await f.until("idle, nobody needed", (r) => r?.status === "idle" && !r.needsYou, sessionId);
    // The member has not looked since: unread. The owner watching still sees it unread until they leave.
    expect(member.row(sessionId)!.unread).toBe(true);
    v.close();
    await owner.until("seen after leaving", (r) => r?.unread === false, sessionId);
    expect(member.row(sessionId)!.unread).toBe(true);

    // A rename by the member reaches both.
    expect((await patch(MEMBER, sessionId, { title: "Login flake" })).status).toBe(200);
    for (const f of [owner, member]) await f.until("renamed", (r) => r?.customTitle === "Login flake", sessionId);

    // The stranger's feed works (its own session arrives) and never carried the other session.
    const own = await startSession(STRANGER, await pairMachine(STRANGER));
    await stranger.until("own session", (r) => r !== undefined, own);
    expect(stranger.frames.filter((f) => (f.type === "upsert" ? f.item.id : f.type === "remove" ? f.id : null) === sessionId)).toEqual([]);
    for (const f of [owner, member, stranger]) f.close();
  });

  it("the machine going offline and back shows on its sessions' rows", async () => {
    const m = await pairMachine(OWNER);
    const sessionId = await startSession(OWNER, m);
    const feed = await Feed.open(OWNER);
    m.daemon.close();
    await feed.until("offline", (r) => r?.status === "offline", sessionId);
    expect((await list(OWNER, { status: "offline" })).sessions.map((s) => s.id)).toContain(sessionId);
    await m.daemon.connect([{ sessionId, busy: false }]);
    await feed.until("online again", (r) => r !== undefined && r.status !== "offline", sessionId);
    feed.close();
  });

  it("removal from a session drops it from that user's list (reason access)", async () => {
    const m = await pairMachine(OWNER);
    const sessionId = await startSession(OWNER, m);
    await invite(OWNER, sessionId, "feed-gone@example.com", "viewer");
    const feed = await Feed.open("feed-gone@example.com");
    const members = await call<{ members: { userId: string; email: string }[] }>(`/api/sessions/${sessionId}/members`, { headers: await asUser(OWNER) });
    const id = members.body.members.find((x) => x.email === "feed-gone@example.com")!.userId;
    expect((await call(`/api/sessions/${sessionId}/members/${id}`, { method: "DELETE", headers: await asUser(OWNER) })).status).toBe(200);
    await waitFor(() => feed.frames.some((f) => f.type === "remove" && f.id === sessionId && f.reason === "access"), "remove access");
    feed.close();
  });

  it("still delivers after its Durable Object is evicted", async () => {
    const m = await pairMachine(OWNER);
    const sessionId = await startSession(OWNER, m);
    let feed = await Feed.open(OWNER);
    const me = await call<{ id: string }>("/api/me", { headers: await asUser(OWNER) });
    await evictDurableObject(env.SESSION_FEED.get(env.SESSION_FEED.idFromName(me.body.id)));
    // A page whose socket the eviction dropped opens it again (the client's reconnect); one kept by hibernation stays.
    if (feed.closed !== null || feed.ws.readyState !== WebSocket.OPEN) feed = await Feed.open(OWNER);
    expect((await patch(OWNER, sessionId, { title: "After eviction" })).status).toBe(200);
    await feed.until("renamed after eviction", (r) => r?.customTitle === "After eviction", sessionId);
    feed.close();
  });

  it("refuses a cross-site socket, a plain GET, and closes a socket that sends anything but ping", async () => {
    const h = await asUser(OWNER);
    expect((await exports.default.fetch(`${ORIGIN}/api/sessions/feed`, { headers: { Upgrade: "websocket", Origin: "https://evil.example", ...h } })).status).toBe(403);
    expect((await exports.default.fetch(`${ORIGIN}/api/sessions/feed`, { headers: h })).status).toBe(426);
    expect((await exports.default.fetch(`${ORIGIN}/api/sessions/feed`, { headers: { Upgrade: "websocket", Origin: ORIGIN } })).status).toBe(401);
    const feed = await Feed.open(OWNER);
    const pong = new Promise<string>((r) => feed.ws.addEventListener("message", (e) => void (e.data === "pong" && r(e.data))));
    feed.ws.send("ping");
    expect(await pong).toBe("pong");
    feed.ws.send(JSON.stringify({ type: "subscribe", all: true }));
    await waitFor(() => feed.closed !== null, "closed");
    expect(feed.closed).toBe(1003);
  });
});

describe("rename, archive and delete by role", () => {
  const OWNER = "life-owner@example.com";
  const MEMBER = "life-member@example.com";
  const VIEWER = "life-viewer@example.com";
  const STRANGER = "life-stranger@example.com";

  async function sharedSession() {
    const m = await pairMachine(OWNER);
    const sessionId = await startSession(OWNER, m);
    await invite(OWNER, sessionId, MEMBER, "member");
    await invite(OWNER, sessionId, VIEWER, "viewer");
    return { m, sessionId };
  }

  it("owner and member rename and archive; a viewer gets 403, a stranger 404; bad titles change nothing", async () => {
    const { sessionId } = await sharedSession();
    const owner = await patch(OWNER, sessionId, { title: "  Owner's name  " });
    expect(owner.status).toBe(200);
    expect(owner.body.session).toMatchObject({ id: sessionId, customTitle: "Owner's name", role: "owner" });
    expect((await patch(MEMBER, sessionId, { title: "Member's name" })).body.session).toMatchObject({ customTitle: "Member's name", role: "member" });
    expect(await patch(VIEWER, sessionId, { title: "Viewer's name" })).toMatchObject({ status: 403, body: { error: { code: "FORBIDDEN" } } });
    expect(await patch(STRANGER, sessionId, { title: "Stranger's name" })).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    expect(await patch(OWNER, sessionId, { title: "   " })).toMatchObject({ status: 400, body: { error: { message: "a title cannot be empty" } } });
    expect(await patch(OWNER, sessionId, { title: "x".repeat(500) })).toMatchObject({ status: 400, body: { error: { message: `a title is at most ${MAX_SESSION_TITLE} characters` } } });
    expect(await patch(OWNER, sessionId, {})).toMatchObject({ status: 400, body: { error: { message: "nothing to change" } } });
    expect((await patch(OWNER, sessionId, { title: 42 })).status).toBe(400);
    expect((await call(`/api/sessions/${sessionId}`, { method: "PATCH", headers: await asUser(OWNER), body: "{not json" })).status).toBe(400);
    const row = (await list(VIEWER)).sessions.find((s) => s.id === sessionId)!;
    expect(row).toMatchObject({ customTitle: "Member's name", role: "viewer" });
    // null gives the name back to the agent / the first prompt.
    expect((await patch(OWNER, sessionId, { title: null })).body.session!.customTitle).toBeNull();

    // Archive: hidden by default, shown by the filter, for everyone; unarchive brings it back.
    expect((await patch(MEMBER, sessionId, { archived: true })).body.session!.archivedAt).toEqual(expect.any(Number));
    expect((await patch(VIEWER, sessionId, { archived: false })).status).toBe(403);
    expect((await patch(STRANGER, sessionId, { archived: false })).status).toBe(404);
    for (const who of [OWNER, MEMBER, VIEWER]) {
      expect((await list(who)).sessions.map((s) => s.id)).not.toContain(sessionId);
      expect((await list(who, { archived: "only" })).sessions.map((s) => s.id)).toContain(sessionId);
    }
    expect((await patch(OWNER, sessionId, { archived: false })).body.session!.archivedAt).toBeNull();
    expect((await list(VIEWER)).sessions.map((s) => s.id)).toContain(sessionId);
  });

  it("archiving a running session asks first (409 SESSION_RUNNING), then archives with confirmRunning", async () => {
    const { m, sessionId } = await sharedSession();
    const v = await AuthedViewer.open(sessionId, await asUser(OWNER));
    expect(await v.op({ op: "message.send", id: "run-1", blocks: text("long job") })).toMatchObject({ type: "ack" });
    await waitFor(() => m.daemon.prompts(sessionId).length > 0, "prompt forwarded");
    const feed = await Feed.open(OWNER);
    await eventually(async () => (await list(OWNER)).sessions.find((s) => s.id === sessionId)?.status === "active", "listed as running");
    const refused = await patch(MEMBER, sessionId, { archived: true });
    expect(refused).toMatchObject({ status: 409, body: { error: { code: "SESSION_RUNNING" } } });
    expect((await list(OWNER)).sessions.find((s) => s.id === sessionId)!.archivedAt).toBeNull();
    expect((await patch(MEMBER, sessionId, { archived: true, confirmRunning: true })).status).toBe(200);
    await feed.until("archived row", (r) => r?.archivedAt !== null && r?.archivedAt !== undefined, sessionId);
    await m.daemon.finishTurn(sessionId);
    v.close();
    feed.close();
  });

  it("delete: owner only (member and viewer 403, stranger 404); viewers are closed with 4410, the room's storage is gone for good", async () => {
    const { m, sessionId } = await sharedSession();
    const feeds = await Promise.all([Feed.open(OWNER), Feed.open(MEMBER), Feed.open(STRANGER)]);
    const watching = await AuthedViewer.open(sessionId, await asUser(MEMBER));
    expect(await del(MEMBER, sessionId)).toMatchObject({ status: 403, body: { error: { code: "FORBIDDEN" } } });
    expect(await del(VIEWER, sessionId)).toMatchObject({ status: 403 });
    expect(await del(STRANGER, sessionId)).toMatchObject({ status: 404 });
    expect((await call(`/api/sessions/${sessionId}`, { method: "DELETE", headers: await asUser(OWNER), body: "{bad" })).status).toBe(400);
    expect((await room(sessionId).info()).exists).toBe(true);

    const done = await del(OWNER, sessionId, { deleteAgentSession: false });
    expect(done).toMatchObject({ status: 200, body: { ok: true, agentSessionDeleted: null } });
    await waitFor(() => watching.closed, "viewer socket closed");
    expect(watching.closed!.code).toBe(CLOSE_SESSION_DELETED);
    await waitFor(() => m.daemon.of("session.close").some((c) => c.sessionId === sessionId), "session.close to the daemon");
    for (const f of feeds.slice(0, 2)) await waitFor(() => f.frames.some((x) => x.type === "remove" && x.id === sessionId && x.reason === "deleted"), "remove deleted");
    expect(feeds[2]!.frames.some((x) => x.type === "remove")).toBe(false);

    // The directory rows are gone; every route answers "no such session".
    for (const table of ["sessions WHERE id", "session_members WHERE session_id"])
      expect((await env.DB.prepare(`SELECT COUNT(*) AS c FROM ${table} = ?`).bind(sessionId).first<{ c: number }>())!.c).toBe(0);
    expect((await call(`/api/sessions/${sessionId}`, { headers: await asUser(OWNER) })).status).toBe(404);
    expect((await AuthedViewer.upgrade(sessionId, await asUser(OWNER))).status).toBe(404);
    expect(await del(OWNER, sessionId)).toMatchObject({ status: 404 });

    // The room's own storage is empty, and a late daemon event or machine status does not bring it back.
    const tables = async () =>
      runInDurableObject(room(sessionId), (_i, state) =>
        state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite_%'").toArray().map((r) => r.name),
      );
    expect(await tables()).toEqual([]);
    m.daemon.chunk(sessionId, "a late chunk");
    await m.daemon.settle();
    m.daemon.close();
    await m.daemon.connect([{ sessionId, busy: true }]);
    expect((await room(sessionId).info()).exists).toBe(false);
    await evictDurableObject(room(sessionId));
    expect((await room(sessionId).info()).exists).toBe(false);
    expect(await room(sessionId).destroy()).toBeNull();
    const rows = await runInDurableObject(room(sessionId), (_i, state) => state.storage.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM events").one().c);
    expect(rows).toBe(0);
    for (const f of feeds) f.close();
  });
});

describe("bulk archive", () => {
  const OWNER = "bulk-owner@example.com";
  const OTHER = "bulk-other@example.com";

  it("archives the chosen ids and skips, with reasons, running, waiting, read-only and unknown sessions", async () => {
    const m = await pairMachine(OWNER);
    const [idle, running, waiting] = [await startSession(OWNER, m), await startSession(OWNER, m), await startSession(OWNER, m)];
    const o = await pairMachine(OTHER);
    const theirs = await startSession(OTHER, o);
    await invite(OTHER, theirs, OWNER, "viewer");
    const notMine = await startSession(OTHER, o);
    const v = await AuthedViewer.open(running, await asUser(OWNER));
    expect(await v.op({ op: "message.send", id: "bulk-run", blocks: text("busy") })).toMatchObject({ type: "ack" });
    m.daemon.emit({ t: "permission.request", sessionId: waiting, requestId: "q1", toolCall: { title: "ask" }, options: [{ optionId: "ok", name: "OK", kind: "allow_once" }] });
    await m.daemon.settle();
    await eventually(async () => {
      const rows = new Map((await list(OWNER)).sessions.map((s) => [s.id, s]));
      return rows.get(running)?.status === "active" && rows.get(waiting)?.needsYou === true;
    }, "running and waiting in the directory");
    const r = await call<{ archived: string[]; skipped: { id: string; reason: string }[] }>("/api/sessions/archive", {
      method: "POST",
      headers: await asUser(OWNER),
      body: JSON.stringify({ ids: [idle, running, waiting, theirs, notMine, "no-such-id"] }),
    });
    expect(r.status).toBe(200);
    expect(r.body.archived).toEqual([idle]);
    expect(Object.fromEntries(r.body.skipped.map((s) => [s.id, s.reason]))).toEqual({
      [running]: "running",
      [waiting]: "needs you",
      [theirs]: "you can only view this session",
      [notMine]: "not found",
      "no-such-id": "not found",
    });
    expect((await list(OTHER, { archived: "all" })).sessions.every((s) => s.archivedAt === null)).toBe(true);
    const again = await call<{ skipped: { id: string; reason: string }[] }>("/api/sessions/archive", { method: "POST", headers: await asUser(OWNER), body: JSON.stringify({ ids: [idle] }) });
    expect(again.body.skipped).toEqual([{ id: idle, reason: "already archived" }]);
    for (const bad of [{}, { ids: [] }, { ids: Array.from({ length: 501 }, (_, i) => `x${i}`) }, { idleOlderThanDays: 0 }, { idleOlderThanDays: "7" }])
      expect((await call("/api/sessions/archive", { method: "POST", headers: await asUser(OWNER), body: JSON.stringify(bad) })).status, JSON.stringify(bad).slice(0, 40)).toBe(400);
    m.daemon.emit({ t: "permission.cancelled", sessionId: waiting, requestId: "q1" });
    await m.daemon.finishTurn(running);
    v.close();
  });

  it("archives every idle session older than N days, not the recent, running or waiting ones", async () => {
    const OLD = "bulk-age@example.com";
    const m = await pairMachine(OLD);
    const [old1, old2, oldRunning, recent] = [await startSession(OLD, m), await startSession(OLD, m), await startSession(OLD, m), await startSession(OLD, m)];
    const longAgo = Date.now() - 30 * 86_400_000;
    await env.DB.prepare(`UPDATE sessions SET last_activity_at = ? WHERE id IN (?, ?, ?)`).bind(longAgo, old1, old2, oldRunning).run();
    await env.DB.prepare(`UPDATE sessions SET status = 'active' WHERE id = ?`).bind(oldRunning).run();
    const feed = await Feed.open(OLD);
    const r = await call<{ archived: string[]; skipped: { id: string; reason: string }[] }>("/api/sessions/archive", {
      method: "POST",
      headers: await asUser(OLD),
      body: JSON.stringify({ idleOlderThanDays: 7 }),
    });
    expect(r.status).toBe(200);
    expect(r.body.archived.sort()).toEqual([old1, old2].sort());
    expect(r.body.skipped).toEqual([{ id: oldRunning, reason: "running" }]);
    expect((await list(OLD)).sessions.map((s) => s.id).sort()).toEqual([oldRunning, recent].sort());
    for (const id of [old1, old2]) await feed.until("archived on the feed", (row) => typeof row?.archivedAt === "number", id);
    feed.close();
  });
});

describe("paging and filters", () => {
  const USER = "pages@example.com";

  it("pages by last activity with a keyset cursor, and filters exactly as matchesQuery does", async () => {
    const m = await pairMachine(USER);
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) ids.push(await startSession(USER, m, i % 3 === 0 ? "/work/api" : "/work/web"));
    // Distinct activity, two rows tied (the id breaks the tie), titles and states to filter on.
    const base = Date.now() - 1_000_000;
    for (const [i, id] of ids.entries()) await env.DB.prepare("UPDATE sessions SET last_activity_at = ? WHERE id = ?").bind(i === 4 ? base + 3000 : base + i * 1000, id).run();
    await env.DB.prepare("UPDATE sessions SET first_prompt = 'Fix the LOGIN page' WHERE id = ?").bind(ids[1]).run();
    await env.DB.prepare("UPDATE sessions SET custom_title = 'Release notes' WHERE id = ?").bind(ids[2]).run();
    await env.DB.prepare("UPDATE sessions SET needs_you = 1 WHERE id = ?").bind(ids[5]).run();
    await env.DB.prepare("UPDATE sessions SET status = 'active' WHERE id = ?").bind(ids[6]).run();
    await env.DB.prepare("UPDATE sessions SET archived_at = ? WHERE id = ?").bind(Date.now(), ids[7]).run();

    const all = (await list(USER, { archived: "all", limit: 200 })).sessions;
    expect(all.map((s) => s.id).sort()).toEqual([...ids].sort());
    const order = [...all].sort((a, b) => b.lastActivityAt - a.lastActivityAt || (a.id < b.id ? 1 : -1));
    expect(all.map((s) => s.id)).toEqual(order.map((s) => s.id));

    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(USER, { archived: "all", limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.sessions.length).toBeLessThanOrEqual(2);
      paged.push(...page.sessions.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(order.map((s) => s.id));

    const queries: Partial<SessionListQuery>[] = [
      {},
      { text: "login" },
      { text: "RELEASE" },
      { text: "/work/api" },
      { status: "needs_you" },
      { status: "running" },
      { status: "idle" },
      { archived: "only" },
      { agentId: "demo", machineId: m.machineId, text: "web" },
      { agentId: "nope" },
    ];
    for (const q of queries) {
      const got = (await list(USER, { limit: 200, ...(q as Record<string, string>) })).sessions.map((s) => s.id);
      const want = all.filter((s) => matchesQuery(s, { archived: "hide", ...q })).map((s) => s.id);
      expect(got, JSON.stringify(q)).toEqual(want);
    }

    for (const bad of ["?cursor=garbage", "?limit=0", "?limit=9999", "?status=sleeping", "?archived=maybe", `?text=${"x".repeat(201)}`]) {
      const r = await call<{ error: { code: string } }>(`/api/sessions${bad}`, { headers: await asUser(USER) });
      expect(r.status, bad).toBe(400);
    }
    // A stranger's list never shows these.
    expect((await list("pages-stranger@example.com", { archived: "all" })).sessions).toEqual([]);
  });
});
