/**
 * Per-socket intake rule for viewer frames, applied before any parsing: every frame is charged to a token
 * bucket by its size, so junk, non-JSON and oversized frames cost the sender exactly like valid ones.
 * Plain; time is passed in.
 */
import {
  MAX_VIEWER_FRAME_BYTES,
  RATE_BURST,
  RATE_CHARS_PER_TOKEN,
  RATE_NOTICE_WINDOW_MS,
  RATE_PER_SECOND,
  RATE_STRIKES_TO_CLOSE,
} from "../../shared/limits";

/** What the adapter does with one frame. */
export const Intake = {
  /** Parse and handle it. */
  accept: "accept",
  /** Over the size limit: answer FRAME_TOO_LARGE without parsing. */
  tooLarge: "too_large",
  /** Over the rate: answer one RATE_LIMITED (the first refusal of a window), do not parse. */
  limited: "limited",
  /** Over the rate again within the same window: drop silently. */
  drop: "drop",
  /** Over the rate for RATE_STRIKES_TO_CLOSE consecutive windows: close the socket (1008). */
  close: "close",
} as const;
export type Intake = (typeof Intake)[keyof typeof Intake];

export type GateLimits = {
  burst: number;
  perSecond: number;
  charsPerToken: number;
  maxFrame: number;
  noticeWindowMs: number;
  strikesToClose: number;
};

export const VIEWER_GATE: GateLimits = {
  burst: RATE_BURST,
  perSecond: RATE_PER_SECOND,
  charsPerToken: RATE_CHARS_PER_TOKEN,
  maxFrame: MAX_VIEWER_FRAME_BYTES,
  noticeWindowMs: RATE_NOTICE_WINDOW_MS,
  strikesToClose: RATE_STRIKES_TO_CLOSE,
};

/** Tokens a frame of `size` costs (an oversized frame is charged as the largest allowed one). */
export function frameCost(size: number, limits: Pick<GateLimits, "maxFrame" | "charsPerToken"> = VIEWER_GATE): number {
  return 1 + Math.floor(Math.min(size, limits.maxFrame) / limits.charsPerToken);
}

/** Token bucket: `burst` tokens at once, refilled at `perSecond`. */
export function makeTokenBucket(burst: number, perSecond: number, now: number) {
  let tokens = burst;
  let last = now;
  return {
    take(at: number, cost = 1): boolean {
      tokens = Math.min(burst, tokens + (Math.max(0, at - last) / 1000) * perSecond);
      last = Math.max(last, at);
      if (tokens < cost) return false;
      tokens -= cost;
      return true;
    },
  };
}
export type TokenBucket = ReturnType<typeof makeTokenBucket>;

/** One socket's gate: `admit(size, at)` says what to do with a frame of `size` (characters or bytes). */
export function makeFrameGate(now: number, limits: GateLimits = VIEWER_GATE) {
  const bucket = makeTokenBucket(limits.burst, limits.perSecond, now);
  let windowStart: number | null = null;
  let strikes = 0;
  return {
    admit(size: number, at: number): Intake {
      if (bucket.take(at, frameCost(size, limits))) return size > limits.maxFrame ? Intake.tooLarge : Intake.accept;
      if (windowStart !== null && at - windowStart < limits.noticeWindowMs) return Intake.drop;
      // A new window of refusals: a strike more if the previous window was refused too, else a fresh count.
      strikes = windowStart !== null && at - windowStart < 2 * limits.noticeWindowMs ? strikes + 1 : 1;
      windowStart = at;
      return strikes >= limits.strikesToClose ? Intake.close : Intake.limited;
    },
  };
}
export type FrameGate = ReturnType<typeof makeFrameGate>;
