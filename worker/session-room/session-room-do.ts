/**
 * SessionRoom — one Durable Object per session: the adapter around RoomCore (room-core.ts holds every
 * rule). Here: the WebSocket upgrade, hibernatable viewer sockets and their attachments, frame parsing
 * and rate limits per socket, fan-out, the Machine stub and the directory writes.
 *
 * No timers: the DO hibernates between frames; all state is rebuilt from SQLite.
 */
import { DurableObject } from "cloudflare:workers";
import { MAX_VIEWER_FRAME_BYTES } from "../../shared/limits";
import type { DaemonEvent, MachineCommand } from "../../shared/tunnel-protocol";
import { ErrorCode, type Viewer } from "../../shared/viewer-protocol";
import type { RoomStart } from "./room-start";
import { setSessionActivity, setSessionTitle, setSessionStatus } from "../directory";
import { type Env, machineStub } from "../env";
import { VIEWER_HEADER } from "../headers";
import type { DispatchOptions, DispatchResult, MachineStatus } from "../machine/dispatch-result";
import { parseViewerFrame } from "./parse-viewer-frame";
import { assertNever } from "../../shared/assert-never";
import { type FrameGate, Intake, makeFrameGate } from "./rate-limit";
import { RoomCore, type RoomPort } from "./room-core";
import type { SessionStatusEvent } from "./room-status";
import { RoomStore, type SessionMeta } from "./room-store";
import type { RoomRpc } from "./room-rpc";
import { isWatching, type PushEvent } from "../push/notify-rules";
import { deliverPush } from "../push/push-delivery";
import { pushEnabled } from "../push/push-sender";
import type { RemoteAnswer } from "./permissions";
import { type Attachment, CLOSE_ACCESS_CHANGED, CLOSE_POLICY, CLOSE_PROTOCOL_ERROR, closeQuietly, parseViewer, replierFor } from "./viewer-sockets";

export class SessionRoom extends DurableObject<Env> implements RoomRpc {
  private readonly core: RoomCore;
  private readonly gates = new WeakMap<WebSocket, FrameGate>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const port: RoomPort = {
      broadcast: (text) => this.broadcast(text),
      dispatch: (machineId, sessionId, command, opts) => this.dispatch(machineId, sessionId, command, opts),
      directoryStatus: (sessionId, state) => this.ctx.waitUntil(setSessionStatus(this.env.DB, sessionId, state).catch(() => {})),
      directoryActivity: (sessionId, at) => this.ctx.waitUntil(setSessionActivity(this.env.DB, sessionId, at).catch(() => {})),
      directoryTitle: (sessionId, title) => this.ctx.waitUntil(setSessionTitle(this.env.DB, sessionId, title).catch(() => {})),
      notify: (build) => this.notify(build),
      now: () => Date.now(),
      newId: () => crypto.randomUUID(),
    };
    this.core = new RoomCore(new RoomStore(ctx.storage.sql), port);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  // ================================================================ RPC from the Worker

  /** Creates the session (idempotent) and asks the machine to open it. */
  async init(meta: SessionMeta, start?: RoomStart): Promise<void> {
    await this.core.init(meta, start);
  }

  async forkSource(maxBytes: number): Promise<{ eventsJson: string; truncated: boolean; agentSessionId: string | null }> {
    return this.core.forkSource(maxBytes);
  }

  async info(): Promise<{ exists: boolean; status: SessionStatusEvent; queueLength: number; headSeq: number }> {
    return this.core.info();
  }

  /**
   * A member's role changed or they were removed: close their sockets so the reconnect re-checks
   * membership and carries the new role (a socket's role is fixed at upgrade).
   */
  async viewerAccessChanged(userId: string): Promise<number> {
    let closed = 0;
    for (const ws of this.ctx.getWebSockets()) {
      if (this.attachment(ws)?.viewer.id !== userId) continue;
      try {
        ws.close(CLOSE_ACCESS_CHANGED, "access changed");
        closed++;
      } catch {
        /* already closed */
      }
    }
    return closed;
  }

  /** A permission answered from a notification (POST /api/push/action; the Worker checked identity and role). */
  async answerPermission(viewer: Viewer, requestId: string, optionId: string): Promise<RemoteAnswer> {
    return this.core.answerPermissionRemotely(viewer, requestId, optionId);
  }

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("expected websocket", { status: 426 });
    if (!this.core.info().exists) return new Response("no such session", { status: 404 });
    const viewer = parseViewer(request.headers.get(VIEWER_HEADER));
    if (!viewer) return new Response("no viewer", { status: 401 });
    const after = Math.max(0, Number.parseInt(new URL(request.url).searchParams.get("after") ?? "0", 10) || 0);

    const pair = new WebSocketPair();
    const server = pair[1];
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ viewer, connectedAt: Date.now() } satisfies Attachment);
    // Synchronous from here: the backlog we read is exactly what precedes the next broadcast.
    this.core.replay(viewer, after, (text) => server.send(text));
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  // ================================================================ viewer sockets

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const att = this.attachment(ws);
    if (!att) return;
    let gate = this.gates.get(ws);
    if (!gate) this.gates.set(ws, (gate = makeFrameGate(Date.now())));
    const reply = replierFor(ws);
    // Charged by size before anything reads the frame: junk costs the sender like valid ops do.
    const intake = gate.admit(typeof message === "string" ? message.length : message.byteLength, Date.now());
    switch (intake) {
      case Intake.accept:
        break;
      case Intake.tooLarge:
        return reply.error(null, ErrorCode.FRAME_TOO_LARGE, `frame exceeds ${MAX_VIEWER_FRAME_BYTES} bytes`);
      case Intake.limited:
        return reply.error(null, ErrorCode.RATE_LIMITED, "too many frames; slow down");
      case Intake.drop:
        return;
      case Intake.close:
        return closeQuietly(ws, CLOSE_POLICY, "rate limit exceeded");
      default:
        return assertNever(intake);
    }
    const parsed = parseViewerFrame(message);
    if (!parsed.ok) return reply.error(parsed.rid, parsed.code, parsed.message);
    try {
      await this.core.handleOp(att.viewer, parsed.op, reply);
    } catch (err) {
      console.error("op failed", parsed.op.op, err);
      reply.error(parsed.op.rid, ErrorCode.INTERNAL, "internal error");
    }
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 ? 1000 : code, "closing");
    } catch {
      /* already closed */
    }
  }

  /**
   * The runtime reports a broken viewer socket here — e.g. a message over its size limit (32 MiB), which
   * workerd refuses in its HTTP layer before webSocketMessage (the sender already got close 1009 from it).
   * Close our end so the socket does not linger in getWebSockets().
   */
  override async webSocketError(ws: WebSocket): Promise<void> {
    closeQuietly(ws, CLOSE_PROTOCOL_ERROR, "socket error");
  }

  // ================================================================ RPC from the Machine DO

  async onDaemonEvents(epoch: string, batch: { n: number; event: DaemonEvent }[]): Promise<void> {
    await this.core.onDaemonEvents(epoch, batch);
  }

  async onMachineStatus(status: MachineStatus): Promise<void> {
    await this.core.onMachineStatus(status);
  }

  // ================================================================ I/O

  /** The event and who is looking are read now, in the event's own step; the rest runs after it (D1, push services). */
  private notify(build: () => PushEvent): void {
    if (!pushEnabled(this.env)) return;
    const event = build();
    this.ctx.waitUntil(deliverPush(this.env, event, this.liveUsers()).catch((err) => console.error("push delivery failed", event.kind, err)));
  }

  /** Users watching this session now: a socket open and heard from lately (hibernated sockets count). */
  private liveUsers(): Set<string> {
    const users = new Set<string>();
    const now = Date.now();
    for (const ws of this.ctx.getWebSockets()) {
      const a = this.attachment(ws);
      // The runtime answers the viewer's "ping" itself (setWebSocketAutoResponse) and keeps the time.
      const lastPingAt = this.ctx.getWebSocketAutoResponseTimestamp(ws)?.getTime() ?? null;
      if (a && isWatching({ connectedAt: a.connectedAt, lastPingAt }, now)) users.add(a.viewer.id);
    }
    return users;
  }

  private attachment(ws: WebSocket): Attachment | null {
    // Written by fetch() above as an Attachment; the runtime keeps it across hibernation.
    return ws.deserializeAttachment() as Attachment | null;
  }

  private async dispatch(machineId: string, sessionId: string, command: MachineCommand, opts: DispatchOptions): Promise<DispatchResult> {
    try {
      return await machineStub(this.env, machineId).dispatch(sessionId, command, opts);
    } catch (err) {
      console.error("dispatch failed", command.t, err);
      return { ok: false, code: ErrorCode.MACHINE_OFFLINE, message: "the machine could not be reached" };
    }
  }

  /** The same string to every viewer (serialised once, not per socket). */
  private broadcast(text: string): void {
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
      } catch {
        /* closing socket */
      }
    }
  }
}
