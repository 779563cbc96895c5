/**
 * Transition: the Machine's answer to a command the room dispatched (room-effects.ts `About` says why it
 * was sent). Returns the reply it decides for the op that caused it, if any.
 */
import { assertNever } from "../../shared/assert-never";
import { ErrorCode } from "../../shared/viewer-protocol";
import type { DispatchResult } from "../machine/dispatch-result";
import { requeueAdmitted } from "./dropped-offer";
import { atHead, withEntryState } from "./queue-rules";
import { type About, ackOf, type Out, refuse, type Reply } from "./room-effects";
import { confirm, release, requeue } from "./turn-rules";

export function onDispatchAnswer(out: Out, about: About, res: DispatchResult): Reply | null {
  switch (about.kind) {
    case "plain":
      return null;
    case "prompt":
      if (res.ok) {
        confirm(out, about.turnId);
        if (about.then !== "send") return null;
        requeueAdmitted(out, about.entries[0]!.id);
        return ackOf("message.send", { queued: false });
      }
      release(out, about.turnId);
      switch (about.then) {
        case "send":
          return refuse(res.code, res.message);
        case "flush":
          // Back where they were: viewers were not told they left.
          out.set({ queue: atHead(out.state.queue, about.entries) });
          out.emit({ kind: "notice", level: "warn", text: `Queued message not sent yet: ${res.message}` });
          return null;
        case "recover":
          requeue(out, about.entries);
          out.emit({ kind: "notice", level: "warn", text: `Queued message not sent yet: ${res.message}` });
          out.status();
          return null;
        default:
          return assertNever(about.then);
      }
    case "steer":
      if (res.ok) return ackOf("queue.steer", { outcome: "steering" });
      out.set({ queue: withEntryState(out.state.queue, about.entryId, about.was) });
      out.emitQueue(false);
      return refuse(res.code, res.message);
    case "config":
      if (!res.ok) return refuse(res.code, res.message);
      return ackOf(about.op, { outcome: "forwarded", appliesNextTurn: out.state.turn.phase !== "idle" });
    case "open":
      if (!res.ok && res.code === ErrorCode.MACHINE_OFFLINE) {
        out.set({ machineOnline: false });
        out.status();
      }
      return null;
    default:
      return assertNever(about);
  }
}
