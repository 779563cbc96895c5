/** What the Worker and the SessionRooms call on a Machine (its DO RPC surface), declared apart from the DO. */
import type { MachineCommand } from "../../shared/tunnel-protocol";
import type { AskRequest } from "../../shared/tunnel-ask";
import type { DispatchOptions, DispatchResult } from "./dispatch-result";

/** An ask's outcome as it crosses the RPC (the caller checks `result` again with `outcomeOf`). */
export type AskWireOutcome = { ok: true; result: string } | { ok: false; code: string; message: string };

export interface MachineRpc extends Rpc.DurableObjectBranded {
  /** The daemon's tunnel upgrade (the Worker checked the machine token). */
  fetch(request: Request): Promise<Response>;
  /** A room's command for the daemon: budget check, numbered, sent now or kept until the daemon is back. */
  dispatch(sessionId: string, command: MachineCommand, opts: DispatchOptions): Promise<DispatchResult>;
  /** A question the daemon answers now (shared/tunnel-ask.ts): offline → MACHINE_OFFLINE at once, no answer → ASK_TIMEOUT. */
  ask(request: AskRequest, timeoutMs: number): Promise<AskWireOutcome>;
  status(): Promise<{ online: boolean; activeCount: number; budget: number; pendingDown: number; lastSeenUp: number }>;
  /** Checks that the daemon's tunnel is here: a Machine reset while its daemon stayed away then says offline to all. */
  checkPresence(): Promise<void>;
  setBudget(budget: number): Promise<void>;
  /** Token revoked: close the tunnel now. */
  disconnect(reason: string): Promise<void>;
}
