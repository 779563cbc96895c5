/**
 * Machine — one Durable Object per daemon: the end of its tunnel WebSocket. Routes daemon events to
 * SessionRooms (DO RPC) and room commands to the daemon; enforces the per-machine active budget.
 *
 * Invariants
 * - Daemon events are processed in `n` order, each once. Exactly-once lives in the rooms (each commits
 *   a cursor of the daemon's `n` with the events' effects); a batch is acked once every room accepted it
 *   (their commits done), without waiting for a commit here: `lastSeenUp` is kept in memory and persisted
 *   every LAST_SEEN_PERSIST_EVERY events. A Machine restart at worst gets a few applied events resent,
 *   which the rooms drop. Resends with n ≤ the highest taken are dropped here too.
 * - A batch is acked only if every room took its share. A room the runtime reports reset or transiently
 *   failed is called again on a fresh stub; if it stays unavailable nothing from that batch on is acked
 *   and the tunnel closes "try again later" (the daemon resends). An error thrown by the room's own code
 *   drops that session's share (logged): retrying would repeat it, and it must not wedge the tunnel.
 * - Commands to the daemon are numbered and kept in `down_outbox` until acked; resent after hello.
 * - A new daemon epoch (process restart) drops what targeted the old process and tells every room.
 */
import { checkDaemonProtocol, CLOSE_UPGRADE_REQUIRED, UPGRADE_REQUIRED, upgradeCommand } from "../../shared/protocol-version";
import { recordDaemonVersion } from "../device-auth";
import { DurableObject } from "cloudflare:workers";
import { assertNever } from "../../shared/assert-never";
import { DEFAULT_MACHINE_BUDGET } from "../../shared/limits";
import {
  type DaemonEvent,
  DaemonFrame,
  type MachineCommand,
  type MachineFrame,
  TUNNEL_CLOSE_REVOKED,
  TUNNEL_CLOSE_REPLACED,
} from "../../shared/tunnel-protocol";
import { ErrorCode } from "../../shared/viewer-protocol";
import type { Env } from "../env";
import { MACHINE_ID_HEADER } from "../headers";
import type { DispatchOptions, DispatchResult, MachineStatus } from "./dispatch-result";
import type { AskWireOutcome, MachineRpc } from "./machine-rpc";
import { budgetRefusal, makeTunnelGate, presenceIsStale, replacedReason, type TunnelGate } from "./machine-rules";
import { parseDaemonFrame } from "./parse-daemon-frame";
import { abandon, drainEnded, type IntakeState, intakeFrom, newEpoch, take } from "./tunnel-intake";
import { closeAll, notifyRooms, publishList, sendBackLater, sendFrame, updateDirectory } from "./machine-outside";
import { deliverToRoom, drainIntake } from "./room-delivery";
import { type MachineMeta, MachineStore } from "./machine-store";
import { AskTable } from "./machine-asks";
import { AskErrorCode, type AskRequest } from "../../shared/tunnel-ask";

const TUNNEL_TAG = "tunnel";

type Hello = Extract<DaemonFrame, { type: "hello" }>;

export class Machine extends DurableObject<Env> implements MachineRpc {
  private readonly store: MachineStore;
  /** Asks waiting for the daemon's reply (the agent's own sessions: machine-asks.ts). */
  private readonly asks = new AskTable();
  /** What the daemon sent up and how far the rooms took it (tunnel-intake.ts). */
  private intake: IntakeState;
  private draining: Promise<void> | null = null;
  /** Per tunnel socket (in memory: a socket woken from hibernation starts with a full bucket). */
  private readonly gates = new WeakMap<WebSocket, TunnelGate>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new MachineStore(ctx.storage.sql);
    this.intake = intakeFrom(this.store.get("last_seen_up") ?? 0);
  }

  // ---------------------------------------------------------------- tunnel socket

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("expected websocket", { status: 426 });
    const machineId = request.headers.get(MACHINE_ID_HEADER);
    if (!machineId) return new Response("no machine", { status: 400 });
    this.store.set("machine_id", machineId);
    // An older tunnel is closed when this one says hello (onHello): then the replaced daemon can be told which one it was.
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1], [TUNNEL_TAG]);
    pair[1].serializeAttachment({ hello: false });
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    let gate = this.gates.get(ws);
    if (!gate) this.gates.set(ws, (gate = makeTunnelGate(Date.now())));
    // Charged by size before anything reads the frame (a flooding peer costs parsing only up to the gate).
    const admitted = gate.admit(typeof message === "string" ? message.length : message.byteLength, Date.now());
    const att = ws.deserializeAttachment() as { hello: boolean } | null;
    const read = parseDaemonFrame(message, admitted, att?.hello === true);
    if (read.kind === "refuse") return sendFrame(ws, { type: "error", code: read.code, message: read.message });
    if (read.kind === "back_later") return sendBackLater(ws, read.code, read.why);
    const { frame, bytes } = read;
    switch (frame.type) {
      case "hello":
        return this.onHello(ws, frame);
      case "event":
        return this.take(ws, [frame], bytes);
      case "batch":
        return this.take(ws, frame.events, bytes);
      case "ack":
        this.store.ackDown(frame.n);
        return;
      case "agents":
        return this.onAgents(frame.agents);
      case "reply":
        this.asks.reply(frame, bytes);
        return;
      default:
        return assertNever(frame);
    }
  }

  /** Queues new frames for the rooms; resent duplicates (n ≤ highest taken) are only acked. */
  private take(ws: WebSocket, frames: { n: number; event: DaemonEvent }[], bytes: number): void {
    const taken = take(this.intake, frames, bytes);
    // Nothing of this frame (nor of any later one on this socket: no gaps) is taken; the daemon still
    // holds them unacked and resends them after reconnecting.
    if (taken.outcome === "overloaded") return sendBackLater(ws, ErrorCode.RATE_LIMITED, "tunnel backlog full");
    this.intake = taken.state;
    if (taken.outcome === "taken") this.drain();
    else sendFrame(ws, { type: "ack", n: this.intake.lastDone });
  }

  override async webSocketClose(ws: WebSocket): Promise<void> {
    // Only the current tunnel going away takes the machine offline (a replaced socket doesn't).
    const others = this.ctx.getWebSockets(TUNNEL_TAG).filter((s) => s !== ws && s.readyState === WebSocket.OPEN);
    if (others.length) return;
    this.asks.failAll(AskErrorCode.MACHINE_OFFLINE, "the machine went offline");
    await this.setOffline();
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    await this.webSocketClose(ws);
  }

  private async onHello(ws: WebSocket, hello: Hello): Promise<void> {
    const protocol = checkDaemonProtocol(hello.protocolVersion);
    const machineId = this.store.get("machine_id");
    // Recorded for the Machines page (a refused daemon too); after the welcome when accepted, so it adds no delay.
    const recordVersion = () => (machineId ? recordDaemonVersion(this.env.DB, machineId, hello.version, hello.protocolVersion) : Promise.resolve());
    if (!protocol.ok) {
      // Refused before anything is stored: the daemon reports the message and stops retrying.
      await recordVersion();
      sendFrame(ws, { type: "error", code: UPGRADE_REQUIRED, message: protocol.message });
      ws.close(CLOSE_UPGRADE_REQUIRED, protocol.reason === "too_old" ? `upgrade the daemon: ${upgradeCommand}` : "the daemon is newer than the server: update the server");
      return;
    }
    closeAll(this.ctx.getWebSockets(TUNNEL_TAG).filter((old) => old !== ws), TUNNEL_CLOSE_REPLACED, replacedReason(hello));
    const previousEpoch = this.store.get("epoch");
    const restarted = previousEpoch !== null && previousEpoch !== hello.epoch;
    if (previousEpoch !== hello.epoch) {
      // A new daemon process: its numbering starts over and what we queued for the old one is moot.
      this.store.startEpoch(hello.epoch);
      this.intake = newEpoch(this.intake);
    }
    for (const s of hello.sessions) {
      // Only sessions opened on this machine (a room dispatched to it) count: a daemon cannot claim others.
      if (this.store.hasSession(s.sessionId)) this.store.setActive(s.sessionId, s.busy);
    }
    this.store.set("hello", { hostname: hello.hostname, agents: hello.agents, roots: hello.roots, version: hello.version });
    this.store.set("online", true);
    ws.serializeAttachment({ hello: true });
    sendFrame(ws, { type: "welcome", machineId: this.store.get("machine_id") ?? "", lastSeenUp: this.intake.lastDone });
    this.store.ackDown(hello.lastSeenDown);
    for (const p of this.store.pendingDown()) sendFrame(ws, { type: "command", n: p.n, command: p.command });
    await this.updateDirectory(true, hello);
    this.publishList();
    await this.notifyRooms({ online: true, liveSessionIds: hello.sessions.map((s) => s.sessionId), restarted });
    await recordVersion();
  }

  /** Capabilities the daemon learnt from an agent's `initialize`: the directory shows them from now on. */
  private async onAgents(agents: Hello["agents"]): Promise<void> {
    const hello = this.store.get("hello");
    if (!hello) return;
    const next = { ...hello, agents };
    this.store.set("hello", { hostname: next.hostname, agents, roots: next.roots, version: next.version });
    await this.updateDirectory(true, next);
  }

  private async setOffline(): Promise<void> {
    if (this.store.get("online") === false) return;
    this.store.set("online", false);
    await this.updateDirectory(false, null);
    this.publishList();
    await this.notifyRooms({ online: false, liveSessionIds: [], restarted: false });
  }

  /** Hands pending frames to their rooms (room-delivery.ts), one drain at a time. */
  private drain(): void {
    if (this.draining) return;
    const tunnels = () => this.ctx.getWebSockets(TUNNEL_TAG);
    this.draining = drainIntake({
      intake: () => this.intake,
      setIntake: (state) => (this.intake = state),
      epoch: () => this.store.get("epoch") ?? "",
      hasSession: (id) => this.store.hasSession(id),
      sessionEnded: (id) => this.store.setActive(id, false),
      deliver: (sessionId, epoch, group) => deliverToRoom(this.env, sessionId, epoch, group),
      tell: (frame) => tunnels().forEach((ws) => sendFrame(ws, frame)),
      persistLastSeen: (n) => this.store.set("last_seen_up", n),
      abandon: () => this.abandonBacklog(),
    }).finally(() => {
      this.draining = null;
      this.intake = drainEnded(this.intake);
    });
  }

  /**
   * A room could not take its events: nothing from that batch on is acked. The daemon keeps them and
   * resends after reconnecting (rooms drop what they already have), so the tunnel is closed with "try
   * again later" and what is queued here is let go.
   */
  private abandonBacklog(): void {
    this.intake = abandon(this.intake);
    for (const ws of this.ctx.getWebSockets(TUNNEL_TAG)) sendBackLater(ws, ErrorCode.INTERNAL, "a session's room is unavailable");
  }

  // ---------------------------------------------------------------- RPC from SessionRooms

  async dispatch(sessionId: string, command: MachineCommand, opts: DispatchOptions): Promise<DispatchResult> {
    // session.close comes only from a deleted room (issue 26): its room is not called again.
    if (command.t === "session.close") this.store.forgetSession(sessionId);
    else this.store.addSession(sessionId);
    const ws = this.tunnel();
    if (!ws && !opts.deliverWhenOnline) return { ok: false, code: ErrorCode.MACHINE_OFFLINE, message: "the machine is offline" };
    if (opts.startsTurn) {
      const refused = budgetRefusal(opts, this.store.isActive(sessionId), this.store.activeCount(), this.budget());
      if (refused) return refused;
      this.store.setActive(sessionId, true);
    }
    const n = this.store.pushDown(command);
    if (ws) sendFrame(ws, { type: "command", n, command });
    return { ok: true };
  }

  // ---- ask / reply (issue 26: the agent's own sessions) ----

  /** A question for the daemon that needs an answer now (machine-asks.ts): sent on the tunnel, not numbered, not kept. Offline → MACHINE_OFFLINE at once. */
  async ask(request: AskRequest, timeoutMs: number): Promise<AskWireOutcome> {
    const ws = this.tunnel();
    if (!ws) return { ok: false, code: AskErrorCode.MACHINE_OFFLINE, message: "the machine is offline" };
    return this.asks.ask(request, (id) => sendFrame(ws, { type: "ask", id, request }), timeoutMs);
  }

  async status(): Promise<{ online: boolean; activeCount: number; budget: number; pendingDown: number; lastSeenUp: number }> {
    return {
      online: this.tunnel() !== null,
      activeCount: this.store.activeCount(),
      budget: this.budget(),
      pendingDown: this.store.pendingDown().length,
      lastSeenUp: this.intake.lastDone,
    };
  }

  /** Checks that the daemon's tunnel is here: a stale "online" (presenceIsStale) becomes offline for rooms, directory and lists. */
  async checkPresence(): Promise<void> {
    if (presenceIsStale(this.store.get("online"), this.tunnel() !== null)) await this.setOffline();
  }

  async setBudget(budget: number): Promise<void> {
    this.store.set("budget", budget);
  }

  /** Token revoked: close the tunnel now; the daemon sees TUNNEL_CLOSE_REVOKED. */
  async disconnect(reason: string): Promise<void> {
    closeAll(this.ctx.getWebSockets(TUNNEL_TAG), TUNNEL_CLOSE_REVOKED, reason.slice(0, 100));
    await this.setOffline();
  }

  // ---------------------------------------------------------------- helpers

  private tunnel(): WebSocket | null {
    for (const ws of this.ctx.getWebSockets(TUNNEL_TAG)) {
      const att = ws.deserializeAttachment() as { hello: boolean } | null;
      if (att?.hello && ws.readyState === WebSocket.OPEN) return ws;
    }
    return null;
  }

  private budget(): number {
    return this.store.get("budget") ?? (Number(this.env.MACHINE_BUDGET) || DEFAULT_MACHINE_BUDGET);
  }

  private notifyRooms(status: MachineStatus): Promise<void> {
    return notifyRooms(this.env, this.store.sessionIds(), status);
  }

  private publishList(): void {
    this.ctx.waitUntil(publishList(this.env, this.store.get("machine_id")));
  }

  private updateDirectory(online: boolean, hello: MachineMeta["hello"] | null): Promise<void> {
    return updateDirectory(this.env, this.store.get("machine_id"), online, hello);
  }
}
