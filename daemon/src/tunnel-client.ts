/**
 * The daemon's one outbound WebSocket to the Machine DO.
 * Every DaemonEvent is numbered into an outbox and kept until acked (resent after a reconnect);
 * commands are deduped by `n` through an inbox and acked once handed to the host.
 */
import { randomBytes } from "node:crypto";
import WebSocket from "ws";
import { MAX_BATCH_EVENTS, MAX_TUNNEL_FRAME_BYTES } from "../../shared/limits";
import { makeInbox, makeOutbox } from "./reliable-outbox";
import {
  MachineCommand,
  MachineFrame,
  TUNNEL_PATH,
  TUNNEL_TOKEN_HEADER,
  type DaemonEvent,
  type DaemonFrame,
} from "../../shared/tunnel-protocol";
import { assertNever } from "../../shared/assert-never";
import { DEFAULT_BACKOFF, backoffDelay, type BackoffOptions } from "./backoff";
import { fitEvent } from "./frame-fit";
import { MAX_FRAMES_IN_FLIGHT, makeSendWindow } from "./send-window";
import { errorMessage, silentLogger, type Logger } from "./log";

type Hello = Extract<DaemonFrame, { type: "hello" }>;
export type HelloInfo = Omit<Hello, "type" | "epoch" | "lastSeenDown">;

/** A rejected token will not fix itself: retry rarely (the user may re-pair meanwhile), never hot-loop. */
const AUTH_RETRY_MS = 60_000;
/** Close code the Machine DO uses when the machine token was revoked (worker/machine/machine-do.ts). */
export const CLOSE_REVOKED = 4401;
/** A batch frame stays well under the server's frame limit (each event is already fitted to it). */
const BATCH_BYTES = Math.floor(MAX_TUNNEL_FRAME_BYTES * 0.75);
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
/** How much of a malformed frame goes into the log line. */
const LOG_SNIPPET_CHARS = 120;

export type TunnelStatus = "connecting" | "connected" | "disconnected" | "unauthorized" | "stopped";

export type TunnelClientOptions = {
  server: string;
  token: string;
  hello(): HelloInfo;
  /** Called once per new command, in order. Must not throw (errors are logged). */
  onCommand(cmd: MachineCommand): void;
  /** A numbered command the daemon could not parse (acked anyway so it is not resent forever). */
  onInvalidCommand?(raw: unknown, reason: string): void;
  onStatus?(status: TunnelStatus): void;
  log?: Logger;
  epoch?: string;
  backoff?: Partial<BackoffOptions>;
  authRetryMs?: number;
  heartbeatMs?: number;
  welcomeTimeoutMs?: number;
};

export type TunnelClient = {
  start(): void;
  stop(): Promise<void>;
  /** Numbers and queues an event; sent now if connected, else after the next welcome. */
  send(event: DaemonEvent): void;
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
  u.pathname = `${u.pathname.replace(/\/+$/, "")}${TUNNEL_PATH}`;
  u.search = "";
  u.hash = "";
  u.username = "";
  u.password = "";
  return u.toString();
}

function snippet(text: string): string {
  return text.length > LOG_SNIPPET_CHARS ? `${text.slice(0, LOG_SNIPPET_CHARS)}…` : text;
}

export function createTunnelClient(o: TunnelClientOptions): TunnelClient {
  const log = o.log ?? silentLogger;
  const url = tunnelUrl(o.server);
  const epoch = o.epoch ?? randomBytes(12).toString("hex");
  const backoff: BackoffOptions = { ...DEFAULT_BACKOFF, ...(o.backoff ?? {}) };
  const outbox = makeOutbox<DaemonEvent>();
  const inbox = makeInbox();

  let ws: WebSocket | null = null;
  let welcomed = false;
  let status: TunnelStatus = "disconnected";
  let stopped = true;
  let attempt = 0;
  let authFailed = false;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let heartbeatTimer: NodeJS.Timeout | null = null;
  let welcomeTimer: NodeJS.Timeout | null = null;
  let stallTimer: NodeJS.Timeout | null = null;
  const sendWindow = makeSendWindow<{ n: number; payload: DaemonEvent }>(MAX_FRAMES_IN_FLIGHT);

  const setStatus = (s: TunnelStatus) => {
    if (status === s) return;
    status = s;
    try {
      o.onStatus?.(s);
    } catch {
      /* observer bugs are not ours to crash on */
    }
  };

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

  const clearTimers = () => {
    if (heartbeatTimer) clearInterval(heartbeatTimer);
    if (welcomeTimer) clearTimeout(welcomeTimer);
    if (stallTimer) clearTimeout(stallTimer);
    heartbeatTimer = welcomeTimer = stallTimer = null;
  };

  const scheduleReconnect = () => {
    if (stopped || reconnectTimer) return;
    const wait = authFailed ? backoffDelay(0, { baseMs: o.authRetryMs ?? AUTH_RETRY_MS, maxMs: o.authRetryMs ?? AUTH_RETRY_MS }) : backoffDelay(attempt, backoff);
    attempt++;
    if (!authFailed) log.info(`tunnel down; reconnecting in ${(wait / 1000).toFixed(1)}s`);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      connect();
    }, wait);
  };

  function onWelcome(lastSeenUp: number, machineId: string): void {
    if (welcomeTimer) clearTimeout(welcomeTimer);
    welcomeTimer = null;
    welcomed = true;
    attempt = 0;
    authFailed = false;
    outbox.ack(lastSeenUp);
    const resend = outbox.unacked();
    log.info(`connected to ${url}${machineId ? ` (machine ${machineId})` : ""}${resend.length ? `; resending ${resend.length} event(s)` : ""}`);
    setStatus("connected");
    sendWindow.reset();
    sendNumbered(resend);
  }

  /** Sends numbered events coalesced into `batch` frames (bounded by count and bytes), in order. */
  function sendNumbered(items: readonly { n: number; payload: DaemonEvent }[]): void {
    let group: { n: number; event: DaemonEvent }[] = [];
    let bytes = 0;
    const flush = (): boolean => {
      if (!group.length) return true;
      const frame: DaemonFrame = group.length === 1 ? { type: "event", ...group[0]! } : { type: "batch", events: group };
      const lastN = group[group.length - 1]!.n;
      group = [];
      bytes = 0;
      if (!rawSend(frame)) return false;
      sendWindow.sent(lastN);
      return true;
    };
    for (const item of items) {
      const size = JSON.stringify(item.payload).length + 32;
      if (group.length && (group.length >= MAX_BATCH_EVENTS || bytes + size > BATCH_BYTES)) if (!flush()) return;
      group.push({ n: item.n, event: item.payload });
      bytes += size;
    }
    flush();
  }

  /**
   * Events pushed in one tick go out as one frame: a burst of chunks costs one socket message. While
   * the send window is full they wait for an ack and then leave together (see send-window.ts).
   */
  let tickScheduled = false;
  const flushTick = () => {
    tickScheduled = false;
    if (!welcomed) return sendWindow.reset(); // the outbox resends them after the next welcome
    const items = sendWindow.take();
    if (items.length) sendNumbered(items);
    if (sendWindow.queued && !stallTimer)
      stallTimer = setTimeout(() => {
        stallTimer = null;
        sendWindow.release();
        flushTick();
      }, ACK_STALL_MS);
  };
  const onAck = (n: number) => {
    outbox.ack(n);
    sendWindow.ack(n);
    if (stallTimer) clearTimeout(stallTimer);
    stallTimer = null;
    if (sendWindow.queued) flushTick();
  };

  function onCommandFrame(n: number, rawCommand: unknown): void {
    if (inbox.accept(n)) {
      const parsed = MachineCommand.safeParse(rawCommand);
      if (parsed.success) {
        try {
          o.onCommand(parsed.data);
        } catch (err) {
          log.error(`command ${parsed.data.t} handler failed: ${errorMessage(err)}`);
        }
      } else {
        const reason = parsed.error.issues[0]?.message ?? "invalid command";
        log.warn(`ignored invalid command #${n}: ${reason}`);
        try {
          o.onInvalidCommand?.(rawCommand, reason);
        } catch {
          /* ignore */
        }
      }
    }
    rawSend({ type: "ack", n }); // duplicates are acked too, so the machine stops resending
  }

  function onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    if (isBinary) return log.warn("ignored a binary frame from the server");
    const text = data.toString();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return log.warn(`ignored a non-JSON frame from the server: ${snippet(text)}`);
    }
    const parsed = MachineFrame.safeParse(json);
    if (!parsed.success) {
      const j = json as { type?: unknown; n?: unknown; command?: unknown } | null;
      // A numbered command we cannot read still has to be acked, or it comes back after every reconnect.
      if (j && j.type === "command" && Number.isInteger(j.n) && (j.n as number) >= 1 && welcomed) return onCommandFrame(j.n as number, j.command);
      return log.warn(`ignored a malformed frame from the server: ${snippet(text)}`);
    }
    const frame = parsed.data;
    switch (frame.type) {
      case "welcome":
        return onWelcome(frame.lastSeenUp, frame.machineId);
      case "ack":
        return onAck(frame.n);
      case "command":
        if (!welcomed) return log.warn(`ignored command #${frame.n} before welcome`);
        return onCommandFrame(frame.n, frame.command);
      case "error":
        return log.warn(`server error ${frame.code}: ${frame.message}`);
      default:
        return assertNever(frame);
    }
  }

  function connect(): void {
    if (stopped) return;
    // A slow retry after a rejected token stays "unauthorized" until a welcome proves the token good.
    if (!authFailed) setStatus("connecting");
    welcomed = false;
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
      const info = o.hello();
      rawSend({ type: "hello", epoch, lastSeenDown: inbox.lastSeen, ...info });
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
      } else if (attempt === 0 || welcomed) {
        log.warn(`tunnel error: ${err.message}`);
      }
    });
    socket.on("close", (code, reason) => {
      if (ws !== socket) return;
      clearTimers();
      ws = null;
      const wasWelcomed = welcomed;
      welcomed = false;
      if (stopped) return setStatus("stopped");
      if (code === CLOSE_REVOKED) {
        // The Machine DO closes with 4401 when the token is revoked: say so once, then retry slowly.
        const retry = Math.round((o.authRetryMs ?? AUTH_RETRY_MS) / 1000);
        if (!authFailed)
          log.error(`the server closed the tunnel: the machine token was revoked (code ${code}). Pair this machine again; retrying every ~${retry}s`);
        authFailed = true;
        setStatus("unauthorized");
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
      welcomed = false;
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
    send(event) {
      const item = outbox.push(fitEvent(event));
      if (!welcomed) return;
      sendWindow.push(item);
      if (!tickScheduled) {
        tickScheduled = true;
        setImmediate(flushTick);
      }
    },
    epoch,
    get status() {
      return status;
    },
    get pending() {
      return outbox.size;
    },
    get lastSeenDown() {
      return inbox.lastSeen;
    },
  };
}
