/**
 * `npm run bench`: SessionRoom figures measured side by side in one workerd run (ratios + absolutes).
 * No assertions on time — machines here are noisy; the printed ratios are the result.
 */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { it } from "vitest";
import { newSession, ORIGIN, setupSession, TestDaemon, TestViewer, waitFor } from "../test/worker/harness";

const rows: Record<string, string | number>[] = [];
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const chunkText = (i: number) => `chunk ${i} ${"x".repeat(60)}\n`;

async function openViewers(sessionId: string, n: number) {
  const vs: TestViewer[] = [];
  for (let i = 0; i < n; i++) vs.push(await TestViewer.open(sessionId));
  return vs;
}

async function roomFanout(viewers: number, events: number) {
  const { daemon, sessionId } = await setupSession();
  const vs = await openViewers(sessionId, viewers);
  await waitFor(() => vs[0]!.lastStatus()?.state === "idle", "idle");
  await vs[0]!.op({ op: "message.send", id: "b", blocks: [{ type: "text", text: "bench" }] });
  const counts = vs.map(() => 0);
  const lat: number[] = [];
  vs.forEach((v, vi) =>
    v.ws.addEventListener("message", (e) => {
      const s = e.data as string;
      if (!s.includes("agent_message_chunk")) return;
      counts[vi]!++;
      const m = /"sent":(\d+)/.exec(s);
      if (m) lat.push(Date.now() - Number(m[1]));
    }),
  );
  const t0 = Date.now();
  // A burst of chunks, as the daemon sends them: coalesced into batch frames per tick of 25.
  for (let i = 0; i < events; i += 25)
    daemon.emitBatch(
      Array.from({ length: Math.min(25, events - i) }, (_, k) => ({
        t: "session.update" as const,
        sessionId,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: chunkText(i + k) }, sent: Date.now() } as any,
      })),
    );
  await waitFor(() => counts.every((c) => c >= events), "all delivered", 120_000);
  const ms = Math.max(1, Date.now() - t0);
  vs.forEach((v) => v.close());
  daemon.close();
  return { eps: (events / ms) * 1000, p50: pct(lat, 50), p99: pct(lat, 99) };
}

async function bareFanout(viewers: number, events: number) {
  const stub = (env as any).BARE_RELAY.get((env as any).BARE_RELAY.idFromName(crypto.randomUUID()));
  const sockets: WebSocket[] = [];
  const counts: number[] = [];
  for (let i = 0; i < viewers; i++) {
    const res = await stub.fetch("http://relay/", { headers: { Upgrade: "websocket" } });
    const ws = res.webSocket as WebSocket;
    ws.accept();
    const idx = counts.push(0) - 1;
    ws.addEventListener("message", () => {
      counts[idx]!++;
    });
    sockets.push(ws);
  }
  const frame = JSON.stringify({ type: "event", seq: 1, event: { kind: "acp", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: chunkText(0) } } } });
  const t0 = Date.now();
  await stub.blast(frame, events);
  await waitFor(() => counts.every((c) => c >= events), "bare delivered", 120_000);
  const ms = Math.max(1, Date.now() - t0);
  sockets.forEach((s) => s.close());
  return { eps: (events / ms) * 1000 };
}

it("fan-out: one daemon event → N viewers, vs a bare relay DO", async () => {
  for (const n of [1, 10, 100]) {
    const events = n === 100 ? 200 : 500;
    const bare = await bareFanout(n, events);
    const room = await roomFanout(n, events);
    rows.push({
      figure: `fan-out ${n} viewers`,
      "room ev/s": Math.round(room.eps),
      "bare relay ev/s": Math.round(bare.eps),
      ratio: +(room.eps / bare.eps).toFixed(2),
      "p50/p99 ms": `${room.p50}/${room.p99}`,
      target: "≥ 0.8 of bare",
    });
  }
});

it("catch-up: 10k events / ~1 MB joined from scratch vs a plain SQLite read and naive replay", async () => {
  const { sessionId } = await setupSession();
  const stub = env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(sessionId));
  const MESSAGES = 100;
  const PER = 100;
  await runInDurableObject(stub, (_i, state) => {
    for (let m = 0; m < MESSAGES; m++)
      for (let c = 0; c < PER; c++) {
        const event = { kind: "acp", update: { sessionUpdate: "agent_message_chunk", messageId: `m${m}`, content: { type: "text", text: chunkText(c) } } };
        state.storage.sql.exec("INSERT INTO events (kind, body, at) VALUES (?, ?, ?)", "acp", JSON.stringify(event), Date.now());
      }
  });
  // Plain read of the transcript: every row, parsed, text concatenated per message.
  const plain = await runInDurableObject(stub, (_i, state) => {
    const t0 = performance.now();
    let textBytes = 0;
    let naiveBytes = 0;
    for (const r of state.storage.sql.exec<{ seq: number; body: string }>("SELECT seq, body FROM events ORDER BY seq")) {
      const e = JSON.parse(r.body);
      textBytes += e.update?.content?.text?.length ?? 0;
      naiveBytes += JSON.stringify({ type: "event", seq: r.seq, event: e }).length;
    }
    return { ms: performance.now() - t0, textBytes, naiveBytes };
  });
  const t0 = Date.now();
  let bytes = 0;
  const res = await exports.default.fetch(`${ORIGIN}/api/sessions/${sessionId}/ws?after=0`, { headers: { Upgrade: "websocket", Origin: ORIGIN } });
  const ws = res.webSocket!;
  let ready = false;
  ws.addEventListener("message", (e) => {
    bytes += (e.data as string).length;
    if ((e.data as string).startsWith('{"type":"ready"')) ready = true;
  });
  ws.accept();
  await waitFor(() => ready, "ready", 60_000);
  const joinMs = Math.max(1, Date.now() - t0);
  ws.close();
  rows.push({
    figure: "catch-up bytes vs rendered text",
    value: `${(bytes / 1e6).toFixed(2)} MB / ${(plain.textBytes / 1e6).toFixed(2)} MB`,
    ratio: +(bytes / plain.textBytes).toFixed(2),
    target: "≤ 1.2×",
  });
  rows.push({ figure: "catch-up bytes vs naive full-log replay", value: `${(plain.naiveBytes / 1e6).toFixed(2)} MB naive`, ratio: +(bytes / plain.naiveBytes).toFixed(2), target: "smaller is better" });
  rows.push({
    figure: "catch-up time vs plain SQLite read",
    value: `${joinMs} ms join / ${plain.ms.toFixed(0)} ms read`,
    ratio: +(joinMs / Math.max(1, plain.ms)).toFixed(2),
    target: "≤ 2×",
  });
});

it("ingest: chunk events/s with 10 viewers per session, 1 / 4 / 16 sessions on one machine", async () => {
  for (const sessions of [1, 4, 16]) {
    const pair = await (await exports.default.fetch(`${ORIGIN}/api/dev/pair`, { method: "POST", body: "{}" })).json<{ machine: { id: string }; token: string }>();
    const daemon = new TestDaemon(pair.token);
    await daemon.connect();
    const ids: string[] = [];
    for (let s = 0; s < sessions; s++) ids.push(await newSession(pair.machine.id));
    await daemon.settle();
    const viewersPer = sessions === 16 ? 3 : 10;
    const counts = new Map<string, number[]>();
    for (const id of ids) {
      const vs = await openViewers(id, viewersPer);
      await waitFor(() => vs[0]!.lastStatus()?.state === "idle", "idle");
      await vs[0]!.op({ op: "message.send", id: "i", blocks: [{ type: "text", text: "ingest" }] });
      const c = vs.map(() => 0);
      vs.forEach((v, i) => v.ws.addEventListener("message", (e) => {
        if ((e.data as string).includes("agent_message_chunk")) c[i]!++;
      }));
      counts.set(id, c);
    }
    const total = 2000;
    const t0 = Date.now();
    for (let i = 0; i < total; i += 25)
      daemon.emitBatch(
        Array.from({ length: 25 }, (_, k) => ({
          t: "session.update" as const,
          sessionId: ids[(i + k) % sessions]!,
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: chunkText(i + k) } },
        })),
      );
    const per = total / sessions;
    await waitFor(() => [...counts.values()].every((c) => c.every((x) => x >= per)), "ingest delivered", 180_000);
    const ms = Math.max(1, Date.now() - t0);
    rows.push({
      figure: `ingest ${sessions} session(s) × ${viewersPer} viewers`,
      "events/s (all sessions)": Math.round((total / ms) * 1000),
      "per session": Math.round((per / ms) * 1000),
      target: "≥ 2,000/s per session at 1",
    });
    daemon.close();
  }
  const lines = rows.map((r) => `| ${Object.entries(r).map(([k, v]) => (k === "figure" ? v : `${k}: ${v}`)).join(" | ")} |`);
  console.log(["", "Baton benchmarks (workerd, this machine)", ...lines, ""].join("\n"));
});
