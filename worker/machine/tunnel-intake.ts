/**
 * The Machine's bookkeeping of what the daemon sent up, as one value with pure transitions (machine-do.ts
 * keeps it in memory and does the I/O): frames taken but not yet handed to rooms (`pending`), the batch
 * being handed over, and the cursors — `highestTaken` (resends at or below are duplicates), `lastDone`
 * (every room accepted up to it: what acks and welcome report), `persistedUp` (the durable last_seen_up,
 * written only now and then).
 */
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import { intake } from "./machine-rules";

export type Numbered = { n: number; event: DaemonEvent };

export type IntakeState = {
  highestTaken: number;
  lastDone: number;
  persistedUp: number;
  pending: Numbered[];
  /** Frame bytes behind `pending` and behind the batch being handed over: bounded by MAX_TUNNEL_BACKLOG_BYTES. */
  pendingBytes: number;
  drainingBytes: number;
};

/**
 * Applied events between writes of last_seen_up. Each write holds that cycle's ack for a Machine commit (an
 * fsync on a local disk); it is only a hint — after a restart the daemon resends what it holds unacked and
 * the rooms drop what they have by their own cursor — so it is written rarely (was 1,024: one extra commit
 * every ~12 cycles when streaming; issue 31 #3).
 */
export const LAST_SEEN_PERSIST_EVERY = 16_384;

/** After a (re)start: everything up to the durable cursor was applied. */
export const intakeFrom = (lastSeenUp: number): IntakeState => ({ highestTaken: lastSeenUp, lastDone: lastSeenUp, persistedUp: lastSeenUp, pending: [], pendingBytes: 0, drainingBytes: 0 });

/** A new daemon process: its numbering starts over (a batch being handed over keeps its bytes until it ends). */
export const newEpoch = (s: IntakeState): IntakeState => ({ ...intakeFrom(0), drainingBytes: s.drainingBytes });

/**
 * A frame of `bytes` with these events: `overloaded` (nothing taken; the daemon resends later), `taken` (new
 * events queued: hand them over), or `duplicate` (only resends: ack what is done).
 */
export function take(s: IntakeState, frames: readonly Numbered[], bytes: number): { state: IntakeState; outcome: "overloaded" | "taken" | "duplicate" } {
  const taken = intake(frames, s.highestTaken, s.pendingBytes + s.drainingBytes, bytes);
  if (taken.overloaded) return { state: s, outcome: "overloaded" };
  if (!taken.fresh.length) return { state: { ...s, highestTaken: taken.highestTaken }, outcome: "duplicate" };
  return { state: { ...s, highestTaken: taken.highestTaken, pending: [...s.pending, ...taken.fresh], pendingBytes: s.pendingBytes + bytes }, outcome: "taken" };
}

/** The next batch to hand over (all that is pending), or null. */
export function nextBatch(s: IntakeState): { state: IntakeState; batch: Numbered[] } | null {
  if (!s.pending.length) return null;
  return { state: { ...s, pending: [], pendingBytes: 0, drainingBytes: s.pendingBytes }, batch: s.pending };
}

/** Every room accepted the batch up to `last`: acked; `persist` when last_seen_up is due a write. */
export function batchDone(s: IntakeState, last: number): { state: IntakeState; persist: boolean } {
  const persist = last - s.persistedUp >= LAST_SEEN_PERSIST_EVERY;
  return { state: { ...s, lastDone: last, persistedUp: persist ? last : s.persistedUp }, persist };
}

/** Handing over stopped (done, or abandoned). */
export const drainEnded = (s: IntakeState): IntakeState => ({ ...s, drainingBytes: 0 });

/** A room could not take its events: what is queued is let go, and taken again when the daemon resends it. */
export const abandon = (s: IntakeState): IntakeState => ({ ...s, pending: [], pendingBytes: 0, highestTaken: s.lastDone });
