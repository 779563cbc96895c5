/** The SessionRoom's ports: what RoomCore does to the world, and how it answers one viewer. */
import type { MachineCommand } from "../../shared/tunnel-protocol";
import type { AckOf, ClientOpName, ErrorCode, SessionState } from "../../shared/viewer-protocol";
import type { Reply } from "./room-effects";
import type { DispatchOptions, DispatchResult } from "../machine/dispatch-result";
import type { PushEvent } from "../push/notify-rules";

/** Effects of the room on the world: viewers, the Machine, the directory, the clock. */
export interface RoomPort {
  /** The same text to every connected viewer. */
  broadcast(text: string): void;
  /** A command for the session's daemon through its Machine (budget, numbering, delivery). */
  dispatch(machineId: string, sessionId: string, command: MachineCommand, opts: DispatchOptions): Promise<DispatchResult>;
  /** Asks the session's Machine whether its daemon is really there (it then tells its rooms if not); never throws. */
  checkMachinePresence(machineId: string): Promise<void>;
  /** The directory's copy of the session's status / last activity (best effort, not awaited). */
  directoryStatus(sessionId: string, state: SessionState): void;
  directoryActivity(sessionId: string, at: number): void;
  /** The directory's copy of what tells the session apart in the list (best effort, not awaited). */
  directoryTitle(sessionId: string, title: { firstPrompt?: string; agentTitle?: string }): void;
  /** The directory's "needs you" marker: a permission request or form is open (issue 26; best effort). */
  directoryNeedsYou(sessionId: string, open: boolean): void;
  /** Web Push to followers away from the session (worker/push); `build` is called at once or not at all (push off). */
  notify(build: () => PushEvent): void;
  now(): number;
  newId(): string;
  /** Whether any socket is joined to the room. */
  watched(): boolean;
}

/** Answers to the one viewer that sent an op. */
export interface Replier {
  ack<K extends ClientOpName>(op: { op: K; rid: string }, result: AckOf<K>): void;
  error(rid: string | null, code: ErrorCode, message: string): void;
}

/** Sends a reply: an ack (its type given by its op's name) or an error. */
export function sendReply(replier: Replier, rid: string, r: Reply): void {
  if (r.ok) replier.ack({ op: r.op, rid }, r.ack);
  else replier.error(rid, r.code, r.message);
}
