/**
 * A room stored before the state row (room-state.ts) kept its state as loose `meta` keys: read once, on the
 * first load that finds no row, into one RoomState (the keys are then deleted).
 */
import type { AgentConfig } from "../../shared/tunnel-protocol";
import type { AuthMethod, QueueEntry, RoomSettings } from "../../shared/viewer-protocol";
import type { RoomStartKind } from "./room-start";
import { type AgentPhase, type Canceller, type DaemonCursor, DEFAULT_SETTINGS, type OpenElicitations, type RoomState, type SessionMeta, type StoredRequest, type TurnPhase } from "./room-state";

/** The old `meta` keys and what they held. */
type OldMeta = {
  session: SessionMeta;
  settings: RoomSettings;
  machine_online: boolean;
  turn: { turnId: string; messageId: string; startedAt: number; cancelRequested: boolean; cancelledBy?: Canceller };
  turn_pending: { turnId: string; entries: QueueEntry[]; fromQueue: boolean; actorId: string | null };
  agent_config: AgentConfig;
  agent_session_id: string;
  resume_from: string;
  start_kind: RoomStartKind;
  failed: string;
  failed_auth: AuthMethod[];
  elicitations: OpenElicitations;
  elicitations_resolved: string[];
  status_key: string;
  first_prompt: string;
  agent_title: string;
  dropped_offer: QueueEntry[];
  daemon_cursor: DaemonCursor;
};
type Get = <K extends keyof OldMeta>(key: K) => OldMeta[K] | null;

export const STATE_META_KEYS: readonly (keyof OldMeta)[] = [
  "session",
  "settings",
  "machine_online",
  "turn",
  "turn_pending",
  "agent_config",
  "agent_session_id",
  "resume_from",
  "start_kind",
  "failed",
  "failed_auth",
  "elicitations",
  "elicitations_resolved",
  "status_key",
  "first_prompt",
  "agent_title",
  "dropped_offer",
  "daemon_cursor",
];

/** The state the old keys held; its queue is in the queue table, as before. */
export function roomStateFromMeta(read: (key: string) => unknown): Omit<RoomState, "queue"> | null {
  const get = read as Get; // the old code wrote each key with the type above
  const session = get("session");
  if (!session) return null;
  return {
    session,
    agent: agentOf(get),
    turn: turnOf(get),
    machineOnline: get("machine_online") ?? false,
    settings: get("settings") ?? DEFAULT_SETTINGS,
    agentConfig: get("agent_config"),
    droppedOffer: get("dropped_offer") ?? [],
    daemonCursor: get("daemon_cursor"),
    statusKey: get("status_key"),
    firstPrompt: get("first_prompt"),
    agentTitle: get("agent_title"),
  };
}

/** The old meta's forms, as rows of the requests table: the open ones, and those answered lately (closed). */
export function formsFromMeta(read: (key: string) => unknown): StoredRequest[] {
  const get = read as Get;
  const open = Object.entries(get("elicitations") ?? {}).map(([requestId, f]): StoredRequest => ({ kind: "elicitation", requestId, ...f, open: true, answeredBy: null }));
  const done = (get("elicitations_resolved") ?? []).map((requestId): StoredRequest => ({ kind: "elicitation", requestId, requestedSchema: {}, open: false, answeredBy: null }));
  return [...open, ...done];
}

function agentOf(get: Get): AgentPhase {
  const agentSessionId = get("agent_session_id");
  const failed = get("failed");
  const resumeFrom = agentSessionId ?? get("resume_from");
  if (failed) return { phase: "failed", message: failed, authMethods: get("failed_auth"), resumeFrom, startKind: get("start_kind") };
  if (agentSessionId) return { phase: "ready", agentSessionId };
  return { phase: "opening", resumeFrom, startKind: get("start_kind") };
}

/** A reservation counts only with its turn (the old code dropped a `turn_pending` of another turn). */
function turnOf(get: Get): TurnPhase {
  const turn = get("turn");
  if (!turn) return { phase: "idle" };
  const facts = { turnId: turn.turnId, messageId: turn.messageId, startedAt: turn.startedAt };
  const cancelledBy = turn.cancelRequested ? (turn.cancelledBy ?? { id: "", name: "" }) : null;
  const pending = get("turn_pending");
  if (pending && pending.turnId === turn.turnId)
    return { ...facts, phase: "reserved", entries: pending.entries, fromQueue: pending.fromQueue, actorId: pending.actorId, cancelledBy };
  return cancelledBy ? { ...facts, phase: "cancelling", cancelledBy } : { ...facts, phase: "running" };
}
