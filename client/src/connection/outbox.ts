/**
 * Unacknowledged message.send ops by client id: resent after every `ready` until the room acks or
 * refuses them (the room is idempotent by id), so nothing typed is lost across a drop. Plain.
 */
import type { ClientOp } from "../../../shared/viewer-protocol";

type SendOp = Extract<ClientOp, { op: "message.send" }>;

export function makeOutbox() {
  const pending = new Map<string, SendOp>();
  return {
    add(op: SendOp): void {
      pending.set(op.rid, op);
    },
    settle(rid: string): void {
      pending.delete(rid);
    },
    /** What to resend on a fresh connection, oldest first. */
    resend(): SendOp[] {
      return [...pending.values()];
    },
    get size() {
      return pending.size;
    },
  };
}
export type Outbox = ReturnType<typeof makeOutbox>;
