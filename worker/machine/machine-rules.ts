/**
 * The Machine's rules, without the runtime: what it takes from the tunnel, how a batch splits per room,
 * what a failed room call means, and the per-machine active budget. machine-do.ts holds the socket,
 * the stubs and the storage and applies these.
 */
import { MAX_TUNNEL_BACKLOG_BYTES, MAX_TUNNEL_FRAME_BYTES } from "../../shared/limits";
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import { ErrorCode } from "../../shared/viewer-protocol";
import { frameCost, type GateLimits, makeTokenBucket } from "../session-room/rate-limit";
import type { DispatchOptions, DispatchResult } from "./dispatch-result";

export type Numbered = { n: number; event: DaemonEvent };

/**
 * Per-tunnel charge for daemon frames, by size, before anything parses them (as viewer frames are charged,
 * session-room/rate-limit.ts). A daemon sends at most 2 frames unacked (daemon/src/tunnel/send-window.ts), so a
 * legitimate one stays far below this: bench ingest (~10k chunk events/s, ~1.5 MB/s in ~100 frames/s) costs
 * ~200 tokens/s, a fifth of the refill. Only a peer ignoring the send window reaches it; it then costs the
 * Machine at most this much parsing.
 */
export const TUNNEL_GATE: Pick<GateLimits, "burst" | "perSecond" | "charsPerToken" | "maxFrame"> = {
  /** 1 MiB frame = 65 tokens: 30 of the largest frames (or 2,000 small ones) at once. */
  burst: 2_000,
  /** ≈ 16 MiB/s of frames sustained (or 1,000 small frames/s): a few % of a core's JSON parsing, 5× bench ingest. */
  perSecond: 1_000,
  /** One token per frame plus one per 16 KiB. */
  charsPerToken: 16 * 1024,
  maxFrame: MAX_TUNNEL_FRAME_BYTES,
};

/** What the Machine does with one daemon frame, decided from its size alone. */
export const TunnelIntake = {
  accept: "accept",
  /** Over MAX_TUNNEL_FRAME_BYTES (charged as the largest allowed): FRAME_TOO_LARGE, not parsed. */
  tooLarge: "too_large",
  /** Over the rate: not parsed; the tunnel is closed "try again later" and the daemon resends what is unacked. */
  limited: "limited",
} as const;
export type TunnelIntake = (typeof TunnelIntake)[keyof typeof TunnelIntake];

/** One tunnel socket's gate: `admit(size, at)` for a frame of `size` characters arriving at `at` (ms). */
export function makeTunnelGate(now: number, limits = TUNNEL_GATE) {
  const bucket = makeTokenBucket(limits.burst, limits.perSecond, now);
  return {
    admit(size: number, at: number): TunnelIntake {
      if (!bucket.take(at, frameCost(size, limits))) return TunnelIntake.limited;
      return size > limits.maxFrame ? TunnelIntake.tooLarge : TunnelIntake.accept;
    },
  };
}
export type TunnelGate = ReturnType<typeof makeTunnelGate>;

/**
 * Frames from the tunnel: resends (n ≤ the highest taken) are dropped; new ones are refused whole when
 * they would push the unapplied backlog over MAX_TUNNEL_BACKLOG_BYTES (the daemon keeps and resends them).
 */
export function intake(
  frames: readonly Numbered[],
  highestTaken: number,
  backlogBytes: number,
  bytes: number,
): { overloaded: true } | { overloaded: false; fresh: Numbered[]; highestTaken: number } {
  if (frames.some((f) => f.n > highestTaken) && backlogBytes + bytes > MAX_TUNNEL_BACKLOG_BYTES) return { overloaded: true };
  const fresh: Numbered[] = [];
  let highest = highestTaken;
  for (const f of frames) {
    if (f.n <= highest) continue;
    highest = f.n;
    fresh.push(f);
  }
  return { overloaded: false, fresh, highestTaken: highest };
}

/**
 * A batch split per room, order kept within each session. A daemon speaks only for sessions opened on
 * its machine (`known`): events for any other are left out and reported in `foreign`. `ended`: sessions
 * whose turn ended in this batch (they leave the active budget).
 */
export function splitBySession(batch: readonly Numbered[], known: (sessionId: string) => boolean) {
  const bySession = new Map<string, Numbered[]>();
  const foreign = new Set<string>();
  const ended: string[] = [];
  for (const f of batch) {
    const sessionId = f.event.sessionId;
    let group = bySession.get(sessionId);
    if (!group) {
      if (foreign.has(sessionId) || !known(sessionId)) {
        foreign.add(sessionId);
        continue;
      }
      bySession.set(sessionId, (group = []));
    }
    if (f.event.t === "turn.ended") ended.push(sessionId);
    group.push(f);
  }
  return { bySession, foreign, ended };
}

/** Fields the Workers runtime sets on an error from a Durable Object call. */
export type CallError = { remote?: boolean; retryable?: boolean; overloaded?: boolean; durableObjectReset?: boolean };

/** Calls per batch to a room the runtime reports reset or transiently failed (each on a fresh stub). */
export const ROOM_CALL_ATTEMPTS = 3;

/**
 * What a failed room call means. A reset or transient failure (the runtime's flags, or an error that did
 * not come from the room's code) is retried — the room drops what it already committed — unless the room
 * is overloaded or the attempts are spent (`unavailable`: nothing acked, the daemon resends later). An
 * error the room's own code threw is a bug or a bad event a retry would only repeat: `dropped`.
 */
export function afterRoomError(err: unknown, attempt: number): "retry" | "dropped" | "unavailable" {
  const e: CallError = typeof err === "object" && err !== null ? err : {};
  const transient = e.durableObjectReset === true || e.retryable === true || e.overloaded === true || e.remote !== true;
  if (!transient) return "dropped";
  // An overloaded room is not called again at once; the daemon's reconnect backoff paces the retry.
  if (e.overloaded === true || attempt >= ROOM_CALL_ATTEMPTS) return "unavailable";
  return "retry";
}

/**
 * The per-machine active budget: an idle send that starts a turn beyond it is refused; a queue flush
 * (behind the session's own turn) and a session already counted add no concurrency.
 */
export function budgetRefusal(opts: DispatchOptions, sessionActive: boolean, activeCount: number, budget: number): DispatchResult | null {
  if (!opts.startsTurn || opts.fromQueue || sessionActive || activeCount < budget) return null;
  return {
    ok: false,
    code: ErrorCode.MACHINE_BUSY,
    message: `this machine is already running ${budget} turn${budget === 1 ? "" : "s"}; try again when one finishes`,
  };
}

/** A WebSocket close reason is at most 123 bytes: the host name is cut to keep the sentence whole. */
const CLOSE_REASON_HOST_CHARS = 60;

/** What a daemon replaced by a newer one on the same token is told: which daemon took the machine. */
export function replacedReason(hello: { hostname: string; pid?: number }): string {
  const host = hello.hostname.slice(0, CLOSE_REASON_HOST_CHARS) || "an unknown host";
  return `replaced by the daemon on ${host}${hello.pid !== undefined ? ` (pid ${hello.pid})` : ""}`;
}

/**
 * Whether a Machine that believes its daemon online is wrong: it holds no greeted tunnel, so this object was
 * reset (a deploy, a crash) while the daemon stayed away, and no close event will ever say so.
 */
export function presenceIsStale(storedOnline: boolean | null, hasTunnel: boolean): boolean {
  return storedOnline === true && !hasTunnel;
}
