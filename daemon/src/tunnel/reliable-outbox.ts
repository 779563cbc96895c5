/**
 * Numbered frames kept until acked — the sender's half of the tunnel's "nothing lost" rule.
 * Plain (no I/O): the owner sends what `push` / `unacked` return and calls `ack` on the peer's ack.
 */
export type Numbered<T> = { n: number; payload: T };

export function makeOutbox<T>(startAfter = 0) {
  let next = startAfter + 1;
  let pending: Numbered<T>[] = [];
  return {
    push(payload: T): Numbered<T> {
      const item = { n: next++, payload };
      pending.push(item);
      return item;
    },
    /** Drops everything up to and including `n`. */
    ack(n: number): void {
      if (pending.length && pending[0]!.n <= n) pending = pending.filter((p) => p.n > n);
    },
    unacked(): readonly Numbered<T>[] {
      return pending;
    },
    get size() {
      return pending.length;
    },
  };
}
export type Outbox<T> = ReturnType<typeof makeOutbox<T>>;

/** The receiver's half: accepts each `n` once, in order. */
export function makeInbox(lastSeen = 0) {
  let seen = lastSeen;
  return {
    /** True if `n` is new and should be processed; false for a duplicate from a resend. */
    accept(n: number): boolean {
      if (n <= seen) return false;
      seen = n;
      return true;
    },
    get lastSeen() {
      return seen;
    },
  };
}
