/**
 * WebSocket compression on the wire (issue 20). workerd negotiates permessage-deflate when the client
 * offers it (compatibility flag `web_socket_compression`, on by default from compatibility date
 * 2023-08-15; wrangler.jsonc's date is later), so a browser viewer's socket is compressed without any
 * code of ours. Measured on the real local stack (`wrangler dev` serving the built Worker, the demo
 * agent behind the daemon): Node `ws` viewers with perMessageDeflate on and off, counting the bytes read
 * from their TCP sockets (handshake included) — a join of a session of TURNS mixed turns, and a live
 * answer streamed to both at once. Prints BENCH_ROW lines (see bench/run.mjs).
 */
import { readFileSync } from "node:fs";
import type { Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, it } from "vitest";
import WebSocket from "ws";
import { framesOf } from "../../shared/fold";
import type { ServerFrame } from "../../shared/viewer-protocol";
import { createSession, NodeViewer, type Stack, startTestStack, waitFor } from "../../test/e2e/support";

type Row = { figure: string; measured: string; ratio?: number; target?: string; ok?: boolean };
const row = (r: Row) => console.log(`BENCH_ROW ${JSON.stringify(r)}`);

/** Turns in the session a viewer joins: markdown answers, tool calls with diffs, terminal output, fenced output, thoughts. */
const TURNS = 120;
const SCRIPTED = ["tool", "terminal", "fence", "think"];
/**
 * The demo agent's answers repeat themselves (a fixed template echoing the prompt), which flatters any
 * compressor: every other prompt is a different passage of this repository's docs, echoed back, so the
 * session holds prose and code that do not repeat.
 */
const PROSE = ["README.md", "docs/ARCHITECTURE.md", "bench/RESULTS.md"].map((f) => readFileSync(join(import.meta.dirname, "../..", f), "utf8")).join("\n");
const PASSAGE_CHARS = 700;
const promptOf = (i: number) => (i % 2 ? SCRIPTED[(i >> 1) % SCRIPTED.length]! : `Summarise: ${PROSE.substr(((i >> 1) * PASSAGE_CHARS) % PROSE.length, PASSAGE_CHARS)}`);
/** Join rounds per setting, interleaved (off, on, off, on…); the median is reported. */
const ROUNDS = 5;
/** The live turn: an answer echoing this much prose, streamed a few words per frame. */
const LIVE_CHARS = 6000;

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A viewer socket that counts what it reads off the wire and what the frames hold once inflated. */
class CountingViewer {
  wire = 0;
  payload = 0;
  frames: ServerFrame[] = [];
  extensions = "";
  private ws!: WebSocket;
  private socket: Socket | null = null;
  constructor(
    private readonly url: string,
    private readonly sessionId: string,
    private readonly deflate: boolean,
  ) {}
  async open(): Promise<this> {
    this.ws = new WebSocket(`${this.url.replace(/^http/, "ws")}/api/sessions/${this.sessionId}/ws?after=0`, {
      headers: { Origin: this.url },
      perMessageDeflate: this.deflate,
    });
    this.ws.on("upgrade", (res) => (this.socket = res.socket));
    this.ws.on("message", (d: Buffer) => {
      this.payload += d.length;
      this.frames.push(...framesOf(JSON.parse(String(d)) as ServerFrame));
    });
    await waitFor(() => this.frames.some((f) => f.type === "ready"), "ready", 60_000);
    this.extensions = this.ws.extensions || "none";
    this.wire = this.bytesRead();
    return this;
  }
  /** Turns seen ending (session_status idle, live or replayed). */
  idles(): number {
    return this.frames.filter((f) => (f.type === "state" || f.type === "event") && f.event.kind === "session_status" && f.event.state === "idle").length;
  }
  bytesRead(): number {
    return this.socket?.bytesRead ?? 0;
  }
  close() {
    this.ws.close();
  }
}

let stack: Stack;
let sessionId: string;

beforeAll(async () => {
  stack = await startTestStack({ DEMO_PACE_MS: "0", DEMO_SLEEP_UNIT_MS: "50" });
  sessionId = await createSession(stack.url);
  const driver = await new NodeViewer(stack.url, sessionId).open();
  const idleCount = () => driver.ofKind("session_status").filter((e) => e.state === "idle").length;
  for (let i = 0; i < TURNS; i++) {
    const before = idleCount();
    const reply = await driver.op({ op: "message.send", id: `turn-${i}`, blocks: [{ type: "text", text: promptOf(i) }] });
    if (reply.type === "error") throw new Error(`turn ${i}: ${reply.code} ${reply.message}`);
    await waitFor(() => idleCount() > before, `turn ${i} to finish`, 60_000);
  }
  driver.close();
}, 900_000);

afterAll(async () => {
  await stack?.stop();
});

it("wire: a join with and without permessage-deflate", async () => {
  const runs: Record<"on" | "off", CountingViewer[]> = { on: [], off: [] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const deflate of [false, true]) {
      const v = await new CountingViewer(stack.url, sessionId, deflate).open();
      v.close();
      runs[deflate ? "on" : "off"].push(v);
    }
  }
  const on = median(runs.on.map((v) => v.wire));
  const off = median(runs.off.map((v) => v.wire));
  const payload = median(runs.off.map((v) => v.payload));
  const negotiated = runs.on[0]!.extensions;
  row({
    figure: `wire: join of a ${TURNS}-turn session, compression on vs off`,
    measured: `${kb(on)} vs ${kb(off)} read off the socket (frames ${kb(payload)} inflated); negotiated: ${negotiated}, without the offer: ${runs.off[0]!.extensions}`,
    ratio: +(on / off).toFixed(2),
    target: "compressed where the platform offers it",
    ok: on < off && negotiated.includes("permessage-deflate"),
  });
});

it("wire: a live turn to two viewers, one compressed", async () => {
  const on = await new CountingViewer(stack.url, sessionId, true).open();
  const off = await new CountingViewer(stack.url, sessionId, false).open();
  const [on0, off0] = [on.bytesRead(), off.bytesRead()];
  const [payload0, frames0] = [off.payload, off.frames.length];
  const driver = await new NodeViewer(stack.url, sessionId).open();
  const [onIdle, offIdle] = [on.idles(), off.idles()];
  await driver.op({ op: "message.send", id: "live", blocks: [{ type: "text", text: `Summarise: ${PROSE.slice(0, LIVE_CHARS)}` }] });
  await waitFor(() => on.idles() > onIdle && off.idles() > offIdle, "the live turn to reach both viewers", 120_000);
  const [onBytes, offBytes] = [on.bytesRead() - on0, off.bytesRead() - off0];
  row({
    figure: "wire: a live answer streamed to a viewer, compression on vs off",
    measured: `${kb(onBytes)} vs ${kb(offBytes)} read off the socket (${off.frames.length - frames0} events, ${kb(off.payload - payload0)} inflated)`,
    ratio: +(onBytes / offBytes).toFixed(2),
    target: "compressed where the platform offers it",
    ok: onBytes < offBytes,
  });
  for (const v of [on, off, driver]) v.close();
});
