/**
 * V8 heap of the bench isolate through workerd's inspector (the runtime stubs process.memoryUsage and
 * v8.getHeapStatistics to zeros). `npm run bench` starts vitest with `--inspect`; the isolate that runs
 * the tests also runs the Durable Objects, so "heap after GC" before and after a workload is what the
 * workload left behind (the test itself holds nothing but counters).
 */
export type HeapUsage = { usedBytes: number; totalBytes: number };

export async function openInspector(base: string) {
  const targets = (await (await fetch(`${base}/json`)).json()) as { id: string; webSocketDebuggerUrl: string }[];
  const target = targets.find((t) => t.id.includes("vitest-plugin-runner"));
  if (!target) throw new Error("no bench isolate among the inspector targets");
  const res = await fetch(target.webSocketDebuggerUrl.replace(/^ws:/, "http:"), { headers: { Upgrade: "websocket" } });
  const ws = res.webSocket;
  if (!ws) throw new Error(`inspector refused the socket (${res.status})`);
  ws.accept();
  let id = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  ws.addEventListener("message", (e) => {
    const m = JSON.parse(e.data as string) as { id?: number; result?: unknown };
    if (m.id !== undefined) waiting.get(m.id)?.(m.result);
    if (m.id !== undefined) waiting.delete(m.id);
  });
  const call = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve) => {
      const i = ++id;
      waiting.set(i, resolve as (r: unknown) => void);
      ws.send(JSON.stringify({ id: i, method, params }));
    });
  return {
    /** Heap in use after a full GC. */
    async heapAfterGc(): Promise<HeapUsage> {
      await call("HeapProfiler.collectGarbage");
      await call("HeapProfiler.collectGarbage");
      const u = await call<{ usedSize: number; totalSize: number }>("Runtime.getHeapUsage");
      return { usedBytes: u.usedSize, totalBytes: u.totalSize };
    },
    /** A V8 CPU profile of the isolate while `work` runs (every DO and the test share it), summed per function. */
    async cpuProfile(work: () => Promise<void>): Promise<ProfileSummary> {
      await call("Profiler.enable");
      await call("Profiler.setSamplingInterval", { interval: PROFILE_SAMPLE_US });
      await call("Profiler.start");
      await work();
      const { profile } = await call<{ profile: CpuProfile }>("Profiler.stop");
      await call("Profiler.disable");
      return summarise(profile);
    },
    close(): void {
      ws.close();
    },
  };
}

/** Sampling interval: fine enough to see a SQLite commit (~0.1–1 ms) among a cycle's work. */
const PROFILE_SAMPLE_US = 100;

type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
};
/** Self time per function (ms) and inclusive time (ms), largest first; `total`: the profile's wall time. */
export type ProfileSummary = {
  total: number;
  self: { name: string; ms: number }[];
  inclusive: { name: string; ms: number }[];
  /** Self time per function and its caller ("f <- caller"): who spends it. */
  byCaller: { name: string; ms: number }[];
};

function summarise(p: CpuProfile): ProfileSummary {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const f = byId.get(id)!.callFrame;
    return `${f.functionName || "(anon)"} ${f.url.split("/").slice(-2).join("/")}:${f.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  const byCaller = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    total += ms;
    self.set(label(id), (self.get(label(id)) ?? 0) + ms);
    const up = parent.get(id);
    const pair = `${label(id)} <- ${up === undefined ? "" : label(up)}`;
    byCaller.set(pair, (byCaller.get(pair) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const l = label(at);
      if (seen.has(l)) continue;
      seen.add(l);
      incl.set(l, (incl.get(l) ?? 0) + ms);
    }
  });
  const top = (m: Map<string, number>) => [...m].map(([name, ms]) => ({ name, ms: +ms.toFixed(1) })).sort((a, b) => b.ms - a.ms);
  return { total: +total.toFixed(1), self: top(self), inclusive: top(incl), byCaller: top(byCaller) };
}
