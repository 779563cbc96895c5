/**
 * SessionFeed — one Durable Object per user: the live session list's socket (issue 26). Rooms, the Machine
 * and the lifecycle routes call `deliver` with the frames feed-rules.ts chose for this user; the DO sends
 * them to the user's open list pages. Hibernatable sockets, the runtime answers "ping"; no timers, no storage.
 */
import { DurableObject } from "cloudflare:workers";
import type { SessionFeedFrame } from "../../shared/session-list";
import type { Env } from "../env";
import type { FeedRpc } from "./feed-rpc";

/** Close code for a feed socket that sent something other than "ping" (the feed is one-way). */
export const CLOSE_FEED_UNSUPPORTED = 1003;

export class SessionFeed extends DurableObject<Env> implements FeedRpc {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("expected websocket", { status: 426 });
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    pair[1].send(JSON.stringify({ type: "hello", at: Date.now() } satisfies SessionFeedFrame));
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  async deliver(frames: string[]): Promise<number> {
    const sockets = this.ctx.getWebSockets();
    for (const ws of sockets)
      for (const f of frames) {
        try {
          ws.send(f);
        } catch {
          /* closing socket */
        }
      }
    return sockets.length;
  }

  override async webSocketMessage(ws: WebSocket): Promise<void> {
    // "ping" never gets here (auto-answered); anything else is not part of the feed.
    try {
      ws.close(CLOSE_FEED_UNSUPPORTED, "the session feed takes only \"ping\"");
    } catch {
      /* already closed */
    }
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 ? 1000 : code, "closing");
    } catch {
      /* already closed */
    }
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    try {
      ws.close(1002, "socket error");
    } catch {
      /* already closed */
    }
  }
}
