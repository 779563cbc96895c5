/**
 * HAPI's side of the side-by-side join / catch-up / live benchmarks (issue 20), in Node against its
 * hub binary (bench/peers/hapi-hub.ts). Same turns as Baton's side (bench/join.bench-run.ts); bench/run.mjs
 * prints the two side by side. What a viewer is sent is what HAPI's web app (0.30.7, read from its
 * bundle) asks for:
 * - join: the session (`GET /api/sessions/:id`), the latest page (`GET …/messages?limit=20`) and the
 *   SSE subscription (`GET /api/events?sessionId=…`) up to its first event; older pages only on scroll;
 * - catch-up: its SSE reconnect with `lastEventId`; when the hub answers `resume: ok` it replays the
 *   missed events from its ring (≤ 256 events / 2 MiB) and the app fetches nothing else; on a gap it
 *   refetches the session and tail-syncs, pages of ≤ 200 after the newest message it had
 *   (`afterAt/afterSeq`, bounded by the first page's snapshot head) until `hasMore` is false;
 * - live: an agent message sent on the CLI socket → the SSE event on a viewer's stream.
 * Bytes: the bodies as sent (gzip: the hub compresses REST and SSE for a browser) and decoded.
 */
import { afterAll, beforeAll, it } from "vitest";
import { z } from "zod";
import { turnAnswer } from "../session-content";
import { HapiHub, type HapiSession, type Page } from "./hapi-hub";

type Row = { figure: string; measured: string; hidden?: boolean; data?: Record<string, unknown> };
const row = (r: Row) => console.log(`BENCH_ROW ${JSON.stringify(r)}`);

/** The web app's latest-page size on join and its tail-sync page size (its bundle: 20 and 200). */
const LATEST_PAGE = 20;
const TAIL_PAGE = 200;
/** Joins per figure; the median time is reported. */
const JOINS = 3;
/** Messages handed to the CLI socket before waiting for the hub to store them. */
const FILL_BATCH = 500;
const LIVE_MESSAGES = 40;
const LIVE_GAP_MS = 50;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const KB = (b: number) => `${(b / 1024).toFixed(1)} KB`;

const hub = new HapiHub();
beforeAll(() => hub.start(), 60_000);
afterAll(() => hub.stop());

async function fill(s: HapiSession, turns: number): Promise<void> {
  const until = s.turns + turns;
  while (s.turns < until) {
    const end = Math.min(until, s.turns + FILL_BATCH);
    for (let t = s.turns; t < end; t++) s.sendAnswer(turnAnswer(t));
    s.turns = end;
    const deadline = Date.now() + 120_000;
    while ((await s.headSeq()) < s.turns) {
      if (Date.now() > deadline) throw new Error(`HAPI stored fewer than ${s.turns} messages in 120 s`);
      await sleep(20);
    }
  }
}

type Join = { wire: number; decoded: number; ms: number; page: Page };

/** A viewer opening the session: session + latest page + SSE until its first event. */
async function join(s: HapiSession): Promise<Join> {
  const t0 = performance.now();
  let first: (() => void) | null = null;
  const firstEvent = new Promise<void>((r) => (first = r));
  const [session, latest, sse] = await Promise.all([
    hub.get(`/api/sessions/${s.id}`),
    hub.page(s.id, `limit=${LATEST_PAGE}`),
    hub.subscribe(s.id, () => first?.()),
  ]);
  await firstEvent;
  const ms = performance.now() - t0;
  const wire = session.wire + latest.fetched.wire + sse.wire;
  const decoded = session.decoded + latest.fetched.decoded + sse.decoded;
  sse.close();
  return { wire, decoded, ms, page: latest.page };
}

async function joins(s: HapiSession): Promise<Join> {
  const all: Join[] = [];
  for (let i = 0; i < JOINS; i++) all.push(await join(s));
  return { ...all[0]!, ms: median(all.map((j) => j.ms)) };
}

it("HAPI join: 100 / 1,000 / 10,000 turns", async () => {
  const s = await hub.openSession();
  for (const turns of [100, 1000, 10_000]) {
    await fill(s, turns - s.turns);
    const j = await joins(s);
    const size = `${turns.toLocaleString("en-US")} turns`;
    const data = { peer: "hapi", kind: "join", bytes: j.wire, decoded: j.decoded, ms: Math.round(j.ms) };
    row({ figure: `HAPI join, ${size}`, measured: `${KB(j.wire)} gzip on the wire (${KB(j.decoded)} decoded), ${j.ms.toFixed(0)} ms`, hidden: true, data: { ...data, size } });
    // HAPI buffers an ACP segment's chunks into one message: the 100k-event session is these same 1,000 messages.
    if (turns === 1000) row({ figure: `HAPI join, 1,000 turns as 100k events`, measured: "same messages as 1,000 turns", hidden: true, data: { ...data, size: "1,000 turns as 100k events" } });
  }
  s.close();
}, 900_000);

/** The `connection-changed` handshake's resume verdict (its web app: `ok` → the SSE replay is all; else resync). */
const Handshake = z.object({ type: z.literal("connection-changed"), data: z.object({ resume: z.string().optional() }).passthrough() });

it("HAPI catch-up: a viewer at the head of 1,000 turns loses its connection, 10 / 150 / 2,000 more land, it reconnects", async () => {
  for (const missed of [10, 150, 2000]) {
    const s = await hub.openSession();
    await fill(s, 999);
    // Joined and live: it has the page and the 1,000th turn arrived on its SSE stream (so it holds an event id).
    const before = await join(s);
    let live = 0;
    const sse = await hub.subscribe(s.id, (data) => void (data.includes("message-received") && live++));
    await fill(s, 1);
    const deadline = Date.now() + 10_000;
    while (live < 1 && Date.now() < deadline) await sleep(10);
    const lastId = sse.lastId;
    sse.close();
    if (!lastId) throw new Error("HAPI's SSE stream carried no event id to resume from");
    await fill(s, missed);
    // Reconnect as its web app does: SSE with lastEventId; `resume: ok` → the hub replays what was missed
    // and the app fetches nothing else; a gap → its resync: the session again and the tail sync pages.
    const t0 = performance.now();
    let resume = "";
    let replayed = 0;
    const back = await hub.subscribe(
      s.id,
      (data) => {
        const h = Handshake.safeParse(JSON.parse(data));
        if (h.success) resume = h.data.data.resume ?? "none";
        else if (data.includes("message-received")) replayed++;
      },
      lastId,
    );
    const until = Date.now() + 60_000;
    while (!resume && Date.now() < until) await sleep(10);
    let wire = 0;
    let decoded = 0;
    let how: string;
    let doneAt: number;
    if (resume === "ok") {
      while (replayed < missed && Date.now() < until) await sleep(10);
      doneAt = performance.now();
      await sleep(200); // bytes: anything the replay sends after the last message
      how = `SSE resume replay (${replayed} messages)`;
    } else {
      const session = await hub.get(`/api/sessions/${s.id}`);
      wire += session.wire;
      decoded += session.decoded;
      const head = before.page.messages.at(-1)!;
      const pages = await tailSync(s, { at: head.createdAt, seq: head.seq }, before.page.page.epoch ?? 0);
      wire += pages.wire;
      decoded += pages.decoded;
      how = `resume "${resume}" → session + tail sync in ${pages.pages} page${pages.pages > 1 ? "s" : ""}`;
      doneAt = performance.now();
    }
    const ms = doneAt - t0;
    wire += back.wire;
    decoded += back.decoded;
    back.close();
    s.close();
    const size = `${missed.toLocaleString("en-US")} turns`;
    row({
      figure: `HAPI catch-up after ${size}`,
      measured: `${KB(wire)} gzip on the wire (${KB(decoded)} decoded): ${how}, ${ms.toFixed(0)} ms`,
      hidden: true,
      data: { peer: "hapi", kind: "catchup", size, bytes: wire, decoded, how, ms: Math.round(ms) },
    });
  }
}, 900_000);

/** Its web app's tail sync: pages of ≤ 200 after the newest message it had, bounded by the first page's head. */
async function tailSync(s: HapiSession, from: { at: number; seq: number }, epoch: number) {
  let wire = 0;
  let decoded = 0;
  let pages = 0;
  let after = from;
  let until: { at: number; seq: number } | null = null;
  for (;;) {
    const q = new URLSearchParams({ afterAt: String(after.at), afterSeq: String(after.seq), epoch: String(epoch), limit: String(TAIL_PAGE) });
    if (until) q.set("untilAt", String(until.at)), q.set("untilSeq", String(until.seq));
    const { fetched, page } = await hub.page(s.id, q.toString());
    wire += fetched.wire;
    decoded += fetched.decoded;
    pages++;
    if (page.page.reset || page.page.direction === "latest" || !page.page.hasMore) break;
    if (page.page.nextAfterAt === null || page.page.nextAfterSeq === null) break;
    after = { at: page.page.nextAfterAt, seq: page.page.nextAfterSeq };
    if (!until && page.page.snapshotHeadAt !== null && page.page.snapshotHeadSeq !== null) until = { at: page.page.snapshotHeadAt, seq: page.page.snapshotHeadSeq };
  }
  return { wire, decoded, pages };
}

it("HAPI live: an agent message → a viewer's SSE stream, p50 / p90", async () => {
  const s = await hub.openSession();
  await fill(s, 100);
  const got = new Map<number, number>();
  const sse = await hub.subscribe(s.id, (data, at) => {
    for (const m of data.matchAll(/live-(\d+)/g)) if (!got.has(Number(m[1]))) got.set(Number(m[1]), at);
  });
  await sleep(300);
  const sent = new Map<number, number>();
  for (let i = 0; i < LIVE_MESSAGES; i++) {
    sent.set(i, performance.now());
    s.sendAnswer(`live-${i} ${turnAnswer(i)}`);
    await sleep(LIVE_GAP_MS);
  }
  const deadline = Date.now() + 30_000;
  while (got.size < LIVE_MESSAGES && Date.now() < deadline) await sleep(20);
  sse.close();
  s.close();
  if (got.size < LIVE_MESSAGES) throw new Error(`HAPI delivered ${got.size} of ${LIVE_MESSAGES} live messages`);
  const lat = [...sent].map(([i, t]) => got.get(i)! - t);
  const p50 = pct(lat, 50);
  const p90 = pct(lat, 90);
  row({ figure: "HAPI live", measured: `p50 ${p50.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms`, hidden: true, data: { peer: "hapi", kind: "live", size: "answer", p50, p90 } });
}, 300_000);
