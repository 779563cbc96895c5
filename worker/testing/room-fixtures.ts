/**
 * For the room's transition tables (worker/session-room/on-*.test.ts): states by name, reads over plain maps,
 * and `step` — one transition over a state, returning what it returns, the new state and the effects.
 */
import type { AgentConfig } from "../../shared/tunnel-protocol";
import type { PermissionOption, QueueEntry } from "../../shared/viewer-protocol";
import { Out, type RoomReads } from "../session-room/room-effects";
import { type Fate, initialRoomState, type RoomState, type Settled, type StoredRequest } from "../session-room/room-state";

export const SESSION = { sessionId: "s1", machineId: "m1", agentId: "demo", cwd: "/w", title: "t", ownerId: "u1" };
export const ANN = { id: "u1", name: "Ann" };
export const CONFIG: AgentConfig = { modes: null, models: null, configOptions: [], steering: true, images: false };
export const NOW = 1000;

export const entry = (id: string, state: QueueEntry["state"] = "queued"): QueueEntry => ({ id, blocks: [{ type: "text", text: id }], author: ANN, createdAt: 1, state });

/** A room whose agent is open, idle, online, with `patch` on top. */
export function ready(patch: Partial<RoomState> = {}): RoomState {
  return { ...initialRoomState(SESSION), agent: { phase: "ready", agentSessionId: "a1" }, agentConfig: CONFIG, statusKey: "idle:", ...patch };
}
export const running = (patch: Partial<RoomState> = {}): RoomState => ready({ turn: { phase: "running", turnId: "t1", messageId: "m0", startedAt: 1 }, statusKey: "active:t1", ...patch });
export const reserved = (entries: QueueEntry[], patch: Partial<RoomState> = {}): RoomState =>
  ready({ turn: { phase: "reserved", turnId: "t1", messageId: entries[0]!.id, startedAt: 1, entries, fromQueue: false, actorId: null, cancelledBy: null }, ...patch });

export type World = { settled?: Record<string, Fate>; requests?: StoredRequest[]; watched?: boolean };

/** A permission request in the requests table, open or answered. */
export const permission = (requestId: string, open: boolean, options: PermissionOption[] = []): StoredRequest => ({
  kind: "permission",
  requestId,
  toolCall: {},
  options,
  open,
  answeredBy: open ? null : "Ann",
});
export const form = (requestId: string, open: boolean): StoredRequest => ({ kind: "elicitation", requestId, requestedSchema: {}, open, answeredBy: null });

export function reads(world: World = {}): RoomReads {
  let ids = 0;
  const requests = world.requests ?? [];
  return {
    now: NOW,
    newId: () => `id${++ids}`,
    settled: (id): Settled | null => (world.settled?.[id] ? { fate: world.settled[id], ack: { queued: true } } : null),
    request: (id) => requests.find((r) => r.requestId === id) ?? null,
    openRequests: () => requests.filter((r) => r.open),
    watched: world.watched ?? false,
  };
}

/** One transition: what it returned, the state after, the effects (and their kinds, for short tables). */
export function step<T>(state: RoomState, fn: (out: Out) => T, world: World = {}) {
  const out = new Out(state, reads(world));
  const result = fn(out);
  return { result, state: out.state, effects: out.effects, kinds: out.effects.map((e) => (e.t === "emit" ? e.event.kind : e.t === "dispatch" ? `dispatch:${e.command.t}` : e.t)) };
}
