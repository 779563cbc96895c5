/** The sockets' reconnect pacing (the session page's viewer socket, the list's feed). */

/** partysocket's 3 s first retry is too slow for a phone switching networks: 250–750 ms, ×1.6, ≤ 10 s. */
export const BACKOFF = { minMs: 250, jitterMs: 500, grow: 1.6, maxMs: 10_000 };

/**
 * partysocket reads its options on every retry, so a getter gives each retry fresh jitter
 * (first retry = min + jitter ≤ 1 s; then ×grow up to max).
 */
export function jitteredBackoff(b = BACKOFF, random = Math.random) {
  return {
    get minReconnectionDelay() {
      return b.minMs + random() * b.jitterMs;
    },
    maxReconnectionDelay: b.maxMs,
    reconnectionDelayGrowFactor: b.grow,
  };
}
