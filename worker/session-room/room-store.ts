/**
 * The SessionRoom's durable state in SQLite: the event log, the queue, meta, the settled-id ring and
 * pending permission requests. Synchronous (DO SQLite); every method is a small transaction-free
 * statement group — the DO's output gate holds outgoing frames until these writes are durable.
 */
import type { PromptBlock } from "../../shared/blocks";
import { SETTLED_RING_SIZE } from "../../shared/limits";
import type { AgentConfig } from "../../shared/tunnel-protocol";
import type { Author, PermissionOption, QueueEntry, SendAck, SessionEvent } from "../../shared/viewer-protocol";
import { makeMetaTable, migrate } from "../sql-migrations";

/** Log rows per INSERT when a run is written at once: 4 bound values each stays within 100 per statement. */
const LOG_INSERT_ROWS = 25;

const MIGRATIONS = [
  `CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, body TEXT NOT NULL, at INTEGER NOT NULL);
   CREATE TABLE queue (id TEXT PRIMARY KEY, pos INTEGER NOT NULL, blocks TEXT NOT NULL, author TEXT NOT NULL,
                       created_at INTEGER NOT NULL, state TEXT NOT NULL);
   CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE settled (id TEXT PRIMARY KEY, ord INTEGER NOT NULL, fate TEXT NOT NULL, ack TEXT NOT NULL, at INTEGER NOT NULL);
   CREATE INDEX settled_ord ON settled(ord);
   CREATE TABLE permissions (request_id TEXT PRIMARY KEY, tool_call TEXT NOT NULL, options TEXT NOT NULL, resolved INTEGER NOT NULL DEFAULT 0);`,
];

/** What happened to a client message id — answers retries and queue ops on entries that already left. */
export const Fate = {
  queued: "queued",
  sent: "sent",
  cancelled: "cancelled",
  dropped: "dropped",
} as const;
export type Fate = (typeof Fate)[keyof typeof Fate];

export type SessionMeta = {
  sessionId: string;
  machineId: string;
  agentId: string;
  cwd: string;
  title: string;
  ownerId: string;
};

export type Turn = { turnId: string; messageId: string; startedAt: number; cancelRequested: boolean };

export type RoomSettings = { queueDepth: number; mergeQueued: boolean };

export type StoredEvent = { seq: number; event: SessionEvent };

export type PendingPermission = { requestId: string; toolCall: Record<string, unknown>; options: PermissionOption[] };

export class RoomStore {
  private readonly meta: ReturnType<typeof makeMetaTable>;
  constructor(private readonly sql: SqlStorage) {
    migrate(sql, MIGRATIONS);
    this.meta = makeMetaTable(sql);
  }

  // ---------------------------------------------------------------- meta
  getMeta<T>(key: string): T | null {
    return this.meta.get<T>(key);
  }
  setMeta(key: string, value: unknown): void {
    this.meta.set(key, value);
  }

  session(): SessionMeta | null {
    return this.getMeta<SessionMeta>("session");
  }
  turn(): Turn | null {
    return this.getMeta<Turn>("turn");
  }
  setTurn(turn: Turn | null): void {
    this.setMeta("turn", turn);
  }
  agentConfig(): AgentConfig {
    return (
      this.getMeta<AgentConfig>("agent_config") ?? { modes: null, models: null, configOptions: [], steering: false, images: false }
    );
  }

  // ---------------------------------------------------------------- log
  /** Highest seq written or buffered; null until first needed (rebuilt from SQLite after eviction). */
  private head: number | null = null;
  /** Appends buffered during a run (see beginRun), written by endRun in multi-row statements. */
  private buffered: [seq: number, kind: string, body: string, at: number][] | null = null;

  /**
   * Appends an event already serialised as `body`; returns its seq. During a run the row is buffered
   * and written by endRun in the same synchronous step, so it commits with the run's other writes.
   */
  append(kind: SessionEvent["kind"], body: string, at = Date.now()): number {
    const seq = this.headSeq() + 1;
    this.head = seq;
    if (this.buffered) this.buffered.push([seq, kind, body, at]);
    else this.sql.exec("INSERT INTO events (seq, kind, body, at) VALUES (?, ?, ?, ?)", seq, kind, body, at);
    return seq;
  }
  /** Starts buffering appends; endRun must follow before any await. */
  beginRun(): void {
    this.buffered ??= [];
  }
  /** Writes the run's appends, LOG_INSERT_ROWS per statement (one statement per event cost ~30 µs). */
  endRun(): void {
    const rows = this.buffered;
    this.buffered = null;
    if (!rows?.length) return;
    for (let i = 0; i < rows.length; i += LOG_INSERT_ROWS) {
      const chunk = rows.slice(i, i + LOG_INSERT_ROWS);
      this.sql.exec(`INSERT INTO events (seq, kind, body, at) VALUES ${chunk.map(() => "(?, ?, ?, ?)").join(", ")}`, ...chunk.flat());
    }
  }
  headSeq(): number {
    this.head ??= this.sql.exec<{ s: number | null }>("SELECT MAX(seq) AS s FROM events").one().s ?? 0;
    return this.head;
  }
  eventsAfter(after: number, limit = Number.MAX_SAFE_INTEGER): StoredEvent[] {
    return this.sql
      .exec<{ seq: number; body: string }>("SELECT seq, body FROM events WHERE seq > ? ORDER BY seq LIMIT ?", after, limit)
      .toArray()
      .map((r) => ({ seq: r.seq, event: JSON.parse(r.body) as SessionEvent }));
  }
  countAfter(after: number): number {
    return this.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM events WHERE seq > ?", after).one().c;
  }
  /** Iterates the whole log in seq order without materialising every row at once. */
  *allEvents(): Generator<StoredEvent> {
    const cursor = this.sql.exec<{ seq: number; body: string }>("SELECT seq, body FROM events ORDER BY seq");
    for (const r of cursor) yield { seq: r.seq, event: JSON.parse(r.body) as SessionEvent };
  }

  // ---------------------------------------------------------------- queue
  queue(): QueueEntry[] {
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
  queueLength(): number {
    return this.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM queue").one().c;
  }
  enqueue(entry: QueueEntry): void {
    const pos = this.sql.exec<{ p: number | null }>("SELECT MAX(pos) AS p FROM queue").one().p ?? 0;
    this.sql.exec(
      "INSERT INTO queue (id, pos, blocks, author, created_at, state) VALUES (?, ?, ?, ?, ?, ?)",
      entry.id,
      pos + 1,
      JSON.stringify(entry.blocks),
      JSON.stringify(entry.author),
      entry.createdAt,
      entry.state,
    );
  }
  /** Puts an entry back at the head (a flush whose forward failed). */
  requeueAtHead(entry: QueueEntry): void {
    const pos = this.sql.exec<{ p: number | null }>("SELECT MIN(pos) AS p FROM queue").one().p ?? 1;
    this.sql.exec(
      "INSERT OR REPLACE INTO queue (id, pos, blocks, author, created_at, state) VALUES (?, ?, ?, ?, ?, ?)",
      entry.id,
      pos - 1,
      JSON.stringify(entry.blocks),
      JSON.stringify(entry.author),
      entry.createdAt,
      "queued",
    );
  }
  removeFromQueue(id: string): void {
    this.sql.exec("DELETE FROM queue WHERE id = ?", id);
  }
  clearQueue(): void {
    this.sql.exec("DELETE FROM queue");
  }
  editQueued(id: string, blocks: PromptBlock[]): void {
    this.sql.exec("UPDATE queue SET blocks = ? WHERE id = ?", JSON.stringify(blocks), id);
  }
  setQueuedState(id: string, state: QueueEntry["state"]): void {
    this.sql.exec("UPDATE queue SET state = ? WHERE id = ?", state, id);
  }
  /** Rewrites positions to the given id order (the queue holds at most MAX_QUEUE_DEPTH rows). */
  reorder(ids: readonly string[]): void {
    ids.forEach((id, i) => this.sql.exec("UPDATE queue SET pos = ? WHERE id = ?", i + 1, id));
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

  // ---------------------------------------------------------------- permissions
  addPermission(p: PendingPermission): void {
    this.sql.exec(
      "INSERT OR IGNORE INTO permissions (request_id, tool_call, options) VALUES (?, ?, ?)",
      p.requestId,
      JSON.stringify(p.toolCall),
      JSON.stringify(p.options),
    );
  }
  /** Marks a pending request resolved; false when it was not pending (first answer wins). */
  resolvePermission(requestId: string): boolean {
    const pending = this.sql
      .exec<{ c: number }>("SELECT COUNT(*) AS c FROM permissions WHERE request_id = ? AND resolved = 0", requestId)
      .one().c;
    if (!pending) return false;
    this.sql.exec("UPDATE permissions SET resolved = 1 WHERE request_id = ?", requestId);
    return true;
  }
  permission(requestId: string): PendingPermission | null {
    const rows = this.sql
      .exec<{ tool_call: string; options: string }>("SELECT tool_call, options FROM permissions WHERE request_id = ?", requestId)
      .toArray();
    if (!rows.length) return null;
    return { requestId, toolCall: JSON.parse(rows[0]!.tool_call), options: JSON.parse(rows[0]!.options) };
  }
  pendingPermissionIds(): string[] {
    return this.sql
      .exec<{ request_id: string }>("SELECT request_id FROM permissions WHERE resolved = 0")
      .toArray()
      .map((r) => r.request_id);
  }
}
