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
import { ErrorCode, type ServerFrame, type Viewer } from "../../shared/viewer-protocol";
import type { RoomStart } from "./room-start";
import { setSessionActivity, setSessionTitle, setSessionStatus } from "../d1-directory";
import { CLOSE_SESSION_DELETED } from "../../shared/close-codes";
import { publishIfChanged } from "../session-feed/feed-publish";
import { markSeen, setNeedsYou } from "../session-list/session-list-directory";
import { type Env, machineStub } from "../env";
import { ATTACH_HEADER, SHARE_HEADER, VIEWER_HEADER } from "../headers";
import { CLOSE_SHARE_ENDED } from "../../shared/close-codes";
import { expiryDue } from "../share/share-link-rules";
import type { DispatchOptions, DispatchResult, MachineStatus } from "../machine/dispatch-result";
import { parseViewerFrame } from "./parse-viewer-frame";
import { assertNever } from "../../shared/assert-never";
import { type FrameGate, Intake, makeFrameGate } from "./rate-limit";
import { RoomCore, type RoomPort } from "./room-core";
import type { SessionStatusEvent } from "./room-status";
import { RoomStore, type SessionMeta } from "./room-store";
import { agentSessionOf } from "./room-state";
import type { DestroyedRoom, RoomRpc } from "./room-rpc";
import { exportMarkdown } from "./room-export";
import { loggedChanges } from "./room-changes";
import { isWatching, type PushEvent } from "../push/notify-rules";
import { deliverPush } from "../push/push-delivery";
import { pushEnabled } from "../push/push-sender";
import type { RemoteAnswer } from "./permissions";
import { type Attachment, CLOSE_ACCESS_CHANGED, CLOSE_POLICY, CLOSE_PROTOCOL_ERROR, closeQuietly, parseShareGrant, parseViewer, replierFor } from "./viewer-sockets";

/** The review's change count (issue 28 #3), in the room's key-value storage. */
const REVIEW_VERSION_KEY = "review_version";

export class SessionRoom extends DurableObject<Env> implements RoomRpc {
  private readonly core: RoomCore;
  private readonly store: RoomStore;
  private readonly gates = new WeakMap<WebSocket, FrameGate>();
  /** Set by destroy(): the storage is gone, nothing may touch it (a new instance finds no session). */
  private destroyed = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const port: RoomPort = {
      broadcast: (text) => this.broadcast(text),
      dispatch: (machineId, sessionId, command, opts) => this.dispatch(machineId, sessionId, command, opts),
      checkMachinePresence: (machineId) =>
        machineStub(this.env, machineId)
          .checkPresence()
          .catch((err: unknown) => console.error("machine presence check failed", err)),
      // Each directory write, when it changed the row, reaches the members' live lists (worker/session-feed).
      directoryStatus: (sessionId, state) => this.listChange(sessionId, setSessionStatus(this.env.DB, sessionId, state)),
      directoryActivity: (sessionId, at) => this.listChange(sessionId, setSessionActivity(this.env.DB, sessionId, at)),
      directoryTitle: (sessionId, title) => this.listChange(sessionId, setSessionTitle(this.env.DB, sessionId, title)),
      directoryNeedsYou: (sessionId, open) => this.listChange(sessionId, setNeedsYou(this.env.DB, sessionId, open)),
      notify: (build) => this.notify(build),
      now: () => Date.now(),
      newId: () => crypto.randomUUID(),
      watched: () => this.ctx.getWebSockets().length > 0,
    };
    this.store = new RoomStore(ctx.storage.sql);
    this.core = new RoomCore(this.store, port);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  // ================================================================ RPC from the Worker

  /** Creates the session (idempotent) and asks the machine to open it. */
  async init(meta: SessionMeta, start?: RoomStart): Promise<void> {
    if (this.destroyed) throw new Error("this session was deleted");
    await this.core.init(meta, start);
  }

  async forkSource(maxBytes: number): Promise<{ eventsJson: string; truncated: boolean; agentSessionId: string | null }> {
    if (this.gone()) throw new Error("no such session");
    return this.core.forkSource(maxBytes);
  }

  async info(): Promise<{ exists: boolean; status: SessionStatusEvent; queueLength: number; headSeq: number }> {
    if (this.destroyed) return { exists: false, status: { kind: "session_status", state: "closed" }, queueLength: 0, headSeq: 0 };
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

  /** A share link was revoked (issue 30 #3): its spectators' sockets close now; returns how many. */
  async endShareLink(linkId: string): Promise<number> {
    let closed = 0;
    for (const ws of this.ctx.getWebSockets()) {
      if (this.attachment(ws)?.share?.linkId !== linkId) continue;
      closeQuietly(ws, CLOSE_SHARE_ENDED, "revoked");
      closed++;
    }
    return closed;
  }

  /** A `baton attach` sign-in was revoked (issue 30 #1): its sockets close now, as access changed; returns how many. */
  async endAttach(tokenId: string): Promise<number> {
    let closed = 0;
    for (const ws of this.ctx.getWebSockets()) {
      if (this.attachment(ws)?.attachTokenId !== tokenId) continue;
      closeQuietly(ws, CLOSE_ACCESS_CHANGED, "sign-in revoked");
      closed++;
    }
    return closed;
  }

  /**
   * The earliest share-link expiry among open spectators came (set by fetch below): close theirs, wait for the
   * next. An alarm wakes a hibernated room; it does not keep one in memory.
   */
  override async alarm(): Promise<void> {
    const spectators = this.ctx.getWebSockets().flatMap((ws) => {
      const share = this.attachment(ws)?.share;
      return share ? [{ ws, expiresAt: share.expiresAt }] : [];
    });
    const { close, nextAt } = expiryDue(spectators, Date.now());
    for (const s of close) closeQuietly(s.ws, CLOSE_SHARE_ENDED, "expired");
    if (nextAt !== null && !this.destroyed) await this.ctx.storage.setAlarm(nextAt);
  }

  /** A permission answered from a notification (POST /api/push/action; the Worker checked identity and role). */
  async answerPermission(viewer: Viewer, requestId: string, optionId: string): Promise<RemoteAnswer> {
    if (this.gone()) return { ok: false, error: "NOT_FOUND", message: "no such session" };
    return this.core.answerPermissionRemotely(viewer, requestId, optionId);
  }

  /** The transcript as a Markdown download (streamed; the Worker checked that the caller may see the session). */
  async exportMarkdown(): Promise<Response> {
    if (this.gone()) return new Response("no such session", { status: 404 });
    return exportMarkdown(this.store, Date.now()) ?? new Response("no such session", { status: 404 });
  }

  async reviewChanged(): Promise<number> {
    if (this.gone()) return 0;
    const version = this.reviewVersion() + 1;
    this.ctx.storage.kv.put(REVIEW_VERSION_KEY, version);
    this.broadcast(JSON.stringify({ type: "review", version } satisfies ServerFrame));
    return version;
  }

  private reviewVersion(): number {
    const v = this.ctx.storage.kv.get(REVIEW_VERSION_KEY);
    return typeof v === "number" ? v : 0;
  }

  async loggedChanges(): Promise<string | null> {
    if (this.gone()) return null;
    const changes = loggedChanges(this.store);
    return changes ? JSON.stringify(changes) : null;
  }

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("expected websocket", { status: 426 });
    if (this.gone()) return new Response("no such session", { status: 404 });
    const viewer = parseViewer(request.headers.get(VIEWER_HEADER));
    if (!viewer) return new Response("no viewer", { status: 401 });
    const share = parseShareGrant(request.headers.get(SHARE_HEADER));
    if (share === "bad") return new Response("bad share grant", { status: 400 });
    if (share?.expiresAt != null) {
      const pending = await this.ctx.storage.getAlarm();
      if (pending === null || share.expiresAt < pending) await this.ctx.storage.setAlarm(share.expiresAt);
    }
    const after = Math.max(0, Number.parseInt(new URL(request.url).searchParams.get("after") ?? "0", 10) || 0);
    // Before the replay, so the joiner's first status is the agent starting, not idle then starting.
    await this.core.wake();

    const pair = new WebSocketPair();
    const server = pair[1];
    this.ctx.acceptWebSocket(server);
    const attachTokenId = request.headers.get(ATTACH_HEADER);
    server.serializeAttachment({ viewer, connectedAt: Date.now(), ...(share ? { share } : {}), ...(attachTokenId ? { attachTokenId } : {}) } satisfies Attachment);
    // Synchronous from here: the backlog we read is exactly what precedes the next broadcast.
    this.core.replay(viewer, after, (text) => server.send(text));
    const presence = this.core.confirmPresence();
    if (presence) this.ctx.waitUntil(presence);
    // A (re)joining client whose review is older reads it again (comments changed while it was away).
    const review = this.reviewVersion();
    if (review) server.send(JSON.stringify({ type: "review", version: review } satisfies ServerFrame));
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  // ================================================================ viewer sockets

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const att = this.attachment(ws);
    if (!att || this.destroyed) return;
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
    this.seen(ws);
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
    // A deleted session's late events are dropped: they must not bring it back.
    if (this.gone()) return;
    await this.core.onDaemonEvents(epoch, batch);
  }

  async onMachineStatus(status: MachineStatus): Promise<void> {
    if (this.gone()) return;
    await this.core.onMachineStatus(status);
  }

  async destroy(): Promise<DestroyedRoom | null> {
    const s = this.gone() ? null : this.store.session();
    if (!s) return null;
    // After a daemon restart the id waits in resume_from until the reopen answers: still the agent's session.
    const agentSessionId = agentSessionOf(this.store.state()!);
    this.destroyed = true;
    for (const ws of this.ctx.getWebSockets()) closeQuietly(ws, CLOSE_SESSION_DELETED, "session deleted");
    await this.dispatch(s.machineId, s.sessionId, { t: "session.close", sessionId: s.sessionId }, { deliverWhenOnline: true });
    await this.ctx.storage.deleteAll();
    return { agentSessionId, agentId: s.agentId, machineId: s.machineId };
  }

  // ================================================================ I/O

  private gone(): boolean {
    return this.destroyed || this.store.session() === null;
  }

  /** A directory write for the session list; its members' feeds hear of it when it changed something. */
  private listChange(sessionId: string, write: Promise<boolean>, onlyUser?: string): void {
    this.ctx.waitUntil(publishIfChanged(this.env, sessionId, write, onlyUser));
  }

  /** A viewer left: what the session holds now counts as seen by them ("new since you looked"). */
  private seen(ws: WebSocket): void {
    const att = this.attachment(ws);
    const s = this.destroyed ? null : this.store.session();
    if (att && s) this.listChange(s.sessionId, markSeen(this.env.DB, s.sessionId, att.viewer.id, Date.now()), att.viewer.id);
  }

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
