/**
 * The SessionRoom's state as one value: which phases exclude each other is in the type (a turn is idle,
 * reserved, running or being cancelled; the agent is opening, dormant, ready or failed). Stored as one row
 * (room-store.ts `state()` / `save()`); the event log, the queue rows and the settled ring stay in their
 * own tables.
 */
import type { AgentConfig } from "../../shared/tunnel-protocol";
import type { AuthMethod, PermissionOption, QueueEntry, RoomSettings, SendAck, SessionState } from "../../shared/viewer-protocol";
import { DEFAULT_QUEUE_DEPTH } from "../../shared/limits";
import type { RoomStartKind } from "./room-start";

export type SessionMeta = {
  sessionId: string;
  machineId: string;
  agentId: string;
  cwd: string;
  title: string;
  ownerId: string;
};

/** What happened to a client message id — answers retries and queue ops on entries that already left. */
export const Fate = {
  queued: "queued",
  sent: "sent",
  cancelled: "cancelled",
  dropped: "dropped",
  /** A dropped entry's re-queue id (`rq:<id>`) once a viewer restored the entry to its draft. */
  taken: "taken",
} as const;
export type Fate = (typeof Fate)[keyof typeof Fate];
export type Settled = { fate: Fate; ack: SendAck };
/** The settled ring, read (room-store.ts `settled`). */
export type SettledOf = (id: string) => Settled | null;

export const DEFAULT_SETTINGS: RoomSettings = { queueDepth: DEFAULT_QUEUE_DEPTH, mergeQueued: false };

/** Who pressed Stop (their own push about the turn's end is skipped). */
export type Canceller = { id: string; name: string };

type TurnFacts = { turnId: string; messageId: string; startedAt: number };

/**
 * - reserved: the prompt is forwarded (or being forwarded) but not confirmed — by the Machine's answer or the
 *   daemon's turn.started. Its messages are kept so an instance reset mid-forward neither loses nor repeats
 *   them. `fromQueue`: flushed from the queue; `actorId`: who caused that flush. A Stop during a reservation
 *   marks it (`cancelledBy`); the confirmation then makes it `cancelling`.
 * - running: confirmed, no Stop pressed; cancelling: confirmed, Stop pressed (the daemon was told).
 */
export type TurnPhase =
  | { phase: "idle" }
  | (TurnFacts & { phase: "reserved"; entries: QueueEntry[]; fromQueue: boolean; actorId: string | null; cancelledBy: Canceller | null })
  | (TurnFacts & { phase: "running" })
  | (TurnFacts & { phase: "cancelling"; cancelledBy: Canceller });

/**
 * - opening: the daemon was asked to open the agent session (`resumeFrom`: the agent session to load;
 *   `startKind`: the room began as an import / fork, cleared at its session.ready).
 * - dormant: the daemon restarted (or lost the session) while no one had it open and nothing waited to run:
 *   it is not asked to open the agent until someone joins or a message is sent (on-machine-status.ts).
 * - ready: the agent session is open.
 * - failed: it could not be opened (`authMethods`: how to log the agent in, when it said); what to load
 *   on the next open is kept.
 */
export type AgentPhase =
  | { phase: "opening"; resumeFrom: string | null; startKind: RoomStartKind | null }
  | { phase: "dormant"; resumeFrom: string | null; startKind: RoomStartKind | null }
  | { phase: "ready"; agentSessionId: string }
  | { phase: "failed"; message: string; authMethods: AuthMethod[] | null; resumeFrom: string | null; startKind: RoomStartKind | null };

export type PendingElicitation = { requestedSchema: Record<string, unknown> };
/** requestId → the open agent form (ACP elicitation; elicitations.ts). */
export type OpenElicitations = Readonly<Record<string, PendingElicitation>>;

/** Something the agent asked that someone must answer: a permission request or a form (the `requests` table). */
export type PendingRequest =
  | { kind: "permission"; requestId: string; toolCall: Record<string, unknown>; options: PermissionOption[] }
  | ({ kind: "elicitation"; requestId: string } & PendingElicitation);
/** A request as stored: still open, or answered (by a name; null when cancelled). */
export type StoredRequest = PendingRequest & { open: boolean; answeredBy: string | null };

/** Where the daemon's numbered events were applied up to (exactly-once lives in the room). */
export type DaemonCursor = { epoch: string; n: number };

export type RoomState = {
  session: SessionMeta;
  agent: AgentPhase;
  turn: TurnPhase;
  /** The Machine's last word on its daemon's tunnel. */
  machineOnline: boolean;
  settings: RoomSettings;
  /** The queue, in order (at most MAX_QUEUE_DEPTH entries; its own table, rewritten when it changed). */
  queue: QueueEntry[];
  /** The agent's config as the daemon last reported it (the daemon computes it; the room applies it). */
  agentConfig: AgentConfig | null;
  /** What the last Stop dropped and nobody re-queued or restored yet (dropped-offer.ts). */
  droppedOffer: QueueEntry[];
  daemonCursor: DaemonCursor | null;
  /** `state:turnId` of the last session_status logged (emitted on change only). */
  statusKey: string | null;
  /** What the directory was last told about the session's first prompt / the agent's title (session-title.ts). */
  firstPrompt: string | null;
  agentTitle: string | null;
};

export const EMPTY_CONFIG: AgentConfig = { modes: null, models: null, configOptions: [], steering: false, images: false };

/** A new room: the agent opening (`start`: bound to an existing agent session), the machine assumed online. */
export function initialRoomState(session: SessionMeta, start?: { kind: RoomStartKind; agentSessionId: string }): RoomState {
  return {
    session,
    agent: { phase: "opening", resumeFrom: start?.agentSessionId ?? null, startKind: start?.kind ?? null },
    turn: { phase: "idle" },
    machineOnline: true,
    settings: DEFAULT_SETTINGS,
    queue: [],
    agentConfig: null,
    droppedOffer: [],
    daemonCursor: null,
    statusKey: null,
    firstPrompt: null,
    agentTitle: null,
  };
}

/** The turn as the rest of the room reads it: null when idle. */
export type Turn = TurnFacts & { cancelRequested: boolean; cancelledBy?: Canceller };

export function turnOf(s: RoomState | null): Turn | null {
  const t = s?.turn;
  if (!t || t.phase === "idle") return null;
  const facts = { turnId: t.turnId, messageId: t.messageId, startedAt: t.startedAt };
  if (t.phase === "cancelling") return { ...facts, cancelRequested: true, cancelledBy: t.cancelledBy };
  if (t.phase === "reserved" && t.cancelledBy) return { ...facts, cancelRequested: true, cancelledBy: t.cancelledBy };
  return { ...facts, cancelRequested: false };
}

export const agentConfigOf = (s: RoomState | null): AgentConfig => s?.agentConfig ?? EMPTY_CONFIG;
export const agentSessionIdOf = (s: RoomState): string | null => (s.agent.phase === "ready" ? s.agent.agentSessionId : null);
/** The agent session to load on the next open (null once ready). */
export const resumeFromOf = (s: RoomState): string | null => (s.agent.phase === "ready" ? null : s.agent.resumeFrom);
export const startKindOf = (s: RoomState): RoomStartKind | null => (s.agent.phase === "ready" ? null : s.agent.startKind);
/** The agent's session id, or the one waiting to be reloaded after a daemon restart. */
export const agentSessionOf = (s: RoomState): string | null => agentSessionIdOf(s) ?? resumeFromOf(s);

export type { SessionState };
