/**
 * Transition: the Machine's word on its daemon (online or not, which sessions it runs, whether it restarted).
 * A daemon that lost the session loses its running turn (AGENT_RESTARTED); a reservation it never confirmed
 * goes back to the head of the queue; the agent session is reopened with session/load — at once when someone
 * has the session open or a message waits to run, else when someone joins or sends (`dormant`): a restarted
 * daemon with fifty sessions would otherwise start fifty agents on the user's machine at once.
 */
import { settingsFromConfig } from "../../shared/session-settings";
import type { MachineStatus } from "../machine/dispatch-result";
import { cancelRequests } from "./on-daemon-event";
import type { Out } from "./room-effects";
import { RoomStartKind } from "./room-start";
import { agentConfigOf, agentSessionOf, resumeFromOf, type RoomState, startKindOf } from "./room-state";
import { requeue } from "./turn-rules";

const RESTARTED = "The agent restarted; the running turn was lost.";

export function onMachineStatus(out: Out, status: MachineStatus): void {
  const wasOnline = out.state.machineOnline;
  out.set({ machineOnline: status.online });
  if (!status.online) {
    out.status();
    if (wasOnline && out.state.turn.phase !== "idle") out.push({ kind: "machine_offline", actorId: null });
    return;
  }
  if (!status.liveSessionIds.includes(out.state.session.sessionId) || status.restarted) {
    const turn = out.state.turn;
    if (turn.phase === "reserved") requeue(out, turn.entries);
    if (turn.phase !== "idle") {
      out.set({ turn: { phase: "idle" } });
      cancelRequests(out);
      out.emit({ kind: "turn_error", message: RESTARTED, code: "AGENT_RESTARTED" });
      out.push({ kind: "turn_failed", actorId: null, message: RESTARTED });
    }
    const agent = out.state.agent;
    // A failed agent stays failed (its reason shown) until the open answers.
    if (agent.phase === "failed") return openAgentSession(out);
    out.set({ agent: { phase: "dormant", resumeFrom: agentSessionOf(out.state), startKind: startKindOf(out.state) } });
    if (out.reads.watched || out.state.queue.length > 0) return wakeAgent(out);
    return out.status();
  }
  out.status();
  out.add({ t: "recover" });
  out.add({ t: "flush", actorId: null });
}

/** Whether wakeAgent would open the agent: it is dormant and its machine online. */
export const canWake = (s: RoomState): boolean => s.agent.phase === "dormant" && s.machineOnline;

/** A dormant agent is opened: someone is here, joined or sending, or a message waits. Otherwise nothing. */
export function wakeAgent(out: Out): void {
  if (!canWake(out.state)) return;
  out.set({ agent: { phase: "opening", resumeFrom: resumeFromOf(out.state), startKind: startKindOf(out.state) } });
  openAgentSession(out);
}

/** Asks the daemon to open (or reopen) the agent session. */
export function openAgentSession(out: Out): void {
  const s = out.state;
  out.status();
  const resumeFrom = resumeFromOf(s);
  const startKind = startKindOf(s);
  out.dispatch(
    {
      t: "session.open",
      sessionId: s.session.sessionId,
      agentId: s.session.agentId,
      cwd: s.session.cwd,
      agentSessionId: resumeFrom,
      // What the user had chosen: an agent reports its defaults after session/load (an import / fork has none yet).
      restore: resumeFrom && !startKind ? settingsFromConfig(agentConfigOf(s)) : null,
      // Issue 26: only an import's first open relays the agent's history; a reattach drops it.
      ...(startKind === RoomStartKind.import ? { history: "relay" as const } : {}),
    },
    {},
    { kind: "open" },
  );
}

