/**
 * Client render benchmark (Node + Debian Chromium): the real client code — socket, fold, store sync,
 * Transcript, stick-to-bottom, app CSS — built with Vite (production) and served by a small server
 * that plays the room: the join of a 5,000-row session as the real room sends it (RoomCore over an
 * in-memory SQLite builds the frames: the last window of rows, older ones paged on demand), then agent
 * chunks at 200/s, one frame each (the room's frame when events arrive one at a time). Measured in the page: long tasks
 * (PerformanceObserver "longtask") and dropped frames (requestAnimationFrame gaps), side by side with
 * the same stream into an empty transcript. Prints BENCH_ROW lines (see bench/run.mjs).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { build } from "vite";
import solid from "vite-plugin-solid";
import { afterAll, beforeAll, it } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import { fold, framesOf, initialSessionState } from "../../shared/fold";
import type { AgentConfig, DaemonEvent } from "../../shared/tunnel-protocol";
import type { ClientOp, ServerFrame, Viewer } from "../../shared/viewer-protocol";
import { memorySql } from "../../worker/testing/memory-sql";
import { RoomCore, type Replier } from "../../worker/session-room/room-core";
import { RoomStore } from "../../worker/session-room/room-store";
import { DESKTOP, launch, asPeopleHaveIt } from "../../test/e2e/browser";

type Row = { figure: string; measured: string; ratio?: number; target?: string; ok?: boolean };
const row = (r: Row) => console.log(`BENCH_ROW ${JSON.stringify(r)}`);

/** Transcript size under test, and the stream pushed into it. */
const ROWS = 5000;
const CHUNKS_PER_SECOND = 200;
const STREAM_SECONDS = 6;
/** Phone-class CPU for the throttled figures (issue 20): CDP slows the renderer's main thread this many times. */
const PHONE_THROTTLE = 4;
/** A frame at 60 Hz; a rAF gap longer than 1.5 of these lost at least one frame. */
const FRAME_MS = 1000 / 60;
/** Set to a file path to write a CPU profile of the 5k-row load there (unminified build), for finding hot spots. */
const PROFILE_TO = process.env.BENCH_PROFILE;
/** Set to a file path to write the Chromium trace of the 5k-row load there (open it in DevTools' Performance panel). */
const TRACE_LOAD_TO = process.env.BENCH_TRACE_LOAD;
/** Set to a file path to write the Chromium trace of the throttled stream there (the throttled figure's longest task). */
const TRACE_THROTTLED_STREAM_TO = process.env.BENCH_TRACE_STREAM;
/** Set to a .png path for a screenshot of the 5k-row page once loaded. */
const SCREENSHOT_TO = process.env.BENCH_SCREENSHOT;

const AUTHOR = { id: "u1", name: "Ada" };
const MD = [
  "Here is what I found in `worker/session-room`: the room **logs** every event before it fans out.",
  "- first, the `RoomStore` appends\n- then the frame goes to every socket\n- the viewer folds it",
  "```ts\nconst seq = store.append(kind, body);\nbroadcast(frame);\n```",
  "That keeps the order the same for everyone, and a late joiner gets a compacted snapshot.",
];

const OWNER: Viewer = { ...AUTHOR, role: "owner" };
const CONFIG: AgentConfig = { modes: null, models: null, configOptions: [], steering: false, images: false };

/**
 * A session of ~`rows` transcript rows (user, thought, tool, agent per turn) run through the real room
 * core, and the frames a viewer joining it gets — the same rules as the SessionRoom's (join window and all).
 */
async function roomJoin(rows: number): Promise<{ frames: string[]; headSeq: number; rowsSent: number }> {
  const store = new RoomStore(memorySql());
  let ids = 0;
  const core = new RoomCore(store, {
    broadcast: () => {},
    dispatch: async () => ({ ok: true }),
    directoryStatus: () => {},
    directoryActivity: () => {},
    directoryTitle: () => {},
    checkMachinePresence: async () => {},
    directoryNeedsYou: () => {},
    notify: () => {},
    now: () => 1_700_000_000_000 + ids * 60_000,
    newId: () => `turn${++ids}`,
    watched: () => true,
  });
  await core.init({ sessionId: "bench", machineId: "m", agentId: "demo", cwd: "/work", title: "bench", ownerId: AUTHOR.id });
  let n = 0;
  const daemon = (...events: DaemonEvent[]) => core.onDaemonEvents("e", events.map((event) => ({ n: ++n, event })));
  await daemon({ t: "session.ready", sessionId: "bench", agentSessionId: "a", config: CONFIG, resumed: false });
  const replier: Replier = { ack: () => {}, error: (_rid, code, message) => { throw new Error(`${code}: ${message}`); } };
  const update = (u: { sessionUpdate: string; [k: string]: unknown }): DaemonEvent => ({ t: "session.update", sessionId: "bench", update: u });
  for (let t = 0; t * 4 < rows; t++) {
    const op: ClientOp = { op: "message.send", rid: `r${t}`, id: `m${t}`, blocks: [{ type: "text", text: `Question ${t}: what does step ${t} do?` }] };
    await core.handleOp(OWNER, op, replier);
    await daemon(
      update({ sessionUpdate: "agent_thought_chunk", messageId: `th${t}`, content: { type: "text", text: `Thinking about step ${t}…` } }),
      update({ sessionUpdate: "tool_call", toolCallId: `tc${t}`, title: `Read file src/step-${t}.ts`, kind: "read", status: "completed", content: [{ type: "content", content: { type: "text", text: `// step ${t}\nexport const step = ${t};` } }] }),
      update({ sessionUpdate: "agent_message_chunk", messageId: `a${t}`, content: { type: "text", text: MD.join("\n\n") } }),
      { t: "turn.ended", sessionId: "bench", turnId: `turn${t + 1}`, stopReason: "end_turn" },
    );
  }
  const frames: string[] = [];
  core.replay(OWNER, 0, (text) => void frames.push(text));
  const state = frames.flatMap((f) => framesOf(JSON.parse(f) as ServerFrame)).reduce((acc, f) => fold(acc, f), initialSessionState());
  return { frames, headSeq: store.headSeq(), rowsSent: state.rows.length };
}

/** The room, played: the join as the room builds it (`roomJoin`, or an empty session); then `stream()` on demand. */
async function fakeRoom(rows: number) {
  const join = rows ? await roomJoin(rows) : null;
  let seq = join?.headSeq ?? 0;
  const sockets = new Set<WebSocket>();
  const send = (ws: WebSocket, f: unknown) => ws.send(JSON.stringify(f));
  return {
    /** Rows the viewer holds once joined (the window, not the session). */
    rowsSent: join?.rowsSent ?? 0,
    connect(ws: WebSocket) {
      sockets.add(ws);
      ws.on("close", () => sockets.delete(ws));
      if (join) {
        for (const f of join.frames) ws.send(f);
        return;
      }
      send(ws, { type: "welcome", sessionId: "bench", viewer: OWNER, headSeq: seq });
      send(ws, { type: "state", event: { kind: "queue_state", entries: [], flushed: false } });
      send(ws, { type: "state", event: { kind: "session_status", state: "idle", synthetic: true } });
      send(ws, { type: "ready", seq });
    },
    /** A new turn whose answer streams at `rate` chunks/s for `seconds`; resolves when all are sent. */
    async stream(rate: number, seconds: number): Promise<number> {
      const all = (f: unknown) => {
        const text = JSON.stringify(f);
        for (const ws of sockets) ws.send(text);
      };
      all({ type: "event", seq: ++seq, event: { kind: "user_message", id: "live-q", blocks: [{ type: "text", text: "Stream a long answer" }], author: AUTHOR, at: Date.now() } });
      all({ type: "event", seq: ++seq, event: { kind: "session_status", state: "active", turnId: "live" } });
      const words = MD.join("\n\n").split(/(?<=\s)/);
      const total = rate * seconds;
      const t0 = Date.now();
      for (let i = 0; i < total; i++) {
        const due = t0 + (i * 1000) / rate;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        all({ type: "event", seq: ++seq, event: { kind: "acp", update: { sessionUpdate: "agent_message_chunk", messageId: "live", content: { type: "text", text: words[i % words.length] } } } });
      }
      all({ type: "event", seq: ++seq, event: { kind: "session_status", state: "idle", stopReason: "end_turn" } });
      return total;
    },
  };
}

const MIME: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml" };

async function serve(dir: string, room: Awaited<ReturnType<typeof fakeRoom>>): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const file = join(dir, path === "/" || !extname(path) ? "index.html" : path);
    try {
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": MIME[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    if (!req.url?.startsWith("/api/sessions/bench/ws")) return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => room.connect(ws));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server };
}

/** Long-task and frame recorders (runs in the page; a second call starts over). */
function installRecorders(): void {
  const w = window as unknown as { __long: { at: number; ms: number }[]; __gaps: number[]; __stop: boolean; __obs?: PerformanceObserver; __firstFrame?: number };
  w.__obs?.disconnect();
  w.__long = [];
  w.__gaps = [];
  w.__stop = false;
  w.__obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__long.push({ at: e.startTime, ms: e.duration });
  });
  // When the first server frame arrived: long tasks before it are the page's boot, after it the replay's.
  if (!("__firstFrame" in w)) {
    w.__firstFrame = undefined;
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        this.addEventListener("message", () => {
          if (w.__firstFrame !== undefined) return;
          w.__firstFrame = performance.now();
          performance.mark("bench-first-frame"); // FIRST_FRAME_MARK (this function runs in the page)
        });
      }
    };
  }
  w.__obs.observe({ type: "longtask" });
  let last = performance.now();
  const tick = (t: number) => {
    if (w.__stop) return;
    w.__gaps.push(t - last);
    last = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

async function stopRecording(page: Page) {
  const { long, gaps, firstFrame } = await page.evaluate(() => {
    const w = window as unknown as { __long: { at: number; ms: number }[]; __gaps: number[]; __stop: boolean; __firstFrame?: number };
    w.__stop = true;
    return { long: w.__long, gaps: w.__gaps, firstFrame: w.__firstFrame ?? Infinity };
  });
  const dropped = gaps.reduce((n, g) => n + (g > FRAME_MS * 1.5 ? Math.round(g / FRAME_MS) - 1 : 0), 0);
  const longest = (tasks: { ms: number }[]) => Math.round(Math.max(0, ...tasks.map((t) => t.ms)));
  return {
    longest: longest(long),
    /** Longest task before the first server frame (module evaluation, first render) and from it on (replay, first paint). */
    bootLongest: longest(long.filter((t) => t.at < firstFrame)),
    replayLongest: longest(long.filter((t) => t.at >= firstFrame)),
    longTasks: long.length,
    dropped,
    frames: gaps.length + dropped,
  };
}

type TraceEvent = { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { name?: string } };

/** The page's mark (user timing, so it is in the trace) when its first server frame arrived. */
const FIRST_FRAME_MARK = "bench-first-frame";

/** Records a Chromium trace of the page (timeline + user timing) until `stop()`. */
async function startTrace(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  const trace: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", (d) => trace.push(...(d.value as unknown as TraceEvent[])));
  await cdp.send("Tracing.start", { categories: "devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing", transferMode: "ReportEvents" });
  return {
    async stop(): Promise<TraceEvent[]> {
      const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
      await cdp.send("Tracing.end");
      await done;
      return trace;
    },
  };
}

/** The renderer main thread's tasks (the thread that ran the page's layouts; names are not always reported). */
function mainThreadTasks(trace: TraceEvent[]): TraceEvent[] {
  const layout = trace.find((e) => e.name === "Layout");
  return trace.filter((e) => e.name === "RunTask" && e.ph === "X" && e.tdur !== undefined && e.pid === layout?.pid && e.tid === layout?.tid);
}

/** The longest of these tasks in thread CPU time, ms. */
function longestCpuMs(tasks: TraceEvent[]): number {
  return Math.round(Math.max(0, ...tasks.map((e) => e.tdur!)) / 1000);
}

/**
 * The longest of these tasks in wall-clock time, ms. Under CDP CPU throttling this is the figure: the
 * throttle suspends the thread, which thread CPU time (`tdur`) does not count.
 */
function longestWallMs(tasks: TraceEvent[]): number {
  return Math.round(Math.max(0, ...tasks.map((e) => e.dur!)) / 1000);
}

/** The load's main-thread CPU: longest task before the first server frame (boot) and from it on (replay, first paint). */
function loadCpu(trace: TraceEvent[]) {
  const mark = trace.find((e) => e.name === FIRST_FRAME_MARK)?.ts ?? Infinity;
  const tasks = mainThreadTasks(trace);
  // A task that began before the mark and holds it is the one that received the frame: the replay's.
  const boot = tasks.filter((e) => e.ts + e.dur! < mark);
  const replay = tasks.filter((e) => e.ts + e.dur! >= mark);
  return { marked: mark !== Infinity, bootMs: longestCpuMs(boot), replayMs: longestCpuMs(replay), replayWallMs: longestWallMs(replay) };
}

/**
 * The renderer main thread's own CPU time (trace `tdur`, immune to the machine's other load, unlike
 * wall-clock long tasks): the longest task and the busy share of the stream.
 */
function mainThreadCpu(trace: TraceEvent[], ms: number) {
  const mine = mainThreadTasks(trace);
  const busy = mine.reduce((a, e) => a + e.tdur!, 0) / 1000;
  return { longestCpuMs: longestCpuMs(mine), longestWallMs: longestWallMs(mine), busyPct: Math.round((busy / ms) * 100) };
}

let dir = "";
let browser: Browser;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "baton-render-bench-"));
  // Vitest sets NODE_ENV=test, which makes Vite resolve the `development` export condition: Solid's
  // dev build. Measure what `vite build` ships (NODE_ENV=production) instead.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  await build({
    configFile: false,
    root: join(import.meta.dirname),
    plugins: [solid({ dev: false })],
    mode: "production",
    logLevel: "warn",
    build: { outDir: dir, emptyOutDir: true, minify: !PROFILE_TO },
  }).finally(() => {
    process.env.NODE_ENV = nodeEnv;
  });
  if (readdirSync(join(dir, "assets")).some((f) => f.endsWith(".js") && readFileSync(join(dir, "assets", f), "utf8").includes("computations created outside")))
    throw new Error("the bench page was built with Solid's development build");
  browser = await launch();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Loads of the page, untraced, per first-render time figure (the median is reported). */
const UNTRACED_LOADS = 3;

/** Waits until the page is ready with the room's window mounted; returns that moment on the page's clock (ms since navigation start). */
async function mounted(page: Page, rowsSent: number): Promise<number> {
  const handle = await page.waitForFunction(
    (n) => {
      const w = window as unknown as { benchState?: { ready: boolean; rows: unknown[] }; benchMountedAt?: number };
      const s = w.benchState;
      // …and the transcript has mounted its whole window (a landing mounts it over a few tasks).
      if (!(!!s?.ready && s.rows.length >= n && !document.querySelector('.transcript[aria-busy="true"]'))) return 0;
      w.benchMountedAt ??= performance.now();
      return w.benchMountedAt;
    },
    rowsSent,
    { timeout: 120_000, polling: "raf" },
  );
  return Math.round(Number(await handle.jsonValue()));
}

/**
 * Navigation → the newest row mounted, on the page's own clock, with no trace or profiler attached
 * (tracing's own cost under CPU throttling is not what a reader waits for): the median of a few loads.
 */
async function firstRenderMs(rows: number, throttle: number): Promise<number> {
  const room = await fakeRoom(rows);
  const { url, server } = await serve(dir, room);
  const times: number[] = [];
  try {
    for (let i = 0; i < UNTRACED_LOADS; i++) {
      const context = await browser.newContext(asPeopleHaveIt(DESKTOP));
      try {
        const page = await context.newPage();
        if (throttle > 1) await (await context.newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: throttle });
        await page.goto(`${url}/`);
        times.push(await mounted(page, room.rowsSent));
      } finally {
        await context.close();
      }
    }
  } finally {
    server.close();
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

/** Loads the page against a room with `rows` rows, then streams; returns load and stream figures. */
async function run(rows: number, throttle = 1) {
  const room = await fakeRoom(rows);
  const { url, server } = await serve(dir, room);
  const context = await browser.newContext(asPeopleHaveIt(DESKTOP));
  const page = await context.newPage();
  try {
    if (throttle > 1) await (await context.newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: throttle });
    const profiler = PROFILE_TO && rows ? await context.newCDPSession(page) : null;
    if (profiler) {
      await profiler.send("Profiler.enable");
      await profiler.send("Profiler.setSamplingInterval", { interval: 200 });
      await profiler.send("Profiler.start");
    }
    const loadTrace = profiler ? null : await startTrace(context, page);
    const t0 = Date.now();
    await page.addInitScript(installRecorders);
    await page.goto(`${url}/`);
    await mounted(page, room.rowsSent);
    const loadMs = Date.now() - t0;
    const load = await stopRecording(page);
    const loadEvents = loadTrace ? await loadTrace.stop() : [];
    if (TRACE_LOAD_TO && rows) writeFileSync(TRACE_LOAD_TO, JSON.stringify(loadEvents));
    const loadCpuMs = loadTrace ? loadCpu(loadEvents) : { marked: false, bootMs: NaN, replayMs: NaN, replayWallMs: NaN };
    const rendered = await page.evaluate(() => document.querySelectorAll(".transcript > .row").length);
    // What is measured must be the real first paint: the reader at the bottom, on the newest row.
    const fromBottom = await page.evaluate(() => {
      const el = document.querySelector<HTMLElement>("main.scroll")!;
      return el.scrollHeight - el.scrollTop - el.clientHeight;
    });
    if (fromBottom > 2) throw new Error(`the transcript landed ${fromBottom} px above its bottom`);
    if (SCREENSHOT_TO && rows) await page.screenshot({ path: SCREENSHOT_TO });
    if (profiler) writeFileSync(PROFILE_TO!, JSON.stringify((await profiler.send("Profiler.stop")).profile));
    await page.waitForTimeout(300);
    const streamTrace = await startTrace(context, page);
    await page.evaluate(installRecorders);
    const s0 = Date.now();
    await room.stream(CHUNKS_PER_SECOND, STREAM_SECONDS);
    await page.waitForFunction(() => (window as unknown as { benchState: { turnActive: boolean } }).benchState.turnActive === false, null, { timeout: 60_000 });
    await page.waitForTimeout(200);
    const streamMs = Date.now() - s0;
    const stream = await stopRecording(page);
    const streamEvents = await streamTrace.stop();
    if (TRACE_THROTTLED_STREAM_TO && throttle > 1) writeFileSync(TRACE_THROTTLED_STREAM_TO, JSON.stringify(streamEvents));
    return { rendered, rowsSent: room.rowsSent, loadMs, load, loadCpuMs, stream, cpu: mainThreadCpu(streamEvents, streamMs) };
  } finally {
    await context.close();
    server.close();
  }
}

it("client: 200 chunks/s into a 5k-row session vs into an empty one (Chromium)", async () => {
  const empty = await run(0);
  const full = await run(ROWS);
  const s = full.stream;
  row({
    figure: `client: ${CHUNKS_PER_SECOND} chunks/s into a ${ROWS.toLocaleString("en-US")}-row session (${full.rowsSent} rows joined, ${full.rendered} in the DOM)`,
    measured:
      `main-thread CPU: longest task ${full.cpu.longestCpuMs} ms, busy ${full.cpu.busyPct}% (empty transcript: ${empty.cpu.longestCpuMs} ms, ${empty.cpu.busyPct}%); ` +
      `wall clock: longest task ${s.longest} ms, ${s.dropped}/${s.frames} frames dropped (empty: ${empty.stream.longest} ms, ${empty.stream.dropped}/${empty.stream.frames})`,
    ratio: +(full.cpu.busyPct / Math.max(1, empty.cpu.busyPct)).toFixed(2),
    target: "no task > 50 ms",
    ok: full.cpu.longestCpuMs <= 50,
  });
  row({
    figure: `client: first render of a ${ROWS.toLocaleString("en-US")}-row session's join (the room's last ${full.rowsSent} rows)`,
    measured:
      `${full.loadMs} ms to ready + the window mounted (empty transcript: ${empty.loadMs} ms); main-thread CPU, longest task from the first server frame on ` +
      `${full.loadCpuMs.replayMs} ms (empty: ${empty.loadCpuMs.replayMs} ms), in the page's boot before it ${full.loadCpuMs.bootMs} ms (empty: ${empty.loadCpuMs.bootMs} ms); ` +
      `wall clock: ${full.load.replayLongest} ms after, ${full.load.bootLongest} ms before`,
    ratio: +(full.loadMs / Math.max(1, empty.loadMs)).toFixed(2),
    target: "(reference)",
  });
}, 300_000);

it(`client, phone-class CPU (${PHONE_THROTTLE}× throttled): first render of a 5k-row session's join and 200 chunks/s (Chromium)`, async () => {
  const empty = await run(0, PHONE_THROTTLE);
  const full = await run(ROWS, PHONE_THROTTLE);
  const untraced = { full: await firstRenderMs(ROWS, PHONE_THROTTLE), empty: await firstRenderMs(0, PHONE_THROTTLE) };
  row({
    figure: `client, ${PHONE_THROTTLE}× CPU throttling: first render of a ${ROWS.toLocaleString("en-US")}-row session's join to the newest row (the room's last ${full.rowsSent} rows)`,
    measured:
      `${untraced.full} ms from navigation to ready + the window mounted at the bottom, on the page's clock, untraced (median of ${UNTRACED_LOADS} loads; page served locally; boot included; an empty session: ${untraced.empty} ms); ` +
      `with the trace recording: ${full.loadMs} ms (empty: ${empty.loadMs} ms), ` +
      (full.loadCpuMs.marked
        ? `longest task from the first server frame on ${full.loadCpuMs.replayWallMs} ms wall clock (${full.loadCpuMs.replayMs} ms thread CPU, which the throttle's pauses do not count)`
        : "the trace lost the page's first-frame mark, so no task split this time"),
    ratio: +(untraced.full / 1000).toFixed(2),
    target: "≤ 1 s",
    ok: untraced.full <= 1000,
  });
  row({
    figure: `client, ${PHONE_THROTTLE}× CPU throttling: ${CHUNKS_PER_SECOND} chunks/s into the ${ROWS.toLocaleString("en-US")}-row session`,
    measured:
      `longest main-thread task ${full.cpu.longestWallMs} ms wall clock (${full.cpu.longestCpuMs} ms thread CPU), busy ${full.cpu.busyPct}% of thread CPU; ` +
      `${full.stream.dropped}/${full.stream.frames} frames dropped, longest "longtask" ${full.stream.longest} ms`,
    ratio: +(full.cpu.longestWallMs / 50).toFixed(2),
    target: "no task > 50 ms",
    ok: full.cpu.longestWallMs <= 50,
  });
}, 300_000);
