/**
 * The daemon's one outbound WebSocket to the Machine DO: the socket, reconnects with backoff, the
 * heartbeat and the timers. The protocol over it (hello/welcome, numbering, resend, acks, the send
 * window, commands once each) is tunnel-link.ts, which knows no socket.
 */
import { randomBytes } from "node:crypto";
import WebSocket from "ws";
import { MAX_TUNNEL_FRAME_BYTES } from "../../../shared/limits";
import { CLOSE_UPGRADE_REQUIRED, TUNNEL_PROTOCOL_VERSION, upgradeCommand } from "../../../shared/protocol-version";
import {
  type AgentInfo,
  type DaemonEvent,
  type DaemonFrame,
  type MachineCommand,
  TUNNEL_CLOSE_REPLACED,
  TUNNEL_CLOSE_REVOKED,
  TUNNEL_PATH,
  TUNNEL_TOKEN_HEADER,
} from "../../../shared/tunnel-protocol";
import { assertNever } from "../../../shared/assert-never";
import { AskErrorCode } from "../../../shared/tunnel-ask";
import { DEFAULT_BACKOFF, backoffDelay, type BackoffOptions } from "./backoff";
import { errorMessage, silentLogger, type Logger } from "../log";
import { type HelloInfo, makeTunnelLink, snippet } from "./tunnel-link";
import { withoutTrailingSlashes } from "../../../shared/paths";

/** A rejected token will not fix itself: retry rarely (the user may re-pair meanwhile), never hot-loop. */
const AUTH_RETRY_MS = 60_000;
/**
 * A daemon replaced by another on the same machine token waits this long before taking the machine back:
 * minutes, so two copies never flap (each retry would evict the other), yet a stray copy that was stopped
 * is taken over again without anyone restarting this one.
 */
const REPLACED_RETRY_MS = 10 * 60_000;
/** No ack for this long frees the window anyway (a frame the server refused is never acked). */
const ACK_STALL_MS = 2_000;
/** Ping period (NATs drop idle flows silently); the runtime on the server side answers pings itself. */
const HEARTBEAT_MS = 20_000;
/** Periods in a row with no pong and no frame before the socket is presumed dead (tolerates one slow pong). */
const HEARTBEAT_MISSES = 2;
/** From socket open to `welcome`: a server that never answers hello is treated as a failed attempt. */
const WELCOME_TIMEOUT_MS = 15_000;
/** TCP + TLS + upgrade budget for one attempt. */
const HANDSHAKE_TIMEOUT_MS = 15_000;

/** `incompatible`: the server refused this daemon's tunnel protocol (close 4426); retried as rarely as a bad token. */
export type TunnelStatus = "connecting" | "connected" | "disconnected" | "unauthorized" | "incompatible" | "replaced" | "stopped";

export type TunnelClientOptions = {
  server: string;
  token: string;
  hello(): HelloInfo;
  /** Called once per new command, in order. Must not throw (errors are logged). */
  onCommand(cmd: MachineCommand): void;
  /** A numbered command the daemon could not parse (acked anyway so it is not resent forever). */
  onInvalidCommand?(raw: unknown, reason: string): void;
  /** Answers an ask (shared/tunnel-ask.ts); `request` is unchecked (the handler parses it). Must settle. */
  onAsk?(request: unknown): Promise<AskAnswer>;
  onStatus?(status: TunnelStatus): void;
  log?: Logger;
  epoch?: string;
  backoff?: Partial<BackoffOptions>;
  authRetryMs?: number;
  /** How long a daemon replaced by another on the same token stands by (REPLACED_RETRY_MS). */
  replacedRetryMs?: number;
  heartbeatMs?: number;
  welcomeTimeoutMs?: number;
};

export type AskAnswer = { ok: true; result: unknown } | { ok: false; code: string; message: string };

export type TunnelClient = {
  start(): void;
  stop(): Promise<void>;
  /** Numbers and queues an event; sent now if connected, else after the next welcome. */
  send(event: DaemonEvent): void;
  /**
   * The agents again (capabilities learnt): current state, not numbered; dropped when not connected, since
   * the next hello carries them anyway.
   */
  sendAgents(agents: AgentInfo[]): void;
  readonly epoch: string;
  readonly status: TunnelStatus;
  /** Events not yet acked by the machine. */
  readonly pending: number;
  readonly lastSeenDown: number;
};

/** `<server>` + TUNNEL_PATH with http→ws / https→wss; the token never goes in the URL. */
export function tunnelUrl(server: string): string {
  const u = new URL(server);
  if (u.protocol === "http:") u.protocol = "ws:";
  else if (u.protocol === "https:") u.protocol = "wss:";
  else if (u.protocol !== "ws:" && u.protocol !== "wss:") throw new Error(`unsupported server URL scheme: ${u.protocol}`);
  u.pathname = `${withoutTrailingSlashes(u.pathname)}${TUNNEL_PATH}`;
  u.search = "";
  u.hash = "";
  u.username = "";
  u.password = "";
  return u.toString();
}

export function createTunnelClient(o: TunnelClientOptions): TunnelClient {
  const log = o.log ?? silentLogger;
  const url = tunnelUrl(o.server);
  const epoch = o.epoch ?? randomBytes(12).toString("hex");
  const backoff: BackoffOptions = { ...DEFAULT_BACKOFF, ...(o.backoff ?? {}) };

  let ws: WebSocket | null = null;
  let status: TunnelStatus = "disconnected";
  let stopped = true;
  let attempt = 0;
  let authFailed = false;
  /** The close reason naming the daemon that took this machine over (null: not replaced). */
  let replacedBy: string | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let heartbeatTimer: NodeJS.Timeout | null = null;
  let welcomeTimer: NodeJS.Timeout | null = null;
  let stallTimer: NodeJS.Timeout | null = null;
  let tickScheduled = false;

  const rawSend = (frame: DaemonFrame): boolean => {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    try {
      ws.send(JSON.stringify(frame));
      return true;
    } catch (err) {
      log.warn(`tunnel send failed: ${errorMessage(err)}`);
      return false;
    }
  };

  const link = makeTunnelLink(epoch, {
    transmit: rawSend,
    onCommand(cmd) {
      try {
        o.onCommand(cmd);
      } catch (err) {
        log.error(`command ${cmd.t} handler failed: ${errorMessage(err)}`);
      }
    },
    onInvalidCommand(raw, reason) {
      try {
        o.onInvalidCommand?.(raw, reason);
      } catch {
        /* ignore */
      }
    },
    log,
  });

  const setStatus = (s: TunnelStatus) => {
    if (status === s) return;
    status = s;
    try {
      o.onStatus?.(s);
    } catch {
      /* observer bugs are not ours to crash on */
    }
  };

  const clearTimers = () => {
    if (heartbeatTimer) clearInterval(heartbeatTimer);
    if (welcomeTimer) clearTimeout(welcomeTimer);
    if (stallTimer) clearTimeout(stallTimer);
    heartbeatTimer = welcomeTimer = stallTimer = null;
  };

  const scheduleReconnect = () => {
    if (stopped || reconnectTimer) return;
    const wait = replacedBy
      ? (o.replacedRetryMs ?? REPLACED_RETRY_MS)
      : authFailed
        ? backoffDelay(0, { baseMs: o.authRetryMs ?? AUTH_RETRY_MS, maxMs: o.authRetryMs ?? AUTH_RETRY_MS })
        : backoffDelay(attempt, backoff);
    attempt++;
    if (!authFailed && !replacedBy) log.info(`tunnel down; reconnecting in ${(wait / 1000).toFixed(1)}s`);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      connect();
    }, wait);
  };

  /** Events waiting on a full send window: if no ack frees it in time, free it anyway. */
  const armStall = () => {
    if (stallTimer) return;
    stallTimer = setTimeout(() => {
      stallTimer = null;
      if (link.stalled()) armStall();
    }, ACK_STALL_MS);
  };

  /** An ask is answered once, when its handler settles; a socket gone by then drops it (the Machine times out). */
  function answerAsk(id: string, request: unknown): void {
    const handler = o.onAsk ?? (async () => ({ ok: false as const, code: AskErrorCode.UNKNOWN_ASK, message: "this daemon answers no asks" }));
    handler(request)
      .catch((err: unknown) => ({ ok: false as const, code: AskErrorCode.AGENT_FAILED, message: errorMessage(err) }))
      .then((answer) => {
        if (!link.reply(id, answer)) log.warn(`the answer to ask ${id.slice(0, 64)} was not sent: the tunnel is down`);
      });
  }

  /** Events pushed in one tick go out as one frame (see tunnel-link.ts). */
  const flushTick = () => {
    tickScheduled = false;
    if (link.flush()) armStall();
  };

  function onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    if (isBinary) return log.warn("ignored a binary frame from the server");
    const event = link.receive(data.toString());
    if (!event) return;
    switch (event.type) {
      case "welcome":
        if (welcomeTimer) clearTimeout(welcomeTimer);
        welcomeTimer = null;
        attempt = 0;
        authFailed = false;
        replacedBy = null;
        log.info(`connected to ${url}${event.machineId ? ` (machine ${event.machineId})` : ""}${event.resend ? `; resending ${event.resend} event(s)` : ""}`);
        setStatus("connected");
        return link.resend();
      case "ack":
        if (stallTimer) clearTimeout(stallTimer);
        stallTimer = null;
        if (event.waiting) flushTick();
        return;
      case "ask":
        return answerAsk(event.id, event.request);
      default:
        return assertNever(event);
    }
  }

  function connect(): void {
    if (stopped) return;
    // A slow retry after a rejected token stays "unauthorized" until a welcome proves the token good.
    if (!authFailed) setStatus("connecting");
    link.disconnected();
    let socket: WebSocket;
    try {
      socket = new WebSocket(url, {
        headers: { [TUNNEL_TOKEN_HEADER]: o.token },
        handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
        maxPayload: MAX_TUNNEL_FRAME_BYTES * 2,
        perMessageDeflate: false,
      });
    } catch (err) {
      log.error(`cannot open tunnel to ${url}: ${errorMessage(err)}`);
      setStatus("disconnected");
      return scheduleReconnect();
    }
    ws = socket;
    let silentPeriods = 0;

    socket.on("open", () => {
      rawSend(link.hello(o.hello()));
      welcomeTimer = setTimeout(() => {
        log.warn("no welcome from the server; reconnecting");
        socket.terminate();
      }, o.welcomeTimeoutMs ?? WELCOME_TIMEOUT_MS);
      heartbeatTimer = setInterval(() => {
        if (++silentPeriods > HEARTBEAT_MISSES) {
          log.warn("tunnel heartbeat lost; reconnecting");
          return socket.terminate();
        }
        try {
          socket.ping();
        } catch {
          /* closing */
        }
      }, o.heartbeatMs ?? HEARTBEAT_MS);
    });
    socket.on("pong", () => (silentPeriods = 0));
    socket.on("message", (data, isBinary) => {
      silentPeriods = 0;
      if (ws !== socket) return;
      try {
        onMessage(data, isBinary);
      } catch (err) {
        log.error(`tunnel frame handling failed: ${errorMessage(err)}`);
      }
    });
    socket.on("error", (err) => {
      const m = /Unexpected server response: (\d{3})/.exec(err.message);
      const code = m ? Number(m[1]) : null;
      if (code === 401 || code === 403) {
        const retry = Math.round((o.authRetryMs ?? AUTH_RETRY_MS) / 1000);
        if (!authFailed)
          log.error(`the server rejected the machine token (HTTP ${code}): it is wrong or was revoked. Pair this machine again; retrying every ~${retry}s`);
        authFailed = true;
        setStatus("unauthorized");
      } else if (code !== null) {
        log.warn(`tunnel upgrade refused (HTTP ${code})`);
      } else if (attempt === 0 || link.welcomed) {
        log.warn(`tunnel error: ${err.message}`);
      }
    });
    socket.on("close", (code, reason) => {
      if (ws !== socket) return;
      clearTimers();
      ws = null;
      const wasWelcomed = link.welcomed;
      link.disconnected();
      if (stopped) return setStatus("stopped");
      if (code === TUNNEL_CLOSE_REVOKED) {
        // The Machine DO closes with 4401 when the token is revoked: say so once, then retry slowly.
        const retry = Math.round((o.authRetryMs ?? AUTH_RETRY_MS) / 1000);
        if (!authFailed)
          log.error(`the server closed the tunnel: the machine token was revoked (code ${code}). Pair this machine again; retrying every ~${retry}s`);
        authFailed = true;
        setStatus("unauthorized");
        return scheduleReconnect();
      }
      if (code === TUNNEL_CLOSE_REPLACED) {
        // Another daemon with this token said hello: stand by rather than evict it back (they would flap forever).
        const by = snippet(reason.toString()) || "replaced by another daemon";
        const minutes = Math.round((o.replacedRetryMs ?? REPLACED_RETRY_MS) / 60_000);
        if (replacedBy !== by)
          log.warn(
            `another daemon with this machine's token took it over (${by}); this one stands by and tries again in ${minutes} min. Stop the other daemon, or restart this one to take the machine back`,
          );
        replacedBy = by;
        setStatus("replaced");
        return scheduleReconnect();
      }
      if (code === CLOSE_UPGRADE_REQUIRED) {
        // The Machine refused our protocol version; only an upgrade (or a server update) fixes that.
        const retry = Math.round((o.authRetryMs ?? AUTH_RETRY_MS) / 1000);
        if (!authFailed)
          log.error(`the server refused this daemon (tunnel protocol ${TUNNEL_PROTOCOL_VERSION}, code ${code}): ${reason.toString() || `upgrade the daemon: ${upgradeCommand}`}; retrying every ~${retry}s`);
        authFailed = true;
        setStatus("incompatible");
        return scheduleReconnect();
      }
      if (wasWelcomed) log.info(`tunnel closed (code ${code}${reason.length ? `: ${snippet(reason.toString())}` : ""})`);
      if (!authFailed) setStatus("disconnected");
      scheduleReconnect();
    });
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      connect();
    },
    async stop() {
      stopped = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      clearTimers();
      const socket = ws;
      ws = null;
      link.disconnected();
      setStatus("stopped");
      if (!socket || socket.readyState === WebSocket.CLOSED) return;
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => {
          socket.terminate();
          resolve();
        }, 1000);
        socket.once("close", () => {
          clearTimeout(kill);
          resolve();
        });
        try {
          if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
          else socket.close(1000, "daemon stopping");
        } catch {
          clearTimeout(kill);
          resolve();
        }
      });
    },
    sendAgents(agents) {
      if (link.welcomed) rawSend({ type: "agents", agents });
    },
    send(event) {
      if (!link.push(event) || tickScheduled) return;
      tickScheduled = true;
      setImmediate(flushTick);
    },
    epoch,
    get status() {
      return status;
    },
    get pending() {
      return link.pending;
    },
    get lastSeenDown() {
      return link.lastSeenDown;
    },
  };
}
