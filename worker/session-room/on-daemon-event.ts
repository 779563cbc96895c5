/**
 * Transition: one event from the session's daemon (numbered; the room applies each once — the cursor is
 * RoomCore's). The agent's config is the daemon's (config.state / session.ready): the room never recomputes it.
 */
import { z } from "zod";
import { assertNever } from "../../shared/assert-never";
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import type { EventOf } from "../../shared/viewer-protocol";
import { configStateOf } from "./config-rules";
import { cancelOpenElicitations, elicitationRequested, elicitationWithdrawn } from "./elicitations";
import { cancelPendingPermissions, permissionRequested, permissionWithdrawn } from "./permissions";
import type { Out } from "./room-effects";
import { IMPORTED_AUTHOR, readyNotice } from "./room-start";
import { agentSessionOf, Fate, resumeFromOf, startKindOf, turnOf } from "./room-state";
import { agentTitleOf } from "./session-title";
import { withEntryState } from "./queue-rules";
import { confirm } from "./turn-rules";

const ToolTitle = z.object({ title: z.string() });

export function onDaemonEvent(out: Out, event: DaemonEvent): void {
  switch (event.t) {
    case "session.ready": {
      const notice = readyNotice(startKindOf(out.state), resumeFromOf(out.state), event.resumed);
      out.set({ agent: { phase: "ready", agentSessionId: event.agentSessionId }, agentConfig: event.config });
      if (notice) out.emit({ kind: "notice", ...notice });
      emitConfig(out);
      out.status();
      return out.add({ t: "flush", actorId: null });
    }
    case "session.failed": {
      const s = out.state;
      const authMethods = event.authMethods?.length ? event.authMethods : null;
      out.set({ agent: { phase: "failed", message: event.message, authMethods, resumeFrom: agentSessionOf(s), startKind: startKindOf(s) } });
      return out.status();
    }
    case "session.notice":
      return out.emit({ kind: "notice", level: event.level, text: event.text });
    case "session.update": {
      // Relayed as is. Config changes it carries arrive from the daemon as `config.state` too.
      out.emit({ kind: "acp", update: event.update });
      // The agent named the session (`session_info_update`): the directory's list shows it.
      const title = agentTitleOf(event.update);
      if (!title || out.state.agentTitle === title) return;
      out.set({ agentTitle: title });
      return out.add({ t: "directory.title", title: { agentTitle: title } });
    }
    case "turn.started":
      confirm(out, event.turnId);
      return;
    case "turn.ended": {
      const turn = turnOf(out.state);
      if (!turn || turn.turnId !== event.turnId) return;
      confirm(out, event.turnId);
      out.set({ turn: { phase: "idle" } });
      if (event.error) out.emit({ kind: "turn_error", message: event.error, code: event.stopReason });
      const actorId = turn.cancelledBy?.id ?? null;
      if (event.error) out.push({ kind: "turn_failed", actorId, message: event.error });
      else out.add({ t: "push.turnEnded", actorId, stoppedBy: turn.cancelRequested ? (turn.cancelledBy?.name ?? null) : null });
      cancelRequests(out);
      out.status(event.stopReason);
      out.add({ t: "directory.activity", at: out.reads.now });
      return out.add({ t: "flush", actorId: null });
    }
    case "turn.tree": {
      // The start comes while the turn runs (its message is known); the end after it ended (the row has it).
      const turn = turnOf(out.state);
      const messageId = turn && turn.turnId === event.turnId ? turn.messageId : null;
      return out.add({ t: "turn.tree", turnId: event.turnId, messageId, edge: event.edge, tree: event.tree });
    }
    case "permission.request": {
      const fresh = out.reads.request(event.requestId) === null;
      permissionRequested(out, event);
      const tool = ToolTitle.safeParse(event.toolCall);
      if (fresh) out.push({ kind: "permission", actorId: null, requestId: event.requestId, toolTitle: tool.success ? tool.data.title : "", options: event.options });
      return;
    }
    case "permission.cancelled":
      return permissionWithdrawn(out, event.requestId);
    case "elicitation.request": {
      const fresh = out.reads.request(event.requestId) === null;
      elicitationRequested(out, event);
      if (fresh) out.push({ kind: "question", actorId: null, requestId: event.requestId, message: event.message });
      return;
    }
    case "elicitation.cancelled":
      return elicitationWithdrawn(out, event.requestId);
    case "config.state":
      out.set({ agentConfig: event.config });
      return emitConfig(out);
    case "steer.result":
      return onSteerResult(out, event.entryId, event.outcome);
    case "history.user":
      // Issue 26: an imported session's replayed user message (the daemon relays an import's history once).
      return out.emit({ kind: "user_message", id: out.reads.newId(), blocks: event.blocks, author: IMPORTED_AUTHOR, at: out.reads.now });
    case "command.failed":
      out.emit({ kind: "notice", level: "warn", text: `The daemon could not run ${event.command}: ${event.message}` });
      if (event.command !== "prompt" || out.state.turn.phase === "idle") return;
      out.set({ turn: { phase: "idle" } });
      out.push({ kind: "turn_failed", actorId: null, message: `The daemon could not run the prompt: ${event.message}` });
      out.status("error");
      return out.add({ t: "flush", actorId: null });
    default:
      return assertNever(event);
  }
}

export function emitConfig(out: Out): void {
  out.emit({ kind: "config_state", config: configStateOf(out.state) });
}

/** Open permission requests and forms can no longer be answered usefully (turn end, Stop, restart). */
export function cancelRequests(out: Out): void {
  cancelPendingPermissions(out);
  cancelOpenElicitations(out);
}

/** The agent's answer to a steer: delivered → the entry leaves with its echo; refused → queued again. */
function onSteerResult(out: Out, entryId: string, outcome: EventOf<"steer_result">["outcome"]): void {
  const entry = out.state.queue.find((e) => e.id === entryId);
  switch (outcome) {
    case "injected":
    case "startedNewTurn":
      if (entry) {
        out.set({ queue: out.state.queue.filter((e) => e.id !== entryId) });
        out.settle(entryId, Fate.sent, { queued: true });
        out.emitQueue(true);
        out.emit({ kind: "user_message", id: entry.id, blocks: entry.blocks, author: entry.author, at: out.reads.now });
      }
      break;
    case "promptRequired":
    case "failed":
    case "indeterminate":
      if (entry) {
        out.set({ queue: withEntryState(out.state.queue, entryId, outcome === "indeterminate" ? "indeterminate" : "queued") });
        out.emitQueue(false);
      }
      break;
    default:
      assertNever(outcome);
  }
  out.emit({ kind: "steer_result", id: entryId, outcome });
  // The turn may have ended while the entry was out for steering: it runs next, not never.
  if (outcome === "promptRequired" || outcome === "failed") out.add({ t: "flush", actorId: null });
}
