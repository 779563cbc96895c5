/**
 * Reliability scenarios (issue 8), parameterised by size so `npm test` runs them bounded and `npm run soak`
 * runs them longer. Each returns its figure; callers print it (test/figure.ts) and assert on it.
 */
import { abortAllDurableObjects, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { fold, initialSessionState } from "../../shared/fold";
import { MAX_ID_LENGTH, MAX_QUEUE_BYTES, MAX_QUEUE_DEPTH, MAX_TUNNEL_BACKLOG_BYTES, MAX_TUNNEL_FRAME_BYTES, MAX_VIEWER_FRAME_BYTES, RATE_NOTICE_WINDOW_MS, SETTLED_RING_SIZE } from "../../shared/limits";
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import { newSession, setupSession, TestDaemon, TestViewer, text, waitFor } from "./harness";

const room = (id: string) => env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(id));
const machine = (id: string) => env.MACHINE.get(env.MACHINE.idFromName(id));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** An op sent after a flood is answered once the room has worked through the flood's frames before it: ~2 s alone here, past 5 s in a loaded CI run (the file took 5× its time alone there). */
const BEHIND_FLOOD_MS = 60_000;
const chunk = (sessionId: string, t: string): DaemonEvent => ({
  t: "session.update",
  sessionId,
  update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } },
});

/** What a viewer shows: queue, status, transcript rows (row ids are render keys and may differ by path). */
export function viewState(v: TestViewer): string {
  const s = v.frames.reduce(fold, initialSessionState());
  return JSON.stringify({
    queue: s.queue.map((e) => [e.id, e.state]),
    status: s.status,
    turnActive: s.turnActive,
    rows: s.rows.map(({ id: _id, ...row }) => row),
  });
}

/** A fresh viewer's state of the session, to compare reattached viewers against. */
async function freshState(sessionId: string): Promise<string> {
  const fresh = await TestViewer.open(sessionId, 0);
  const state = viewState(fresh);
  fresh.close();
  return state;
}

/** Closes and reopens a viewer with its cursor, keeping its frames (so its fold spans the reconnect). */
async function reattach(v: TestViewer, sessionId: string): Promise<void> {
  v.close();
  await v.connect(sessionId, v.seq);
}

// ------------------------------------------------------------------------------------------ durability

export type DurabilityFigure = { rounds: number; lost: number; twice: number; mismatched: number; convergeMs: number[] };

/**
 * Each round: a turn runs with a queued entry and a viewer attached; the room is evicted (odd rounds) or every
 * DO is aborted (even rounds, the daemon reconnects); the viewer reattaches with its cursor and must show the
 * same queue, status and transcript as a fresh viewer; the turn ends and the queued entry flushes.
 */
export async function durabilityRounds(rounds: number): Promise<DurabilityFigure> {
  const { daemon, sessionId } = await setupSession();
  const v = await TestViewer.open(sessionId);
  await waitFor(() => v.lastStatus()?.state === "idle", "idle");
  await v.op({ op: "message.send", id: "r0", blocks: text("start") });
  const expected = ["r0"];
  const fig: DurabilityFigure = { rounds, lost: 0, twice: 0, mismatched: 0, convergeMs: [] };
  for (let round = 1; round <= rounds; round++) {
    const id = `r${round}`;
    const ack = await v.op({ op: "message.send", id, blocks: text(id) });
    if (ack.type !== "ack" || ack.result.queued !== true) throw new Error(`round ${round}: send not queued: ${JSON.stringify(ack)}`);
    expected.push(id);
    daemon.emit(chunk(sessionId, `partial ${round} `));
    await daemon.settle();
    await waitFor(() => v.ofKind("acp").length >= round, "chunk seen before the fault");
    if (round % 2) await evictDurableObject(room(sessionId));
    else {
      await abortAllDurableObjects();
      await daemon.connect([{ sessionId, busy: true }]);
    }
    const t0 = Date.now();
    await reattach(v, sessionId);
    const fresh = await freshState(sessionId);
    fig.convergeMs.push(Date.now() - t0);
    if (viewState(v) !== fresh) fig.mismatched++;
    if (!v.lastQueue()?.entries.some((e) => e.id === id)) fig.lost++;
    await daemon.finishTurn(sessionId);
    await waitFor(() => daemon.prompts(sessionId).some((p) => p.messageId === id), `flush ${id}`);
  }
  const ran = daemon.prompts(sessionId).map((p) => p.messageId);
  fig.twice = ran.length - new Set(ran).size;
  fig.lost += expected.filter((id) => !ran.includes(id)).length;
  // Followed along through every fault, the viewer still matches a fresh one at the end.
  await daemon.finishTurn(sessionId);
  await waitFor(() => v.lastStatus()?.state === "idle", "idle at the end");
  if (viewState(v) !== (await freshState(sessionId))) fig.mismatched++;
  v.close();
  daemon.close();
  return fig;
}

// ------------------------------------------------------------------------------------------ storms

export type StormFigure = {
  sessions: number;
  viewers: number;
  rounds: number;
  diverged: number;
  /** Viewers showing a message of another session, or sessions whose agent got another session's prompt. */
  crossed: number;
  convergeMs: number[];
};

/**
 * `sessions` sessions on one machine, `viewersPerSession` viewers each, turns running. Each round every viewer
 * of every session drops at once; while they are away each agent keeps streaming and a message is queued; they
 * return at once with jitter. Converged = every viewer shows exactly what a fresh viewer of its session shows.
 */
export async function reconnectStorm(sessions: number, viewersPerSession: number, rounds: number, jitterMs = 100): Promise<StormFigure> {
  const first = await setupSession();
  const { daemon } = first;
  const ids = [first.sessionId];
  await machine(first.machineId).setBudget(sessions);
  for (let i = 1; i < sessions; i++) ids.push(await newSession(first.machineId));
  await waitFor(() => ids.every((id) => daemon.of("session.open").some((c) => c.sessionId === id)), "every session opened", 15_000);
  await daemon.settle();
  const viewers = await Promise.all(ids.map((id) => Promise.all(Array.from({ length: viewersPerSession }, () => TestViewer.open(id)))));
  await waitFor(() => viewers.every((vs) => vs[0]!.lastStatus()?.state === "idle"), "all idle", 15_000);
  await Promise.all(ids.map((id, s) => viewers[s]![0]!.op({ op: "message.send", id: `${id}-turn`, blocks: text("stream") })));
  await waitFor(() => ids.every((id) => daemon.prompts(id).length === 1), "a turn per session", 15_000);
  const fig: StormFigure = { sessions, viewers: sessions * viewersPerSession, rounds, diverged: 0, crossed: 0, convergeMs: [] };
  let sent = 0;
  for (let round = 1; round <= rounds; round++) {
    for (const id of ids) for (let i = 0; i < 5; i++) daemon.emit(chunk(id, `${sent++} `));
    await daemon.settle();
    for (const vs of viewers) for (const v of vs) v.close();
    // While everyone is away: more output everywhere, and a message queued (and then cancelled) per session.
    for (const id of ids) for (let i = 0; i < 5; i++) daemon.emit(chunk(id, `${sent++} `));
    await daemon.settle();
    await Promise.all(
      ids.map(async (id, s) => {
        const q = await TestViewer.open(id);
        await q.op({ op: "message.send", id: `${id}-q${round}`, blocks: text(`queued in round ${round}`) });
        if (round < rounds) await q.op({ op: "queue.cancel", id: `${id}-q${round}` });
        q.close();
        return s;
      }),
    );
    const t0 = Date.now();
    await Promise.all(
      viewers.flat().map(async (v, i) => {
        await sleep((i * 7919) % jitterMs); // jittered return
        await v.connect(ids[Math.floor(i / viewersPerSession)]!, v.seq);
      }),
    );
    const want = await Promise.all(ids.map(freshState));
    fig.convergeMs.push(Date.now() - t0);
    viewers.forEach((vs, s) => vs.forEach((v) => viewState(v) !== want[s] && fig.diverged++));
  }
  viewers.forEach((vs, s) =>
    vs.forEach((v) => {
      if (!v.ofKind("user_message").every((m) => m.id.startsWith(ids[s]!))) fig.crossed++;
    }),
  );
  fig.crossed += ids.filter((id) => daemon.prompts(id).map((p) => p.messageId).join() !== `${id}-turn`).length;
  for (const vs of viewers) for (const v of vs) v.close();
  daemon.close();
  return fig;
}

// ------------------------------------------------------------------------------------------ hostile viewers

/** Rows per table and bytes of stored content (UTF-8) in a room's SQLite. */
export type RoomSize = { rows: Record<string, number>; bytes: number };

const CONTENT_COLUMNS: Record<string, string[]> = {
  events: ["body"],
  queue: ["blocks", "author"],
  settled: ["id", "ack"],
  requests: ["body"],
  room_state: ["body"],
  meta: ["value"],
};

export async function roomSize(sessionId: string): Promise<RoomSize> {
  return runInDurableObject(room(sessionId), async (_instance, state) => {
    const sql = state.storage.sql;
    const rows: Record<string, number> = {};
    let bytes = 0;
    for (const [table, cols] of Object.entries(CONTENT_COLUMNS)) {
      const sum = cols.map((c) => `COALESCE(SUM(LENGTH(CAST(${c} AS BLOB))), 0)`).join(" + ");
      const r = sql.exec<{ c: number; b: number }>(`SELECT COUNT(*) AS c, ${sum} AS b FROM ${table}`).one();
      rows[table] = r.c;
      bytes += r.b;
    }
    return { rows, bytes };
  });
}

export type FloodFigure = {
  frames: number;
  codes: Record<string, number>;
  before: RoomSize;
  after: RoomSize;
  /** The other viewer's ops during and after the flood were answered as usual, and its prompt reached the agent. */
  bystanderOk: boolean;
  ms: number;
};

/**
 * One viewer floods message.send (near-limit prompts, fresh ids) and queue.edit while a turn runs with the
 * queue at depth MAX_QUEUE_DEPTH; a second viewer keeps working. Storage and queue must stay bounded.
 */
export async function viewerFlood(frames: number): Promise<FloodFigure> {
  const { daemon, sessionId } = await setupSession();
  const flooder = await TestViewer.open(sessionId);
  const bystander = await TestViewer.open(sessionId);
  await waitFor(() => flooder.lastStatus()?.state === "idle", "idle");
  await bystander.op({ op: "settings.set", queueDepth: MAX_QUEUE_DEPTH });
  await bystander.op({ op: "message.send", id: "running", blocks: text("long turn") });
  const before = await roomSize(sessionId);
  const big = "€".repeat(100_000); // 300 KB of UTF-8 per prompt: a few fill the queue's byte budget
  const t0 = Date.now();
  for (let i = 0; i < frames; i++) {
    const op =
      i % 4 === 3
        ? { op: "queue.edit", rid: `f${i}`, id: `f${i - 3}`, blocks: text(`${big}${i}`) }
        : { op: "message.send", rid: `f${i}`, id: `f${i}`, blocks: text(i % 2 ? `small ${i}` : `${big}${i}`) };
    flooder.raw(JSON.stringify(op));
    if (i % 50 === 49) await sleep(0); // let the bystander's frames interleave
  }
  // Meanwhile the other viewer works as usual: it takes one of the flooder's entries off the queue.
  const cancel = await bystander.op({ op: "queue.cancel", id: "f0" }, BEHIND_FLOOD_MS);
  // Frames over the rate limit are dropped unanswered (one RATE_LIMITED per window); frames on one socket
  // are handled in order, so once a later op is answered every flooded frame has been seen.
  await flooder.drained(RATE_NOTICE_WINDOW_MS);
  const ms = Date.now() - t0;
  const codes: Record<string, number> = {};
  for (const f of flooder.frames) {
    if (f.type === "error") codes[f.code] = (codes[f.code] ?? 0) + 1;
    else if (f.type === "ack" && f.rid?.startsWith("f")) codes[`ack:${f.op}`] = (codes[`ack:${f.op}`] ?? 0) + 1;
  }
  const after = await roomSize(sessionId);
  // Then Stop (drops the flooder's queue), the turn ends, and the bystander's next prompt runs.
  const stop = await bystander.op({ op: "turn.cancel" });
  daemon.emit({ t: "turn.ended", sessionId, turnId: daemon.prompts(sessionId).at(-1)!.turnId, stopReason: "cancelled" });
  await daemon.settle();
  await waitFor(() => bystander.lastStatus()?.state === "idle", "idle after Stop");
  const send = await bystander.op({ op: "message.send", id: "bystander", blocks: text("still works") });
  await waitFor(() => bystander.ofKind("user_message").some((m) => m.id === "bystander"), "bystander echo");
  const bystanderOk =
    cancel.type === "ack" &&
    stop.type === "ack" &&
    send.type === "ack" &&
    send.result.queued === false &&
    daemon.prompts(sessionId).at(-1)?.messageId === "bystander";
  flooder.close();
  bystander.close();
  daemon.close();
  return { frames, codes, before, after, bystanderOk, ms };
}

/** Upper bounds a flooded room must stay within, whatever the number of flooded frames. */
export function floodBounds(before: RoomSize): { rows: Record<string, number>; bytes: number } {
  return {
    rows: { queue: MAX_QUEUE_DEPTH, settled: SETTLED_RING_SIZE + MAX_QUEUE_DEPTH, events: before.rows.events! + 4 * MAX_QUEUE_DEPTH },
    // The queue's prompts are bounded in bytes; settled ids (≤ MAX_ID_LENGTH) and acks are small.
    bytes: before.bytes + MAX_QUEUE_BYTES + (SETTLED_RING_SIZE + MAX_QUEUE_DEPTH) * (MAX_ID_LENGTH + 64) + 64 * 1024,
  };
}

// ------------------------------------------------------------------------------------------ hostile daemon

export type DaemonFloodFigure = {
  events: number;
  bytes: number;
  overloadCloses: number;
  rateLimitedErrors: number;
  oversizedRefused: boolean;
  delivered: number;
  duplicates: number;
  missing: number;
  ms: number;
};

/**
 * A daemon ignoring flow control: one oversized frame (refused, tunnel keeps working); a frame arriving with
 * the Machine's backlog full (refused, tunnel closed 1013, resent after reconnecting); then `frames` batch
 * frames of ~1 MiB sent at once. The viewer must see every event exactly once.
 */
export async function daemonFlood(frames: number): Promise<DaemonFloodFigure> {
  const { daemon, sessionId, machineId } = await setupSession();
  const v = await TestViewer.open(sessionId);
  await waitFor(() => v.lastStatus()?.state === "idle", "idle");
  await v.op({ op: "message.send", id: "flood-turn", blocks: text("go") });
  await waitFor(() => daemon.prompts(sessionId).length === 1, "turn forwarded");

  let overloadCloses = 0;
  let rateLimitedErrors = 0;
  const watch = (d: TestDaemon) => {
    const ws = d.ws;
    ws.addEventListener("close", (e) => {
      if (e.code === 1013) overloadCloses++;
    });
    ws.addEventListener("message", (e) => {
      const f = JSON.parse(e.data as string) as { type: string; code?: string };
      if (f.type === "error" && f.code === "RATE_LIMITED") rateLimitedErrors++;
    });
  };
  watch(daemon);

  // An oversized frame: refused with an error, nothing taken, the tunnel keeps working.
  const errorsBefore = daemon.frames.filter((f) => f.type === "error").length;
  daemon.ws.send(JSON.stringify({ type: "event", n: 1e6, event: chunk(sessionId, "x".repeat(MAX_TUNNEL_FRAME_BYTES)) }));
  await waitFor(() => daemon.frames.filter((f) => f.type === "error").length > errorsBefore, "oversized refused");
  const tooLarge = daemon.frames.filter((f) => f.type === "error").at(-1);
  daemon.emit(chunk(sessionId, "[after oversized]"));
  await daemon.settle();
  await waitFor(() => v.ofKind("acp").some((e) => (e.update as any).content?.text === "[after oversized]"), "tunnel still works");

  // Reconnects whenever the Machine closed the tunnel for overload; each welcome resends what is unacked.
  const deliverAll = async (lastN: number) => {
    const until = Date.now() + 120_000;
    while (daemon.acked < lastN && Date.now() < until) {
      if (daemon.ws.readyState === WebSocket.CLOSED || daemon.ws.readyState === WebSocket.CLOSING) {
        await sleep(50);
        await daemon.connect([{ sessionId, busy: true }]);
        watch(daemon);
      }
      await sleep(20);
    }
  };

  // The backlog limit itself, made deterministic: with the Machine's backlog filled as if its rooms stalled,
  // the next frame is refused (RATE_LIMITED + close 1013), nothing of it taken; the daemon resends it later.
  type Backlog = { intake: { drainingBytes: number } };
  const setDraining = (m: unknown, drainingBytes: number) => void ((m as Backlog).intake = { ...(m as Backlog).intake, drainingBytes });
  await runInDurableObject(machine(machineId), async (m) => setDraining(m, MAX_TUNNEL_BACKLOG_BYTES));
  const forcedN = daemon.emit(chunk(sessionId, "<0>refused while the backlog was full"));
  await waitFor(() => overloadCloses > 0 || daemon.ws.readyState !== WebSocket.OPEN, "overload close");
  await runInDurableObject(machine(machineId), async (m) => setDraining(m, 0));
  await deliverAll(forcedN);

  // The flood: ~1 MiB batch frames of numbered chunks, all at once, no waiting for acks.
  const PER_FRAME = 256;
  const pad = "y".repeat(3600);
  const events = Array.from({ length: frames * PER_FRAME }, (_, i) => chunk(sessionId, `<${i + 1}>${pad}`));
  const total = events.length + 1;
  const bytes = events.reduce((n, e) => n + JSON.stringify(e).length, 0);
  const t0 = Date.now();
  daemon.emitBatch(events);
  await deliverAll(daemon.unacked.at(-1)!.n);
  const indices = () =>
    v.ofKind("acp").flatMap((e) => {
      const m = /^<(\d+)>/.exec((e.update as { content?: { text?: string } }).content?.text ?? "");
      return m ? [Number(m[1])] : [];
    });
  const texts = await waitFor(() => indices().length >= total && indices(), "every flooded event at the viewer", 60_000).catch(indices);
  const ms = Date.now() - t0;
  const unique = new Set(texts);
  const figure: DaemonFloodFigure = {
    events: total,
    bytes,
    overloadCloses,
    rateLimitedErrors,
    oversizedRefused: tooLarge?.type === "error" && tooLarge.code === "FRAME_TOO_LARGE",
    delivered: texts.length,
    duplicates: texts.length - unique.size,
    missing: total - unique.size,
    ms,
  };
  v.close();
  daemon.close();
  return figure;
}

// ------------------------------------------------------------------------------------------ hostile, then normal use

export type HostileThenNormalFigure = { runs: number; stalls: number; where: string[]; convergeMs: number[] };

/**
 * Issue 19 #6. Each run: one socket bursts malformed input (junk, wrong shapes, oversized and big frames),
 * then other viewers use the session normally at once: a send runs, a second is queued, the turn ends and
 * the queued one flushes, and a fresh join sees each message exactly once and gets `ready`. A step that
 * does not complete within `stepMs` is a stall (recorded with where it happened).
 */
export async function hostileThenNormal(runs: number, stepMs = 10_000): Promise<HostileThenNormalFigure> {
  const where: string[] = [];
  const convergeMs: number[] = [];
  for (let run = 0; run < runs; run++) {
    const { daemon, sessionId } = await setupSession();
    const hostile = await TestViewer.open(sessionId);
    const user = await TestViewer.open(sessionId);
    await waitFor(() => user.lastStatus()?.state === "idle", "idle");
    const t0 = Date.now();
    let step = "burst";
    try {
      for (let i = 0; i < 400; i++) {
        const k = i % 8;
        hostile.raw(
          k === 0 ? `not json ${i}`
          : k === 1 ? JSON.stringify([i])
          : k === 2 ? JSON.stringify({ op: "message.send", rid: `h${i}`, id: `h${i}` })
          : k === 3 ? JSON.stringify({ op: "nope", rid: `h${i}` })
          : k === 4 ? "z".repeat(MAX_VIEWER_FRAME_BYTES + 1)
          : k === 5 ? JSON.stringify({ op: "queue.move", rid: `h${i}`, id: 5 })
          : k === 6 ? JSON.stringify({ op: "message.send", rid: `h${i}`, id: `h${i}`, blocks: text("   ") })
          : "{",
        );
      }
      step = "send";
      const sent = await user.op({ op: "message.send", id: `m${run}`, blocks: text(`first ${run}`) }, stepMs);
      if (sent.type !== "ack" || sent.result.queued) throw new Error(`send answered ${JSON.stringify(sent)}`);
      step = "prompt reaches the daemon";
      await waitFor(() => daemon.prompts(sessionId).some((p) => p.messageId === `m${run}`), step, stepMs);
      step = "queue";
      const queued = await user.op({ op: "message.send", id: `q${run}`, blocks: text(`second ${run}`) }, stepMs);
      if (queued.type !== "ack" || !queued.result.queued) throw new Error(`queue answered ${JSON.stringify(queued)}`);
      step = "flush";
      await daemon.finishTurn(sessionId);
      await waitFor(() => daemon.prompts(sessionId).some((p) => p.messageId === `q${run}`), step, stepMs);
      step = "fresh join";
      const fresh = new TestViewer();
      await Promise.race([fresh.connect(sessionId, 0), sleep(stepMs).then(() => Promise.reject(new Error("no ready")))]);
      const echoes = (id: string) => fresh.ofKind("user_message").filter((m) => m.id === id).length;
      if (echoes(`m${run}`) !== 1 || echoes(`q${run}`) !== 1) throw new Error(`fresh join shows m×${echoes(`m${run}`)} q×${echoes(`q${run}`)}`);
      fresh.close();
      convergeMs.push(Date.now() - t0);
    } catch (err) {
      where.push(`run ${run}: ${step}: ${err instanceof Error ? err.message : String(err)}`);
    }
    hostile.close();
    user.close();
    daemon.close();
  }
  return { runs, stalls: where.length, where, convergeMs };
}
