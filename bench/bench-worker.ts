/**
 * The product Worker plus a bare relay — the runtime's own ceiling for Baton's delivery path — so
 * benchmarks measure SessionRoom side by side with it in the same workerd.
 *
 * The bare relay takes the same path as a daemon event: tunnel WebSocket through the Worker → a
 * machine DO (parse, one RPC per session per batch, ack after the RPC returned) → a room DO (wrap
 * each event as a viewer frame, one message per batch, the same string to every viewer, whose sockets
 * also come through the Worker). What it leaves out is the product's work:
 * by default no validation, no SQLite, no cursor, no turn logic. `mode` adds pieces back one at a
 * time so the bench can say what the gap is made of:
 * - `zod`: the Machine's DaemonFrame validation of every tunnel frame;
 * - `commit`: + a cursor write per batch in the room, so the output gate holds the frames and the RPC's
 *   return (hence the ack) until it commits — one commit per cycle, nothing else stored;
 * - `durable`: + the batch's events as one log row, as the room writes a run.
 */
import { DurableObject } from "cloudflare:workers";
import { DaemonFrame } from "../shared/tunnel-protocol";
import app from "../worker/index";
import type { Env } from "../worker/env";

export { Machine, SessionFeed, SessionRoom } from "../worker/index";

export const BareMode = { plain: "plain", zod: "zod", commit: "commit", durable: "durable" } as const;
export type BareMode = (typeof BareMode)[keyof typeof BareMode];

type BenchEnv = Env & {
  BARE_MACHINE: DurableObjectNamespace<BareMachine>;
  BARE_ROOM: DurableObjectNamespace<BareRoom>;
};
type Numbered = { n: number; event: { sessionId: string; update?: unknown } };

export class BareMachine extends DurableObject<BenchEnv> {
  private pending: Numbered[] = [];
  private draining = false;

  override async fetch(request: Request): Promise<Response> {
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    pair[1].serializeAttachment({ mode: new URL(request.url).searchParams.get("mode") ?? BareMode.plain });
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const { mode } = ws.deserializeAttachment() as { mode: BareMode };
    const json = JSON.parse(message as string);
    const frame = mode === BareMode.plain ? json : DaemonFrame.parse(json);
    if (frame.type !== "batch" && frame.type !== "event") return;
    this.pending.push(...(frame.type === "batch" ? frame.events : [frame]));
    if (!this.draining) void this.drain(ws, mode);
  }

  private async drain(ws: WebSocket, mode: BareMode): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.length) {
        const batch = this.pending;
        this.pending = [];
        const bySession = new Map<string, Numbered[]>();
        for (const f of batch) {
          const g = bySession.get(f.event.sessionId);
          if (g) g.push(f);
          else bySession.set(f.event.sessionId, [f]);
        }
        await Promise.all(
          [...bySession].map(([sid, g]) => this.env.BARE_ROOM.get(this.env.BARE_ROOM.idFromName(sid)).relay(g, mode)),
        );
        const last = batch[batch.length - 1]!.n;
        ws.send(JSON.stringify({ type: "ack", n: last }));
      }
    } finally {
      this.draining = false;
    }
  }
}

export class BareRoom extends DurableObject<BenchEnv> {
  private seq = 0;

  constructor(ctx: DurableObjectState, env: BenchEnv) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, body TEXT NOT NULL);
                          CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
  }

  override async fetch(): Promise<Response> {
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  /** One viewer frame per batch, serialised once, the same string to every socket. */
  async relay(batch: Numbered[], mode: BareMode): Promise<void> {
    const sql = this.ctx.storage.sql;
    const frames: string[] = [];
    const bodies: string[] = [];
    const first = this.seq + 1;
    for (const { event } of batch) {
      const body = JSON.stringify({ kind: "acp", update: event.update });
      bodies.push(body);
      frames.push(`{"type":"event","seq":${++this.seq},"event":${body}}`);
    }
    if (mode === BareMode.durable) sql.exec("INSERT INTO events (seq, body) VALUES (?, ?)", first, `[${bodies.join(",")}]`);
    if (mode === BareMode.commit || mode === BareMode.durable)
      sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('cursor', ?)", String(batch[batch.length - 1]!.n));
    const text = frames.length === 1 ? frames[0]! : `{"type":"batch","frames":[${frames.join(",")}]}`;
    for (const ws of this.ctx.getWebSockets()) ws.send(text);
  }
}

/** `/bare/tunnel/<id>?mode=` and `/bare/room/<sessionId>` hop through the Worker like the product's sockets. */
export default {
  fetch(request: Request, env: BenchEnv, ctx: ExecutionContext): Response | Promise<Response> {
    const [, first, kind, id] = new URL(request.url).pathname.split("/");
    if (first === "bare" && id && kind === "tunnel") return env.BARE_MACHINE.get(env.BARE_MACHINE.idFromName(id)).fetch(request);
    if (first === "bare" && id && kind === "room") return env.BARE_ROOM.get(env.BARE_ROOM.idFromName(id)).fetch(request);
    return app.fetch(request, env, ctx);
  },
};
