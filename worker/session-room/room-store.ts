/**
 * The SessionRoom's durable state in SQLite: the room's state row (room-state.ts) with its queue, the event
 * log, the settled-id ring and the requests someone must answer (permissions and forms). Synchronous (DO SQLite); every method is a small transaction-free
 * statement group — the DO's output gate holds outgoing frames until these writes are durable.
 */
import type { PromptBlock } from "../../shared/blocks";
import { SETTLED_RING_SIZE } from "../../shared/limits";
import type { AgentConfig } from "../../shared/tunnel-protocol";
import type { Author, PermissionOption, QueueEntry, RoomSettings, SendAck, SessionEvent } from "../../shared/viewer-protocol";
import { agentConfigOf, Fate, type PendingRequest, type RoomState, type SessionMeta, type StoredRequest, type Turn, turnOf } from "./room-state";
import type { StoredEvent } from "./stored-event";
import { formsFromMeta, roomStateFromMeta, STATE_META_KEYS } from "./room-state-migration";
import { makeMetaTable, migrate, type SqlDb } from "../sql-migrations";
import { type Compacted, compactInto, type CompactState, initialCompactState, type ItemSink } from "./compact-events";

/** `kind` of a log row holding a run of events (seq … last) as one JSON array body. */
const RUN_KIND = "run";

export const ROOM_MIGRATIONS = [
  `CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, body TEXT NOT NULL, at INTEGER NOT NULL);
   CREATE TABLE queue (id TEXT PRIMARY KEY, pos INTEGER NOT NULL, blocks TEXT NOT NULL, author TEXT NOT NULL,
                       created_at INTEGER NOT NULL, state TEXT NOT NULL);
   CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE settled (id TEXT PRIMARY KEY, ord INTEGER NOT NULL, fate TEXT NOT NULL, ack TEXT NOT NULL, at INTEGER NOT NULL);
   CREATE INDEX settled_ord ON settled(ord);
   CREATE TABLE permissions (request_id TEXT PRIMARY KEY, tool_call TEXT NOT NULL, options TEXT NOT NULL, resolved INTEGER NOT NULL DEFAULT 0);`,
  // A row holds one event (last NULL) or a run of events seq … last (kind 'run', body a JSON array of them):
  // a run is written as one row, so the bytes and B-tree work per event are what the text needs.
  `ALTER TABLE events ADD COLUMN last INTEGER;`,
  // Who answered a permission request (a name; NULL when cancelled), so a late answer hears "already answered by …".
  `ALTER TABLE permissions ADD COLUMN resolved_by TEXT;`,
  // The log compacted into rows (compact-events.ts), brought up to date lazily at a join or a history
  // page (meta `compaction`), so those read O(window) rows; `key` finds a row later events merge into.
  `CREATE TABLE IF NOT EXISTS compacted (pos INTEGER PRIMARY KEY, seq INTEGER NOT NULL, key TEXT, rows INTEGER NOT NULL, active INTEGER NOT NULL, body TEXT NOT NULL);
   CREATE INDEX IF NOT EXISTS compacted_key ON compacted(key);`,
  // The room's state as one row (room-state.ts); a room written before reads its old meta keys once.
  `CREATE TABLE IF NOT EXISTS room_state (id INTEGER PRIMARY KEY CHECK (id = 1), body TEXT NOT NULL);`,
  // Permission requests and forms: one table of requests someone must answer, told apart by `kind`
  // (`body`: the request's own fields as JSON); a room's permission rows move over, its forms on first load.
  `CREATE TABLE IF NOT EXISTS requests (request_id TEXT PRIMARY KEY, kind TEXT NOT NULL, body TEXT NOT NULL, resolved INTEGER NOT NULL DEFAULT 0, resolved_by TEXT);
   INSERT INTO requests (request_id, kind, body, resolved, resolved_by)
     SELECT request_id, 'permission', '{"toolCall":' || tool_call || ',"options":' || options || '}', resolved, resolved_by FROM permissions;
   DROP TABLE permissions;`,
];

/** Log events compacted per write-back step: bounds the items held in memory while a long log catches up. */
const COMPACT_STEP_EVENTS = 4096;
/** Compacted items read per query when paging back: a page's rows plus the turn markers between them. */
const READ_STEP_ITEMS = 128;

export { Fate };

export type { SessionMeta, Turn, DaemonCursor } from "./room-state";
export type { RoomSettings };

export type { StoredEvent };

export class RoomStore {
  private readonly meta: ReturnType<typeof makeMetaTable>;
  constructor(private readonly sql: SqlDb) {
    migrate(sql, ROOM_MIGRATIONS);
    this.meta = makeMetaTable(sql);
  }

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

  // ---------------------------------------------------------------- log
  /** Highest seq written or buffered; null until first needed (rebuilt from SQLite after eviction). */
  private head: number | null = null;
  /** Appends buffered during a run (see beginRun), written by endRun as one row. */
  private buffered: { first: number; bodies: string[]; kind: string; at: number } | null = null;
  /** Between beginRun and endRun. */
  inRun = false;

  /**
   * Appends an event already serialised as `body`; returns its seq. During a run the event is buffered
   * and written by endRun in the same synchronous step, so it commits with the run's other writes.
   */
  append(kind: SessionEvent["kind"], body: string, at = Date.now()): number {
    const seq = this.headSeq() + 1;
    this.head = seq;
    if (!this.inRun) this.sql.exec("INSERT INTO events (seq, kind, body, at) VALUES (?, ?, ?, ?)", seq, kind, body, at);
    else if (this.buffered) this.buffered.bodies.push(body);
    else this.buffered = { first: seq, bodies: [body], kind, at };
    return seq;
  }
  /** Starts buffering appends; endRun must follow before any await. */
  beginRun(): void {
    this.inRun = true;
  }
  /** Writes the run's appends: one event as a plain row, several as one run row (was: a row per event). */
  endRun(): void {
    const run = this.buffered;
    this.inRun = false;
    this.buffered = null;
    if (!run) return;
    const n = run.bodies.length;
    if (n === 1) this.sql.exec("INSERT INTO events (seq, kind, body, at) VALUES (?, ?, ?, ?)", run.first, run.kind, run.bodies[0]!, run.at);
    else
      this.sql.exec(
        "INSERT INTO events (seq, last, kind, body, at) VALUES (?, ?, ?, ?, ?)",
        run.first,
        run.first + n - 1,
        RUN_KIND,
        `[${run.bodies.join(",")}]`,
        run.at,
      );
  }
  headSeq(): number {
    this.head ??= (() => {
      const top = this.sql.exec<{ seq: number; last: number | null }>("SELECT seq, last FROM events ORDER BY seq DESC LIMIT 1").toArray()[0];
      return top ? (top.last ?? top.seq) : 0;
    })();
    return this.head;
  }
  /** Events with seq > after, in order (at most `limit`). */
  eventsAfter(after: number, limit = Number.MAX_SAFE_INTEGER): StoredEvent[] {
    // The row holding after + 1 may be a run that starts at or before it: start from that row.
    const from = this.sql.exec<{ s: number | null }>("SELECT MAX(seq) AS s FROM events WHERE seq <= ?", after + 1).one().s ?? 0;
    const out: StoredEvent[] = [];
    for (const e of this.rows("SELECT seq, last, body FROM events WHERE seq >= ? ORDER BY seq", from)) {
      if (e.seq <= after) continue;
      if (out.length >= limit) break;
      out.push(e);
    }
    return out;
  }
  /** Iterates the whole log in seq order without materialising every row at once. */
  allEvents(): Generator<StoredEvent> {
    return this.rows("SELECT seq, last, body FROM events ORDER BY seq");
  }
  private *rows(query: string, ...bindings: unknown[]): Generator<StoredEvent> {
    for (const r of this.sql.exec<{ seq: number; last: number | null; body: string }>(query, ...bindings)) {
      if (r.last === null) yield { seq: r.seq, event: JSON.parse(r.body) as SessionEvent };
      else {
        const events = JSON.parse(r.body) as SessionEvent[];
        for (let i = 0; i < events.length; i++) yield { seq: r.seq + i, event: events[i]! };
      }
    }
  }

  // ---------------------------------------------------------------- compacted rows
  /** Compacts the log up to its head (only what was appended since the last call); returns the state. */
  compact(): CompactState {
    let state = this.meta.get<CompactState>("compaction") ?? initialCompactState();
    const head = this.headSeq();
    while (state.upto < head) {
      const sink = this.writeBackSink();
      const next = compactInto(sink, state, this.eventsAfter(state.upto, COMPACT_STEP_EVENTS));
      sink.flush();
      if (next.upto === state.upto) break;
      state = next;
      this.meta.set("compaction", state);
    }
    return state;
  }

  /**
   * Compacted items before `before` (exclusive), newest first back to the one holding the `rows`-th row,
   * or fewer once `maxBytes` of bodies are read (at least one row); returned oldest first. `more`: a
   * row exists before the first item returned. Call compact() first.
   */
  compactedBefore(before: number, rows: number, maxBytes: number): { items: Compacted[]; more: boolean } {
    const items: Compacted[] = [];
    let counted = 0;
    let bytes = 0;
    // Read in bounded steps (a cursor need not be lazy): O(page) whatever the session's length.
    for (let below = before, done = false; !done; ) {
      const step = this.sql.exec<ItemRow>("SELECT pos, seq, key, rows, active, body FROM compacted WHERE pos < ? ORDER BY pos DESC LIMIT ?", below, READ_STEP_ITEMS).toArray();
      done = step.length < READ_STEP_ITEMS;
      for (const r of step) {
        if (counted >= rows || (counted > 0 && r.rows > 0 && bytes + r.body.length > maxBytes)) {
          done = true;
          break;
        }
        items.push(itemOf(r));
        counted += r.rows;
        bytes += r.body.length;
        below = r.pos;
      }
    }
    items.reverse();
    const first = items[0]?.pos ?? before;
    const more = this.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM (SELECT 1 FROM compacted WHERE pos < ? AND rows > 0 LIMIT 1)", first).one().c > 0;
    return { items, more };
  }

  /**
   * One slice of a search: of the `scan` newest row items before `before`, those whose body is LIKE
   * `like` (ESCAPE '\\'; all of them when null), newest first. `lowest`: the lowest pos the slice read
   * (null: no row before `before`); `more`: row items exist below it.
   */
  searchSlice(before: number, scan: number, like: string | null): { items: Compacted[]; lowest: number | null; more: boolean } {
    const slice = "SELECT pos, seq, key, rows, active, body FROM compacted WHERE pos < ? AND rows > 0 ORDER BY pos DESC LIMIT ?";
    const items = (
      like === null
        ? this.sql.exec<ItemRow>(slice, before, scan)
        : this.sql.exec<ItemRow>(`SELECT * FROM (${slice}) WHERE body LIKE ? ESCAPE '\\' ORDER BY pos DESC`, before, scan, like)
    )
      .toArray()
      .map(itemOf);
    const lowest = this.sql.exec<{ p: number | null }>(`SELECT MIN(pos) AS p FROM (SELECT pos FROM compacted WHERE pos < ? AND rows > 0 ORDER BY pos DESC LIMIT ?)`, before, scan).one().p;
    const more = lowest !== null && this.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM (SELECT 1 FROM compacted WHERE pos < ? AND rows > 0 LIMIT 1)", lowest).one().c > 0;
    return { items, lowest, more };
  }

  /** Up to `limit` compacted items after pos `after`, oldest first (an export reads the session in such steps). */
  compactedAfter(after: number, limit: number): Compacted[] {
    return this.sql.exec<ItemRow>("SELECT pos, seq, key, rows, active, body FROM compacted WHERE pos > ? ORDER BY pos LIMIT ?", after, limit).toArray().map(itemOf);
  }

  /** The compacted item of each key that has one (e.g. `perm:<id>` of a pending request). */
  compactedByKey(keys: readonly string[]): Compacted[] {
    return keys.flatMap((key) => this.sql.exec<ItemRow>("SELECT pos, seq, key, rows, active, body FROM compacted WHERE key = ? LIMIT 1", key).toArray().map(itemOf));
  }

  /** Reads items from SQLite once and writes the changed ones back on flush (one write per item per step). */
  private writeBackSink(): ItemSink & { flush(): void } {
    const byPos = new Map<number, Compacted>();
    const byKey = new Map<string, number>();
    const dirty = new Set<number>();
    const load = (query: string, arg: unknown): Compacted | null => {
      const r = this.sql.exec<ItemRow>(`SELECT pos, seq, key, rows, active, body FROM compacted WHERE ${query} LIMIT 1`, arg).toArray()[0];
      if (!r) return null;
      const item = itemOf(r);
      byPos.set(item.pos, item);
      if (item.key) byKey.set(item.key, item.pos);
      return item;
    };
    return {
      byKey: (key) => {
        const pos = byKey.get(key);
        return pos !== undefined ? byPos.get(pos)! : load("key = ?", key);
      },
      byPos: (pos) => byPos.get(pos) ?? load("pos = ?", pos),
      put: (item) => {
        byPos.set(item.pos, item);
        if (item.key) byKey.set(item.key, item.pos);
        dirty.add(item.pos);
      },
      flush: () => {
        for (const pos of dirty) {
          const it = byPos.get(pos)!;
          this.sql.exec(
            "INSERT OR REPLACE INTO compacted (pos, seq, key, rows, active, body) VALUES (?, ?, ?, ?, ?, ?)",
            it.pos,
            it.seq,
            it.key,
            it.rows,
            it.active ? 1 : 0,
            JSON.stringify(it.events),
          );
        }
      },
    };
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

type ItemRow = { pos: number; seq: number; key: string | null; rows: number; active: number; body: string };

function itemOf(r: ItemRow): Compacted {
  return { pos: r.pos, seq: r.seq, key: r.key, rows: r.rows, active: r.active === 1, events: JSON.parse(r.body) as SessionEvent[] };
}
