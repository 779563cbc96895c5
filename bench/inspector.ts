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
  const call = <T>(method: string) =>
    new Promise<T>((resolve) => {
      const i = ++id;
      waiting.set(i, resolve as (r: unknown) => void);
      ws.send(JSON.stringify({ id: i, method, params: {} }));
    });
  return {
    /** Heap in use after a full GC. */
    async heapAfterGc(): Promise<HeapUsage> {
      await call("HeapProfiler.collectGarbage");
      await call("HeapProfiler.collectGarbage");
      const u = await call<{ usedSize: number; totalSize: number }>("Runtime.getHeapUsage");
      return { usedBytes: u.usedSize, totalBytes: u.totalSize };
    },
    close(): void {
      ws.close();
    },
  };
}
