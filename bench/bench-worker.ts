/**
 * The product Worker plus a bare relay DO — the runtime's own fan-out ceiling — so benchmarks can
 * measure SessionRoom side by side with "forward the bytes, nothing else" in the same workerd.
 */
import { DurableObject } from "cloudflare:workers";
import app from "../worker/index";
import type { Env } from "../worker/env";

export { Machine, SessionRoom } from "../worker/index";

export class BareRelay extends DurableObject<Env> {
  override async fetch(): Promise<Response> {
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }
  /** Sends `count` frames of the given text to every socket, like a room's emit without storage. */
  async blast(frame: string, count: number): Promise<void> {
    const sockets = this.ctx.getWebSockets();
    for (let i = 0; i < count; i++) for (const ws of sockets) ws.send(frame);
  }
}

export default app;
