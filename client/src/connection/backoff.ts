/** The sockets' reconnect pacing (the session page's viewer socket, the list's feed). */

/** partysocket's 3 s first retry is too slow for a phone switching networks: 250–750 ms, ×1.6, ≤ 10 s. */
export const BACKOFF = { minMs: 250, jitterMs: 500, grow: 1.6, maxMs: 10_000 };

/**
 * The reconnect backoff, awaited by the socket's URL provider rather than by partysocket: partysocket's own wait
 * cannot be cut short (a `reconnect()` during it is ignored), so after a long cut the socket would sit out up to
 * `maxMs` with the network already back. This one ends at once on `wakeNow()` (online, visible, pageshow).
 * First dial immediate; retries min + jitter (≤ 1 s), then ×grow up to max.
 */
export function makeBackoff(b = BACKOFF, random = Math.random) {
  let attempt = 0;
  let wake: (() => void) | null = null;
  return {
    /** The delay before dial number `attempt` (0: none). */
    delayFor(n: number): number {
      return n === 0 ? 0 : Math.min(b.maxMs, (b.minMs + random() * b.jitterMs) * b.grow ** (n - 1));
    },
    /** Resolves when this dial may go: after its step's delay, or at once when woken. */
    wait(): Promise<void> {
      const delay = this.delayFor(attempt++);
      if (delay === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(() => done(), delay);
        const done = () => {
          clearTimeout(timer);
          if (wake === done) wake = null;
          resolve();
        };
        wake = done;
      });
    },
    /** Joined: the next drop starts from the first step. */
    reset(): void {
      attempt = 0;
    },
    /** The network or the page is back: a wait in progress ends now and the steps start over. */
    wakeNow(): void {
      // A woken wait is the immediate dial itself; the next failure waits the first step.
      attempt = wake ? 1 : 0;
      wake?.();
    },
  };
}

