/**
 * Handing the daemon's frames to their rooms (the Machine's drain): in order per session, one RPC per
 * session per batch, rooms in parallel. The DO gives the ports; the order and the ack rule live here.
 */
import type { DaemonEvent, MachineFrame } from "../../shared/tunnel-protocol";
import { ErrorCode } from "../../shared/viewer-protocol";
import { type Env, roomStub } from "../env";
import { afterRoomError, splitBySession } from "./machine-rules";
import { batchDone, type IntakeState, nextBatch } from "./tunnel-intake";

/** What became of a session's share of a batch. */
export const Delivery = { applied: "applied", dropped: "dropped", unavailable: "unavailable" } as const;
export type Delivery = (typeof Delivery)[keyof typeof Delivery];

export type Group = { n: number; event: DaemonEvent }[];

/**
 * Hands a session's events to its room. A reset or transient failure (the runtime's flags, or an
 * error that did not come from the room's code) is retried on a fresh stub — the room drops what it
 * already committed. An error the room's own code threw is a bug or a bad event that a retry would
 * only repeat: logged and dropped, so one session cannot wedge the machine's tunnel.
 */
export async function deliverToRoom(env: Env, sessionId: string, epoch: string, group: Group): Promise<Delivery> {
  for (let attempt = 1; ; attempt++) {
    try {
      await roomStub(env, sessionId).onDaemonEvents(epoch, group);
      return Delivery.applied;
    } catch (err) {
      const next = afterRoomError(err, attempt);
      if (next === "dropped") {
        console.error("room rejected daemon events; dropped", sessionId, err);
        return Delivery.dropped;
      }
      if (next === "unavailable") {
        console.error("room unavailable; the daemon will resend", sessionId, err);
        return Delivery.unavailable;
      }
    }
  }
}

export type DrainPort = {
  intake(): IntakeState;
  setIntake(state: IntakeState): void;
  epoch(): string;
  hasSession(sessionId: string): boolean;
  sessionEnded(sessionId: string): void;
  deliver(sessionId: string, epoch: string, group: Group): Promise<Delivery>;
  /** To every open tunnel socket. */
  tell(frame: MachineFrame): void;
  persistLastSeen(n: number): void;
  /** A room could not take its share: nothing from this batch on is acked. */
  abandon(): void;
};

/** Hands every pending batch to its rooms and acks it once all took their share; stops at the first unavailable room. */
export async function drainIntake(port: DrainPort): Promise<void> {
  for (let next = nextBatch(port.intake()); next; next = nextBatch(port.intake())) {
    port.setIntake(next.state);
    const batch = next.batch;
    const epoch = port.epoch();
    // Order matters within a session only: group per session, rooms work in parallel.
    const { bySession, foreign, ended } = splitBySession(batch, (id) => port.hasSession(id));
    for (const id of ended) port.sessionEnded(id);
    for (const id of foreign) port.tell({ type: "error", code: ErrorCode.NOT_FOUND, message: `events for session ${id.slice(0, 64)} ignored: not a session of this machine` });
    const outcomes = await Promise.all([...bySession].map(([sessionId, group]) => port.deliver(sessionId, epoch, group)));
    if (outcomes.includes(Delivery.unavailable)) return port.abandon();
    const last = batch[batch.length - 1]!.n;
    const done = batchDone(port.intake(), last);
    port.setIntake(done.state);
    // Not every cycle: a write here would hold the ack until it commits (output gate).
    if (done.persist) port.persistLastSeen(last);
    port.tell({ type: "ack", n: last });
  }
}
