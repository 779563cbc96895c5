/**
 * The session list's join and its live feed (issue 26, issue 31's team of 1,000 users), in workerd through
 * the real Worker, D1 and SessionFeed DOs. Join = the first page's body (`GET /api/sessions`) + the feed's
 * `hello`; a change = what the feed sockets receive for one rename (PATCH → D1 → each member's feed).
 * Sessions and memberships are written straight into D1 (the list reads only the directory).
 * Bytes are UTF-8 payloads as sent (workerd sends them uncompressed here).
 */
import { env, exports } from "cloudflare:workers";
import { it } from "vitest";
import { SessionFeedFrame, SessionListPage } from "../shared/session-list";
import { api, ORIGIN, waitFor } from "../test/worker/harness";

type Row = { figure: string; measured: string; ratio?: number; target?: string; ok?: boolean; data?: Record<string, unknown> };
const row = (r: Row) => console.log(`BENCH_ROW ${JSON.stringify(r)}`);
const KB = (b: number) => `${(b / 1024).toFixed(1)} KB`;
const utf8 = (s: string) => new TextEncoder().encode(s).length;

/** The team of issue 31. */
const TEAM_USERS = 1_000;
const TEAM_SESSIONS = 10_000;
/** Each team session: its owner and two teammates (who all see it in their lists). */
const TEAM_MEMBERS_PER_SESSION = 3;
/** Watcher counts for the per-change cost (members of one session with the list open). */
const WATCHERS = [1, 10, 100];
/** After the watchers have a change: time for any wrong delivery (to a non-member) to arrive and be counted. */
const STRAGGLER_MS = 200;

/** A feed socket; counts what it receives. */
class FeedSocket {
  bytes = 0;
  frames: SessionFeedFrame[] = [];
  constructor(readonly ws: WebSocket) {
    ws.accept();
    ws.addEventListener("message", (e) => {
      this.bytes += utf8(e.data as string);
      this.frames.push(SessionFeedFrame.parse(JSON.parse(e.data as string)));
    });
  }
  /** Through the Worker as the dev user (identity, Origin, upgrade). */
  static async mine(): Promise<FeedSocket> {
    const res = await exports.default.fetch(`${ORIGIN}/api/sessions/feed`, { headers: { Upgrade: "websocket", Origin: ORIGIN } });
    const f = new FeedSocket(res.webSocket!);
    await waitFor(() => f.frames.length > 0, "hello");
    return f;
  }
  /** Straight into another user's feed DO (the bench has one signed-in identity). */
  static async of(userId: string): Promise<FeedSocket> {
    const res = await env.SESSION_FEED.get(env.SESSION_FEED.idFromName(userId)).fetch(new Request(`${ORIGIN}/api/sessions/feed`, { headers: { Upgrade: "websocket" } }));
    const f = new FeedSocket(res.webSocket!);
    await waitFor(() => f.frames.length > 0, "hello");
    return f;
  }
  close(): void {
    try {
      this.ws.close(1000, "bye");
    } catch {
      /* closed */
    }
  }
}

/** Sessions `prefix-i` (i in [from, to)) owned by `owner`, each with the owner's member row; activity = base + i. */
async function insertSessions(prefix: string, from: number, to: number, owner: string, machineId: string): Promise<void> {
  const now = Date.now();
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT CAST(?1 AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?2)
     INSERT INTO sessions (id, owner_id, machine_id, agent_id, cwd, title, status, created_at, last_activity_at, first_prompt)
     SELECT ?3 || i, ?4, ?5, 'demo', '/work/project-' || (i % 50), 'Demo · project-' || (i % 50), 'idle', ?6, CAST(?6 AS INTEGER) + i, 'fix issue #' || i || ' in the login flow' FROM n`,
  )
    .bind(from, to, `${prefix}-`, owner, machineId, now - 86_400_000)
    .run();
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT CAST(?1 AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?2)
     INSERT INTO session_members (session_id, user_id, role, seen_at) SELECT ?3 || i, ?4, 'owner', 0 FROM n`,
  )
    .bind(from, to, `${prefix}-`, owner)
    .run();
}

/** The dev user's join: the feed's hello + the first page's body. */
async function join(): Promise<{ hello: number; page: number; rows: number; ms: number; feed: FeedSocket }> {
  const t0 = performance.now();
  const feed = await FeedSocket.mine();
  const res = await exports.default.fetch(`${ORIGIN}/api/sessions`);
  const body = await res.text();
  const ms = performance.now() - t0;
  return { hello: feed.bytes, page: utf8(body), rows: SessionListPage.parse(JSON.parse(body)).sessions.length, ms, feed };
}

async function rename(id: string, title: string): Promise<void> {
  const r = await api(`/api/sessions/${id}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ title }) });
  if (r.status !== 200) throw new Error(`rename ${id}: ${r.status} ${JSON.stringify(r.body)}`);
}

/** Sockets and bytes that heard of one change, once every expected socket got it and a later change has landed. */
async function changeCost(sockets: FeedSocket[], expected: FeedSocket[], id: string, title: string) {
  const before = sockets.map((s) => s.bytes);
  await rename(id, title);
  await waitFor(() => expected.every((s) => s.frames.some((f) => f.type === "upsert" && f.item.id === id && f.item.customTitle === title)), "the change on every watcher", 30_000);
  // A delivery to a socket that should not get it would land beside the expected ones; give it the time to.
  await new Promise((r) => setTimeout(r, STRAGGLER_MS));
  const got = sockets.map((s, i) => s.bytes - before[i]!);
  return { sockets: got.filter((b) => b > 0).length, bytes: got.reduce((a, b) => a + b, 0) };
}

it("session list: join bytes and bytes per change at 100 → 1,000 sessions, and a team of 1,000 users with 10,000 sessions", async () => {
  const me = (await api<{ id: string }>("/api/me")).body.id;
  const machineId = (await api<{ machine: { id: string } }>("/api/dev/pair", { method: "POST", body: JSON.stringify({ name: "bench laptop" }) })).body.machine.id;

  // ---- one user: 100 → 1,000 sessions
  const joins: { n: number; hello: number; page: number; rows: number; ms: number; change: number }[] = [];
  let have = 0;
  for (const n of [100, 1_000]) {
    await insertSessions("mine", have, n, me, machineId);
    have = n;
    const j = await join();
    const c = await changeCost([j.feed], [j.feed], `mine-${n - 1}`, `renamed at ${n}`);
    j.feed.close();
    joins.push({ n, hello: j.hello, page: j.page, rows: j.rows, ms: j.ms, change: c.bytes });
  }

  // ---- the team: 1,000 users, 10,000 sessions (owner + 2 teammates each); the dev user sees every one of them too
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?1)
     INSERT INTO users (id, email, name, created_at) SELECT 'team-u-' || i, 'user' || i || '@team.example', 'User ' || i, 0 FROM n`,
  )
    .bind(TEAM_USERS)
    .run();
  const now = Date.now();
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?1)
     INSERT INTO sessions (id, owner_id, machine_id, agent_id, cwd, title, status, created_at, last_activity_at, first_prompt)
     SELECT 'team-s-' || i, 'team-u-' || (i % CAST(?2 AS INTEGER)), ?3, 'demo', '/work/service-' || (i % 80), 'Demo · service-' || (i % 80), 'idle', ?4, CAST(?4 AS INTEGER) + i, 'task ' || i FROM n`,
  )
    .bind(TEAM_SESSIONS, TEAM_USERS, machineId, now - 86_400_000)
    .run();
  for (let k = 0; k < TEAM_MEMBERS_PER_SESSION; k++)
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?1)
       INSERT INTO session_members (session_id, user_id, role, seen_at) SELECT 'team-s-' || i, 'team-u-' || ((i + CAST(?2 AS INTEGER)) % CAST(?3 AS INTEGER)), ?4, 0 FROM n`,
    )
      .bind(TEAM_SESSIONS, k, TEAM_USERS, k === 0 ? "owner" : "member")
      .run();
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?1)
     INSERT INTO session_members (session_id, user_id, role, seen_at) SELECT 'team-s-' || i, ?2, 'member', 0 FROM n`,
  )
    .bind(TEAM_SESSIONS, me)
    .run();
  const team = await join();
  const visible = TEAM_SESSIONS + have;

  // Every team member's list open; one change to one session (owner + 2 teammates + the dev user).
  const feeds = new Map<string, FeedSocket>();
  for (let u = 0; u < TEAM_USERS; u++) feeds.set(`team-u-${u}`, await FeedSocket.of(`team-u-${u}`));
  const all = [...feeds.values(), team.feed];
  const s = 4_321;
  const members = [0, 1, 2].map((k) => feeds.get(`team-u-${(s + k) % TEAM_USERS}`)!);
  const teamChange = await changeCost(all, [...members, team.feed], `team-s-${s}`, "renamed in the team");

  // The per-change cost against watchers: a session with W members, all with the list open.
  const perWatchers: { w: number; bytes: number; sockets: number }[] = [];
  for (const w of WATCHERS) {
    const id = `watched-${w}`;
    await insertSessions("watched", w, w + 1, me, machineId);
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?1)
       INSERT INTO session_members (session_id, user_id, role, seen_at) SELECT ?2, 'team-u-' || i, 'viewer', 0 FROM n WHERE i < ?1`,
    )
      .bind(w - 1, id)
      .run();
    const watchers = [team.feed, ...Array.from({ length: w - 1 }, (_, i) => feeds.get(`team-u-${i}`)!)];
    const c = await changeCost(all, watchers, id, `watched by ${w}`);
    perWatchers.push({ w, bytes: c.bytes, sockets: c.sockets });
  }
  for (const f of all) f.close();

  const [small, big] = joins as [(typeof joins)[0], (typeof joins)[0]];
  const joinBytes = (j: { hello: number; page: number }) => j.hello + j.page;
  const growth = joinBytes(team) / joinBytes(small);
  row({
    figure: "session list join: first page + feed hello, 100 → 1,000 sessions (one user) → 11,000 visible (team member)",
    measured: `${KB(joinBytes(small))} → ${KB(joinBytes(big))} → ${KB(joinBytes(team))} (${big.rows} rows on the first page; hello ${small.hello} B); ${small.ms.toFixed(0)} → ${big.ms.toFixed(0)} → ${team.ms.toFixed(0)} ms in workerd`,
    ratio: +growth.toFixed(2),
    target: "flat (≤ 1.2×)",
    ok: growth <= 1.2,
    data: { joins, team: { visible, hello: team.hello, page: team.page, ms: Math.round(team.ms) } },
  });
  row({
    figure: "session list: bytes per change on the feed (one rename), 100 → 1,000 sessions of one user",
    measured: `${small.change} B → ${big.change} B (one upsert frame to the one open list)`,
    ratio: +(big.change / small.change).toFixed(2),
    target: "flat",
    ok: big.change / small.change <= 1.2,
  });
  const perWatcher = perWatchers.map((p) => p.bytes / p.w);
  const spread = Math.max(...perWatcher) / Math.min(...perWatcher);
  row({
    figure: `session list: one change in a team of ${TEAM_USERS.toLocaleString("en-US")} users / ${TEAM_SESSIONS.toLocaleString("en-US")} sessions, every list open`,
    measured: `${teamChange.sockets} of ${all.length} feed sockets got it (the session's 3 members + the lead), ${teamChange.bytes} B in all; by watchers ${perWatchers.map((p) => `${p.w}: ${p.sockets} sockets ${KB(p.bytes)}`).join(", ")} (${perWatcher.map((b) => b.toFixed(0)).join(" / ")} B per watcher)`,
    ratio: +spread.toFixed(2),
    target: "O(watchers): only members hear it; bytes per watcher flat (≤ 1.2×)",
    ok: teamChange.sockets === 4 && perWatchers.every((p) => p.sockets === p.w) && spread <= 1.2,
    data: { teamChange, perWatchers },
  });
});
