/**
 * Ack-clocked sending for the tunnel: at most `maxInFlight` frames wait for the Machine's ack; events
 * pushed meanwhile pile up here and leave together in the next frame once an ack frees a slot.
 *
 * Why: the Machine takes one tunnel message per cycle (hand the frame to the rooms, commit its cursor,
 * ack). Frames sent faster than that only queue in the socket and cost one cycle each; held here,
 * everything that arrived during a cycle shares the next one, so throughput grows with load instead of
 * latency (bench/RESULTS.md).
 *
 * Pure (no I/O, no clock): the owner sends what `take` returns, reports each frame's last `n` with
 * `sent`, and reports acks. `release` forgets the window (a new connection, or an ack that never came).
 */
/** Event frames awaiting the Machine's ack before new events wait and coalesce (two hide the ack's trip). */
export const MAX_FRAMES_IN_FLIGHT = 2;

export function makeSendWindow<T>(maxInFlight: number) {
  let queued: T[] = [];
  /** Last `n` of each frame sent and not yet acked, ascending. */
  let inFlight: number[] = [];
  return {
    push(item: T): void {
      queued.push(item);
    },
    /** Everything queued when a slot is free; nothing while the window is full. */
    take(): T[] {
      if (!queued.length || inFlight.length >= maxInFlight) return [];
      const items = queued;
      queued = [];
      return items;
    },
    sent(lastN: number): void {
      inFlight.push(lastN);
    },
    /** The peer processed everything up to `n`: frames ending at or below it leave the window. */
    ack(n: number): void {
      if (inFlight.length && inFlight[0]! <= n) inFlight = inFlight.filter((x) => x > n);
    },
    /** Frees every slot (what was in flight is resent or given up on by the owner). */
    release(): void {
      inFlight = [];
    },
    /** Drops the queue too: after a reconnect the owner resends its whole unacked outbox instead. */
    reset(): void {
      queued = [];
      inFlight = [];
    },
    get queued(): number {
      return queued.length;
    },
    get inFlight(): number {
      return inFlight.length;
    },
  };
}
export type SendWindow<T> = ReturnType<typeof makeSendWindow<T>>;
