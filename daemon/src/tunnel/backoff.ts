/** Jittered exponential backoff for the tunnel's reconnects. */

export type BackoffOptions = {
  /** First delay before jitter: a blip reconnects in well under a second. */
  baseMs: number;
  /** Ceiling: a long outage is retried every ~15 s, not hammered, not abandoned. */
  maxMs: number;
};

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 15_000 };

/** Delay for the n-th consecutive failure (0-based): base·2ⁿ capped, scaled by a random 50–100 % (spreads a fleet). */
export function backoffDelay(attempt: number, o: BackoffOptions = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const raw = Math.min(o.maxMs, o.baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(raw * (0.5 + random() * 0.5));
}
