/**
 * Baton's side of the side-by-side join / catch-up / live benchmarks (issue 20), in workerd. The same
 * turns (bench/session-content.ts) go into HAPI in bench/peers/hapi.bench-run.ts; bench/run.mjs puts
 * the two side by side. Sessions are filled through the real path (tunnel → Machine → room), as a
 * daemon streams them: each answer in CHUNKS_PER_TURN `agent_message_chunk` events.
 *
 * Bytes are what the viewer's socket receives until `ready` (the WebSocket messages' UTF-8 payload;
 * workerd sends them uncompressed here), plus for reference the same frames deflated as one stream —
 * what permessage-deflate with context takeover would put on the wire (an estimate, not measured).
 * Time: upgrade request → `ready` received, through the Worker (auth, directory, upgrade).
 */
import { exports } from "cloudflare:workers";
import { it } from "vitest";
import { z } from "zod";
import { JOIN_WINDOW_ROWS } from "../shared/limits";
import type { DaemonEvent } from "../shared/tunnel-protocol";
import { ORIGIN, TestViewer, setupSession, waitFor } from "../test/worker/harness";
import { PacedDaemon } from "./paced-daemon";
import { chunksOf, turnAnswer, utf8Bytes } from "./session-content";

type Row = { figure: string; measured: string; ratio?: number; target?: string; ok?: boolean; data?: Record<string, unknown> };
const row = (r: Row) => console.log(`BENCH_ROW ${JSON.stringify(r)}`);

/** Chunks a streamed answer arrives in (a few per answer, as agents send them). */
const CHUNKS_PER_TURN = 4;
/** Chunks per answer in the long-log case: 1,000 turns streamed finely make ~100k events. */
const FINE_CHUNKS = 100;
/** Rows the client's transcript mounts at the bottom (= the join window). */
const RENDERED_ROWS = JOIN_WINDOW_ROWS;
/** Joins per figure (bytes are the same each time; the median time is reported). */
const JOINS = 3;
/** Events the producer hands the send window per macrotask while filling. */
const FILL_TICK = 200;
/** Live latency: messages, spaced so each one is alone on the wire. */
const LIVE_MESSAGES = 40;
const LIVE_GAP_MS = 50;

/** The frame that ends a viewer's replay. */
const Ready = z.object({ type: z.literal("ready"), seq: z.number() });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const KB = (b: number) => `${(b / 1024).toFixed(1)} KB`;

type Session = { sessionId: string; daemon: PacedDaemon; close(): Promise<void>; turns: number };

async function newSession(): Promise<Session> {
  const { daemon, sessionId } = await setupSession();
  const paced = new PacedDaemon(daemon.ws, (daemon as unknown as { n: number }).n);
  // Closing waits until the room has heard the Machine go offline: that call still in flight when the
  // file ends fails the run with vitest's "Closing rpc while … was pending".
  const close = async () => {
    const watcher = await TestViewer.open(sessionId);
    daemon.close();
    await waitFor(() => watcher.lastStatus()?.state === "offline", "the room sees the machine offline", 30_000);
    watcher.close();
  };
  return { sessionId, daemon: paced, close, turns: 0 };
}

/** Streams `turns` more answers into the session through the tunnel; resolves when all are acked. */
async function fill(s: Session, turns: number, chunks = CHUNKS_PER_TURN): Promise<void> {
  let tick: DaemonEvent[] = [];
  for (let t = s.turns; t < s.turns + turns; t++)
    for (const text of chunksOf(turnAnswer(t), chunks)) {
      tick.push({ t: "session.update", sessionId: s.sessionId, update: { sessionUpdate: "agent_message_chunk", messageId: `a${t}`, content: { type: "text", text } } });
      if (tick.length >= FILL_TICK) {
        s.daemon.send(tick);
        tick = [];
        await sleep(0);
      }
    }
  if (tick.length) s.daemon.send(tick);
  s.turns += turns;
  await waitFor(() => s.daemon.acked >= s.daemon.lastN, "fill acked", 600_000);
}

/** Bytes of the rows the client renders at the bottom: the newest RENDERED_ROWS answers' text. */
function renderedWindowBytes(turns: number): number {
  let b = 0;
  for (let t = Math.max(0, turns - RENDERED_ROWS); t < turns; t++) b += utf8Bytes(turnAnswer(t));
  return b;
}

/** Deflated size of the frames as one stream (permessage-deflate with context takeover, estimated). */
async function deflated(frames: string[]): Promise<number> {
  const stream = new Blob(frames).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

type Join = { bytes: number; deflate: number; ms: number; seq: number; frames: number };

/** One viewer joins with `after` and reads until `ready`. */
async function join(sessionId: string, after = 0): Promise<Join> {
  const frames: string[] = [];
  let seq: number | null = null;
  const t0 = performance.now();
  const res = await exports.default.fetch(`${ORIGIN}/api/sessions/${sessionId}/ws?after=${after}`, { headers: { Upgrade: "websocket", Origin: ORIGIN } });
  const ws = res.webSocket;
  if (!ws) throw new Error(`join: no websocket (${res.status})`);
  ws.addEventListener("message", (e) => {
    const s = String(e.data);
    frames.push(s);
    if (s.startsWith('{"type":"ready"')) seq = Ready.parse(JSON.parse(s)).seq;
  });
  ws.accept();
  await waitFor(() => seq !== null, "ready", 120_000);
  const ms = performance.now() - t0;
  ws.close(1000, "bye");
  return { bytes: frames.reduce((a, f) => a + utf8Bytes(f), 0), deflate: await deflated(frames), ms, seq: seq!, frames: frames.length };
}

async function joins(sessionId: string): Promise<Join> {
  const all: Join[] = [];
  for (let i = 0; i < JOINS; i++) all.push(await join(sessionId));
  return { ...all[0]!, ms: median(all.map((j) => j.ms)) };
}

function joinRow(size: string, events: number, windowBytes: number, j: Join) {
  const ratio = j.bytes / windowBytes;
  row({
    figure: `join, ${size}: Baton's bytes vs the rendered last window`,
    measured: `${KB(j.bytes)} in ${j.frames} frames until ready (${events.toLocaleString("en-US")} events logged; deflated ${KB(j.deflate)}), ${j.ms.toFixed(0)} ms to ready; the newest ${RENDERED_ROWS} rows' text ${KB(windowBytes)}`,
    ratio: +ratio.toFixed(2),
    target: "≤ 2×",
    ok: ratio <= 2,
    data: { peer: "baton", kind: "join", size, bytes: j.bytes, deflate: j.deflate, ms: Math.round(j.ms) },
  });
}

it("join: 100 / 1,000 / 10,000 turns and a 100k-event log, bytes and time to ready", async () => {
  const s = await newSession();
  const sizes = [100, 1000, 10_000];
  const bytes: number[] = [];
  for (const turns of sizes) {
    await fill(s, turns - s.turns);
    const j = await joins(s.sessionId);
    bytes.push(j.bytes);
    joinRow(`${turns.toLocaleString("en-US")} turns`, s.daemon.lastN, renderedWindowBytes(turns), j);
  }
  await s.close();
  const growth = bytes[2]! / bytes[0]!;
  row({
    figure: "join bytes as the session grows 100 → 10,000 turns (flat?)",
    measured: `${bytes.map(KB).join(" → ")}`,
    ratio: +growth.toFixed(2),
    target: "flat (≤ 1.2×)",
    ok: growth <= 1.2,
  });
  // The same 1,000 answers, each streamed in FINE_CHUNKS events: ~100k events in the log.
  const fine = await newSession();
  await fill(fine, 1000, FINE_CHUNKS);
  joinRow("1,000 turns as 100k events", fine.daemon.lastN, renderedWindowBytes(1000), await joins(fine.sessionId));
  await fine.close();
}, 900_000);

it("catch-up: a viewer at the head of 1,000 turns comes back after 10 / 150 / 2,000 more", async () => {
  for (const missed of [10, 150, 2000]) {
    const s = await newSession();
    await fill(s, 1000);
    const before = await join(s.sessionId);
    await fill(s, missed);
    const back = await join(s.sessionId, before.seq);
    await s.close();
    const missedBytes = Array.from({ length: missed }, (_, k) => utf8Bytes(turnAnswer(1000 + k))).reduce((a, b) => a + b, 0);
    row({
      figure: `catch-up after ${missed.toLocaleString("en-US")} missed turns (Baton)`,
      measured: `${KB(back.bytes)} in ${back.frames} frames until ready (deflated ${KB(back.deflate)}), ${back.ms.toFixed(0)} ms; the missed answers' text ${KB(missedBytes)}`,
      data: { peer: "baton", kind: "catchup", size: `${missed.toLocaleString("en-US")} turns`, bytes: back.bytes, deflate: back.deflate, ms: Math.round(back.ms) },
    });
  }
}, 900_000);

it("live: one answer message → a second viewer, p50 / p90", async () => {
  const s = await newSession();
  await fill(s, 100);
  const sockets: WebSocket[] = [];
  const got = new Map<number, number>();
  for (let v = 0; v < 2; v++) {
    const res = await exports.default.fetch(`${ORIGIN}/api/sessions/${s.sessionId}/ws?after=0`, { headers: { Upgrade: "websocket", Origin: ORIGIN } });
    const ws = res.webSocket!;
    ws.accept();
    sockets.push(ws);
    // The second viewer is the one measured (the first is the phone's companion, as in the run).
    if (v === 1)
      ws.addEventListener("message", (e) => {
        const now = performance.now();
        for (const m of String(e.data).matchAll(/live-(\d+)/g)) if (!got.has(Number(m[1]))) got.set(Number(m[1]), now);
      });
  }
  await sleep(200);
  const sent = new Map<number, number>();
  for (let i = 0; i < LIVE_MESSAGES; i++) {
    sent.set(i, performance.now());
    s.daemon.send([{ t: "session.update", sessionId: s.sessionId, update: { sessionUpdate: "agent_message_chunk", messageId: `live-${i}`, content: { type: "text", text: turnAnswer(i) } } }]);
    await sleep(LIVE_GAP_MS);
  }
  await waitFor(() => got.size >= LIVE_MESSAGES, "live delivered", 30_000);
  const lat = [...sent].map(([i, t]) => got.get(i)! - t);
  sockets.forEach((w) => w.close(1000, "bye"));
  await s.close();
  const p50 = pct(lat, 50);
  const p90 = pct(lat, 90);
  row({
    figure: "live: an answer → the second viewer's socket (Baton)",
    measured: `p50 ${p50.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms over ${LIVE_MESSAGES} messages ${LIVE_GAP_MS} ms apart (tunnel → Machine → room → viewer, in workerd)`,
    data: { peer: "baton", kind: "live", size: "answer", p50, p90 },
  });
}, 300_000);
