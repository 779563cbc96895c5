/** The Machine's tunnel intake as a table: (state, input) → state (and what to do), in plain Node. */
import { describe, expect, it } from "vitest";
import { MAX_TUNNEL_BACKLOG_BYTES } from "../../shared/limits";
import { abandon, batchDone, drainEnded, type IntakeState, intakeFrom, LAST_SEEN_PERSIST_EVERY, newEpoch, nextBatch, type Numbered, take } from "./tunnel-intake";

const ev = (n: number): Numbered => ({ n, event: { t: "session.notice", sessionId: "s1", level: "info", text: `${n}` } });
const S = (patch: Partial<IntakeState> = {}): IntakeState => ({ ...intakeFrom(10), ...patch });

describe("tunnel intake", () => {
  it.each<[string, IntakeState, Numbered[], number, string, Partial<IntakeState>]>([
    ["new frames are queued", S(), [ev(11), ev(12)], 100, "taken", { highestTaken: 12, pending: [ev(11), ev(12)], pendingBytes: 100 }],
    ["a resend is a duplicate: only acked", S(), [ev(9), ev(10)], 100, "duplicate", {}],
    ["part resend, part new: the new part is taken", S(), [ev(10), ev(11)], 100, "taken", { highestTaken: 11, pending: [ev(11)], pendingBytes: 100 }],
    ["new frames past the backlog bound: nothing taken", S({ drainingBytes: MAX_TUNNEL_BACKLOG_BYTES }), [ev(11)], 1, "overloaded", {}],
    ["a resend past the bound is still only a duplicate", S({ pendingBytes: MAX_TUNNEL_BACKLOG_BYTES }), [ev(10)], 1, "duplicate", {}],
  ])("%s", (_name, before, frames, bytes, outcome, changed) => {
    const r = take(before, frames, bytes);
    expect(r.outcome).toBe(outcome);
    expect(r.state).toEqual({ ...before, ...changed });
  });

  it("a batch is handed over whole; its bytes count until handing over ends", () => {
    const s = take(S(), [ev(11), ev(12)], 100).state;
    const next = nextBatch(s)!;
    expect(next.batch).toEqual([ev(11), ev(12)]);
    expect(next.state).toMatchObject({ pending: [], pendingBytes: 0, drainingBytes: 100 });
    expect(nextBatch(next.state)).toBeNull();
    const done = batchDone(next.state, 12);
    expect(done).toEqual({ state: { ...next.state, lastDone: 12 }, persist: false });
    expect(drainEnded(done.state).drainingBytes).toBe(0);
  });

  it("last_seen_up is written every LAST_SEEN_PERSIST_EVERY events, not every batch", () => {
    expect(batchDone(S(), 10 + LAST_SEEN_PERSIST_EVERY - 1).persist).toBe(false);
    const due = batchDone(S(), 10 + LAST_SEEN_PERSIST_EVERY);
    expect(due).toMatchObject({ persist: true, state: { persistedUp: 10 + LAST_SEEN_PERSIST_EVERY } });
  });

  it("abandoned: the queue is let go and its frames are taken again when resent", () => {
    const s = abandon(take(S(), [ev(11)], 5).state);
    expect(s).toEqual({ ...S(), pending: [], pendingBytes: 0, highestTaken: 10 });
    expect(take(s, [ev(11)], 5).outcome).toBe("taken");
  });

  it("a new daemon process starts the numbering over; a batch still being handed over keeps its bytes", () => {
    expect(newEpoch(S({ highestTaken: 40, lastDone: 30, pending: [ev(41)], pendingBytes: 7, drainingBytes: 9 }))).toEqual({ ...intakeFrom(0), drainingBytes: 9 });
    expect(take(newEpoch(S()), [ev(1)], 1).outcome).toBe("taken");
  });
});
