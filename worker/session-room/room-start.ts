/**
 * How a room begins bound to an agent session that already exists (issue 26): an import of the agent's own
 * past session (its history relayed once by the daemon), or a fork (the original room's rows copied here, the
 * agent forked on its side). The rules are here; room-core.ts applies them at init and at session.ready.
 */
import { z } from "zod";
import { type Author, SessionEvent } from "../../shared/viewer-protocol";
import type { StoredEvent } from "./stored-event";

export const RoomStartKind = { import: "import", fork: "fork" } as const;
export type RoomStartKind = (typeof RoomStartKind)[keyof typeof RoomStartKind];

/** `seedJson`: the rows a fork starts with (`forkableEvents` of the original, as JSON: parsed again by the new room). */
export type RoomStart = { kind: RoomStartKind; agentSessionId: string; seedJson?: string };

/** A fork's copied rows, checked like anything that crossed a boundary; unreadable → none (and the caller says so). */
export function readSeed(json: string | undefined): SessionEvent[] | null {
  if (json === undefined) return [];
  try {
    const parsed = z.array(SessionEvent).safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Who the user rows of an imported history are from: the agent session's user, labelled as such. */
export const IMPORTED_AUTHOR: Author = { id: "agent-history", name: "imported" };

/** Kinds a fork copies: the transcript. Questions, queues, offers and config belong to the original's live state. */
const COPIED: ReadonlySet<SessionEvent["kind"]> = new Set(["user_message", "acp", "notice", "turn_error", "session_status", "steer_result"]);

/**
 * The original room's transcript events for a fork, the newest that fit `maxBytes` (serialised), in order. A turn
 * still running in the original is closed with an idle status (the copy has no turn). `truncated`: older ones left out.
 */
export function forkableEvents(log: Iterable<StoredEvent>, maxBytes: number): { events: SessionEvent[]; truncated: boolean } {
  const kept: { event: SessionEvent; bytes: number }[] = [];
  for (const { event } of log) {
    if (!COPIED.has(event.kind)) continue;
    if (event.kind === "session_status" && event.state !== "active" && event.state !== "idle") continue;
    kept.push({ event, bytes: JSON.stringify(event).length });
  }
  let total = 0;
  let from = kept.length;
  while (from > 0 && total + kept[from - 1]!.bytes <= maxBytes) total += kept[--from]!.bytes;
  const events = kept.slice(from).map((k) => k.event);
  const lastStatus = events.findLast((e) => e.kind === "session_status");
  if (lastStatus?.kind === "session_status" && lastStatus.state === "active") events.push({ kind: "session_status", state: "idle", stopReason: "forked" });
  return { events, truncated: from > 0 };
}

/** The notice a room shows when its agent session is ready, by how it began (null: none). */
export function readyNotice(start: RoomStartKind | null, resumedFrom: string | null, resumed: boolean): { level: "info" | "warn"; text: string } | null {
  if (start === RoomStartKind.import) return { level: "info", text: "Imported from the agent's own session: the next prompt continues it." };
  if (start === RoomStartKind.fork)
    return resumed
      ? { level: "info", text: "Forked: a new agent session with the history up to here; the original is untouched." }
      : { level: "warn", text: "The agent could not load the forked session; it starts fresh (earlier messages are not in its context)." };
  if (!resumedFrom) return null;
  return resumed
    ? { level: "info", text: "The agent restarted; the session was resumed." }
    : { level: "warn", text: "The agent restarted and could not resume; it starts fresh (earlier messages are not in its context)." };
}
