import type { ErrorCode } from "../../shared/viewer-protocol";

/** What the Machine DO answers a SessionRoom's command. */
export type DispatchResult =
  | { ok: true }
  | { ok: false; code: typeof ErrorCode.MACHINE_BUSY | typeof ErrorCode.MACHINE_OFFLINE | typeof ErrorCode.NOT_FOUND; message: string };

export type DispatchOptions = {
  /** A `prompt` that starts a turn: subject to the per-machine active budget. */
  startsTurn?: boolean;
  /** The prompt is a queue flush behind this session's own turn: adds no concurrency, bypasses the budget. */
  fromQueue?: boolean;
  /** Keep the command for delivery after the daemon reconnects instead of refusing it (cancel, permission answers). */
  deliverWhenOnline?: boolean;
};

/** What the Machine tells its rooms about the daemon. */
export type MachineStatus = {
  online: boolean;
  /** Sessions the (re)connected daemon still has live. */
  liveSessionIds: string[];
  /** The daemon process restarted (new epoch): its turns and agent processes are gone. */
  restarted: boolean;
};
