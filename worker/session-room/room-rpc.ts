/** What the Worker and the Machine call on a SessionRoom (its DO RPC surface), declared apart from the DO. */
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import type { MachineStatus } from "../machine/dispatch-result";
import type { Viewer } from "../../shared/viewer-protocol";
import type { RemoteAnswer } from "./permissions";
import type { SessionStatusEvent } from "./room-status";
import type { SessionMeta } from "./room-store";
import type { RoomStart } from "./room-start";

/** What a deleted room leaves for the caller: how to reach the agent's own session (its agent-side delete). */
export type DestroyedRoom = { agentSessionId: string | null; agentId: string; machineId: string };

export interface RoomRpc extends Rpc.DurableObjectBranded {
  /** The viewer socket upgrade (the Worker checked identity, membership and Origin). */
  fetch(request: Request): Promise<Response>;
  /** Creates the session (idempotent) and asks the machine to open it. */
  init(meta: SessionMeta, start?: RoomStart): Promise<void>;
  /** Issue 26: the transcript a fork starts with (bounded); this room is not changed. */
  forkSource(maxBytes: number): Promise<{ eventsJson: string; truncated: boolean; agentSessionId: string | null }>;
  info(): Promise<{ exists: boolean; status: SessionStatusEvent; queueLength: number; headSeq: number }>;
  /** Closes the user's sockets so they reconnect with their new role; returns how many. */
  viewerAccessChanged(userId: string): Promise<number>;
  /** A share link was revoked: its spectators' sockets close (CLOSE_SHARE_ENDED); returns how many. */
  endShareLink(linkId: string): Promise<number>;
  /** A `baton attach` sign-in was revoked: its sockets here close (the client's reconnect is then refused). */
  endAttach(tokenId: string): Promise<number>;
  /** The daemon's numbered events for this session, in order (duplicates dropped by the room). */
  onDaemonEvents(epoch: string, batch: { n: number; event: DaemonEvent }[]): Promise<void>;
  onMachineStatus(status: MachineStatus): Promise<void>;
  /** The transcript as Markdown, streamed, with its download headers (404 when the session does not exist). */
  exportMarkdown(): Promise<Response>;
  /** Issue 28 #2: the files the log's tool calls changed (shared/changes-from-log.ts), as JSON; null when gone. */
  loggedChanges(): Promise<string | null>;
  /** Issue 28 #3: the review comments changed in D1: every viewer hears the new version (a `review` frame); returns it. */
  reviewChanged(): Promise<number>;
  /** A permission answered from a notification's Approve / Deny: the card's rules (first valid answer wins). */
  answerPermission(viewer: Viewer, requestId: string, optionId: string): Promise<RemoteAnswer>;
  /**
   * Deletes the session (issue 26): viewers closed with CLOSE_SESSION_DELETED, the machine told to close the
   * agent session, the storage removed; afterwards the room answers as "no such session". null: already gone.
   */
  destroy(): Promise<DestroyedRoom | null>;
}
