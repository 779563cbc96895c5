/**
 * The SessionRoom's durable state in SQLite: the room's state row (room-state.ts) with its queue, the settled-id
 * ring and the requests someone must answer (permissions and forms); the event log is the base class's
 * (room-log-store.ts). Synchronous (DO SQLite); every method is a small transaction-free statement group —
 * the DO's output gate holds outgoing frames until these writes are durable.
 */
import type { PromptBlock } from "../../shared/blocks";
import { SETTLED_RING_SIZE } from "../../shared/limits";
import type { AgentConfig } from "../../shared/tunnel-protocol";
import type { Author, QueueEntry, RoomSettings, SendAck } from "../../shared/viewer-protocol";
import { agentConfigOf, Fate, type PendingRequest, type RoomState, type SessionMeta, type StoredRequest, type Turn, turnOf } from "./room-state";
import type { StoredEvent } from "./stored-event";
import { formsFromMeta, roomStateFromMeta, STATE_META_KEYS } from "./room-state-migration";
import { RoomLogStore } from "./room-log-store";

export { ROOM_MIGRATIONS } from "./room-migrations";


export { Fate };

export type { SessionMeta, Turn, DaemonCursor } from "./room-state";
export type { RoomSettings };

export type { StoredEvent };

/** The room's store: its log (room-log-store.ts) and, here, its state, queue, settled ring and requests. */
export class RoomStore extends RoomLogStore {

  // ---------------------------------------------------------------- state
  /** The room's state, read from SQLite once per instance (undefined: not read yet). */
  private cached: RoomState | null | undefined = undefined;

  /** The room's state; null before init (no session). A room stored by older code is migrated on first read. */
  state(): RoomState | null {
    if (this.cached !== undefined) return this.cached;
    const row = this.sql.exec<{ body: string }>("SELECT body FROM room_state WHERE id = 1").toArray()[0];
    if (row) return (this.cached = this.written = { ...(JSON.parse(row.body) as Omit<RoomState, "queue">), queue: this.readQueue() });
    const old = roomStateFromMeta((key) => this.meta.get(key));
    if (!old) return (this.cached = null);
    const migrated = { ...old, queue: this.readQueue() };
    this.cached = this.written = migrated;
    this.writeRow(migrated);
    for (const r of formsFromMeta((key) => this.meta.get(key))) {
      this.addRequest(r);
      if (!r.open) this.resolveRequest(r.requestId);
    }
    for (const key of STATE_META_KEYS) this.sql.exec("DELETE FROM meta WHERE key = ?", key);
    return migrated;
  }
  /** Writes the state's row, and the queue's rows when the queue changed. */
  save(state: RoomState): void {
    this.stage(state);
    this.commit();
  }
  /** The state from now on (read back by state()), written by the next commit. */
  stage(state: RoomState): void {
    this.cached = state;
    this.staged = true;
  }
  commit(): void {
    const state = this.cached;
    if (!this.staged || !state) return;
    this.staged = false;
    this.writeRow(state);
    if (this.written?.queue !== state.queue) this.writeQueue(state.queue);
    this.written = state;
  }
  /** Staged and not written yet; the last state written. */
  private staged = false;
  private written: RoomState | null = null;
  private writeRow(state: RoomState): void {
    const { queue: _inItsTable, ...row } = state;
    this.sql.exec("INSERT OR REPLACE INTO room_state (id, body) VALUES (1, ?)", JSON.stringify(row));
  }
  /** Applies `change` to the stored state (no-op before init). */
  update(change: (s: RoomState) => RoomState): RoomState | null {
    const s = this.state();
    if (!s) return null;
    const next = change(s);
    if (next !== s) this.save(next);
    return next;
  }

  session(): SessionMeta | null {
    return this.state()?.session ?? null;
  }
  turn(): Turn | null {
    return turnOf(this.state());
  }
  agentConfig(): AgentConfig {
    return agentConfigOf(this.state());
  }

  // ---------------------------------------------------------------- queue
  queue(): QueueEntry[] {
    return this.state()?.queue ?? [];
  }
  queueLength(): number {
    return this.queue().length;
  }
  private readQueue(): QueueEntry[] {
    return this.sql
      .exec<{ id: string; blocks: string; author: string; created_at: number; state: string }>(
        "SELECT id, blocks, author, created_at, state FROM queue ORDER BY pos",
      )
      .toArray()
      .map((r) => ({
        id: r.id,
        blocks: JSON.parse(r.blocks) as PromptBlock[],
        author: JSON.parse(r.author) as Author,
        createdAt: r.created_at,
        state: r.state as QueueEntry["state"],
      }));
  }
  /** Rewrites the queue's rows (at most MAX_QUEUE_DEPTH; the settled ring keeps the ids still queued). */
  private writeQueue(queue: readonly QueueEntry[]): void {
    this.sql.exec("DELETE FROM queue");
    queue.forEach((e, i) =>
      this.sql.exec(
        "INSERT INTO queue (id, pos, blocks, author, created_at, state) VALUES (?, ?, ?, ?, ?, ?)",
        e.id,
        i + 1,
        JSON.stringify(e.blocks),
        JSON.stringify(e.author),
        e.createdAt,
        e.state,
      ),
    );
  }

  // ---------------------------------------------------------------- settled ring
  settled(id: string): { fate: Fate; ack: SendAck } | null {
    const rows = this.sql.exec<{ fate: string; ack: string }>("SELECT fate, ack FROM settled WHERE id = ?", id).toArray();
    return rows.length ? { fate: rows[0]!.fate as Fate, ack: JSON.parse(rows[0]!.ack) as SendAck } : null;
  }
  settle(id: string, fate: Fate, ack: SendAck): void {
    const existing = this.sql.exec<{ ord: number }>("SELECT ord FROM settled WHERE id = ?", id).toArray();
    if (existing.length) {
      this.sql.exec("UPDATE settled SET fate = ? WHERE id = ?", fate, id);
      return;
    }
    const ord = (this.sql.exec<{ o: number | null }>("SELECT MAX(ord) AS o FROM settled").one().o ?? 0) + 1;
    this.sql.exec("INSERT INTO settled (id, ord, fate, ack, at) VALUES (?, ?, ?, ?, ?)", id, ord, fate, JSON.stringify(ack), Date.now());
    // Bounded ring: forget the oldest, but never an id still in the queue (its fate is not final).
    this.sql.exec(
      "DELETE FROM settled WHERE ord <= ? AND id NOT IN (SELECT id FROM queue)",
      ord - SETTLED_RING_SIZE,
    );
  }

  // ---------------------------------------------------------------- turn snapshots (issue 28 #2)
  /** One edge of a turn's snapshots; the start names the turn's message (the end comes after the turn ended). */
  turnTree(e: { turnId: string; messageId: string | null; edge: "start" | "end"; tree: string }): void {
    const column = e.edge === "start" ? "start_tree" : "end_tree";
    this.sql.exec(
      `INSERT INTO turn_trees (turn_id, message_id, ${column}) VALUES (?, ?, ?)
       ON CONFLICT (turn_id) DO UPDATE SET ${column} = excluded.${column}, message_id = COALESCE(turn_trees.message_id, excluded.message_id)`,
      e.turnId,
      e.messageId,
      e.tree,
    );
  }
  /** The turns with both snapshots, by the message that started each. */
  turnTrees(): Map<string, { from: string; to: string }> {
    const rows = this.sql
      .exec<{ message_id: string; start_tree: string; end_tree: string }>(
        "SELECT message_id, start_tree, end_tree FROM turn_trees WHERE message_id IS NOT NULL AND start_tree IS NOT NULL AND end_tree IS NOT NULL",
      )
      .toArray();
    return new Map(rows.map((r) => [r.message_id, { from: r.start_tree, to: r.end_tree }]));
  }

  // ---------------------------------------------------------------- requests (permissions and forms)
  /** Stores a new request (one heard again keeps its first record). */
  addRequest(r: PendingRequest): void {
    const { kind, requestId, ...body } = r;
    this.sql.exec("INSERT OR IGNORE INTO requests (request_id, kind, body) VALUES (?, ?, ?)", requestId, kind, JSON.stringify(body));
  }
  /** Marks an open request answered (by a name; null when cancelled); false when it was not open (first answer wins). */
  resolveRequest(requestId: string, by: string | null = null): boolean {
    if (!this.request(requestId)?.open) return false;
    this.sql.exec("UPDATE requests SET resolved = 1, resolved_by = ? WHERE request_id = ?", by, requestId);
    return true;
  }
  request(requestId: string): StoredRequest | null {
    const r = this.sql.exec<RequestRow>("SELECT request_id, kind, body, resolved, resolved_by FROM requests WHERE request_id = ?", requestId).toArray()[0];
    return r ? requestOf(r) : null;
  }
  openRequests(): StoredRequest[] {
    return this.sql.exec<RequestRow>("SELECT request_id, kind, body, resolved, resolved_by FROM requests WHERE resolved = 0").toArray().map(requestOf);
  }
}

type RequestRow = { request_id: string; kind: string; body: string; resolved: number; resolved_by: string | null };

function requestOf(r: RequestRow): StoredRequest {
  const state = { requestId: r.request_id, open: r.resolved === 0, answeredBy: r.resolved_by };
  // The row was written by addRequest from a PendingRequest of this kind.
  return { ...(JSON.parse(r.body) as object), kind: r.kind, ...state } as StoredRequest;
}
