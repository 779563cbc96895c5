/**
 * The SessionRoom's event log in SQLite: events appended one row each or a run as one row, read back in order,
 * and compacted into rows (compact-events.ts) for joins, history pages, search and export. Synchronous (DO SQLite).
 */
import type { SessionEvent } from "../../shared/viewer-protocol";
import { makeMetaTable, migrate, type SqlDb } from "../sql-migrations";
import { type Compacted, compactInto, type CompactState, initialCompactState, type ItemSink } from "./compact-events";
import { ROOM_MIGRATIONS } from "./room-migrations";
import type { StoredEvent } from "./stored-event";

/** `kind` of a log row holding a run of events (seq … last) as one JSON array body. */
const RUN_KIND = "run";
/** Log events compacted per write-back step: bounds the items held in memory while a long log catches up. */
const COMPACT_STEP_EVENTS = 4096;
const ITEM_COLUMNS = "pos, seq, key, rows, part_of, active, body";
/** Compacted items read per query when paging back: a page's rows plus the turn markers between them. */
const READ_STEP_ITEMS = 128;

export class RoomLogStore {
  protected readonly meta: ReturnType<typeof makeMetaTable>;
  constructor(protected readonly sql: SqlDb) {
    migrate(sql, ROOM_MIGRATIONS);
    this.meta = makeMetaTable(sql);
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
      const step = this.sql.exec<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM compacted WHERE pos < ? ORDER BY pos DESC LIMIT ?`, below, READ_STEP_ITEMS).toArray();
      done = step.length < READ_STEP_ITEMS;
      for (const r of step) {
        if (counted >= rows) {
          done = true;
          break;
        }
        if (counted > 0 && r.rows > 0 && bytes + r.body.length > maxBytes) {
          // This row stays for the next page: so do its parts read after the last row taken.
          while (items.length && items[items.length - 1]!.rows === 0) items.pop();
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
    const slice = `SELECT ${ITEM_COLUMNS} FROM compacted WHERE pos < ? AND rows > 0 ORDER BY pos DESC LIMIT ?`;
    // A row stored with parts is always read whole (a match may span where one part ends and the next begins).
    const items = (
      like === null
        ? this.sql.exec<ItemRow>(slice, before, scan)
        : this.sql.exec<ItemRow>(
            `SELECT * FROM (${slice}) s WHERE body LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM compacted p WHERE p.part_of = s.pos) ORDER BY pos DESC`,
            before,
            scan,
            like,
          )
    )
      .toArray()
      .map((r) => this.withParts(itemOf(r)));
    const lowest = this.sql.exec<{ p: number | null }>(`SELECT MIN(pos) AS p FROM (SELECT pos FROM compacted WHERE pos < ? AND rows > 0 ORDER BY pos DESC LIMIT ?)`, before, scan).one().p;
    const more = lowest !== null && this.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM (SELECT 1 FROM compacted WHERE pos < ? AND rows > 0 LIMIT 1)", lowest).one().c > 0;
    return { items, lowest, more };
  }

  /** The item with its parts' events after its own (a long message read as one row). */
  private withParts(item: Compacted): Compacted {
    const parts = this.sql.exec<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM compacted WHERE part_of = ? ORDER BY pos`, item.pos).toArray().map(itemOf);
    return parts.length ? { ...item, seq: parts[parts.length - 1]!.seq, events: [...item.events, ...parts.flatMap((p) => p.events)] } : item;
  }

  /**
   * About `limit` compacted items after pos `after`, oldest first (an export reads the session in such
   * steps). A step never ends inside a row: the items up to the last part of its last row come with it.
   */
  compactedAfter(after: number, limit: number): Compacted[] {
    const items = this.sql.exec<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM compacted WHERE pos > ? ORDER BY pos LIMIT ?`, after, limit).toArray();
    const last = items.findLast((r) => r.rows > 0);
    if (!last) return items.map(itemOf);
    const end = this.sql.exec<{ p: number | null }>("SELECT MAX(pos) AS p FROM compacted WHERE part_of = ?", last.pos).one().p;
    const rest = end === null ? [] : this.sql.exec<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM compacted WHERE pos > ? AND pos <= ? ORDER BY pos`, items[items.length - 1]!.pos, end).toArray();
    return [...items, ...rest].map(itemOf);
  }

  /** The compacted item of each key that has one (e.g. `perm:<id>` of a pending request). */
  compactedByKey(keys: readonly string[]): Compacted[] {
    return keys.flatMap((key) => this.sql.exec<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM compacted WHERE key = ? LIMIT 1`, key).toArray().map(itemOf));
  }

  /** Reads items from SQLite once and writes the changed ones back on flush (one write per item per step). */
  private writeBackSink(): ItemSink & { flush(): void } {
    const byPos = new Map<number, Compacted>();
    const byKey = new Map<string, number>();
    const dirty = new Set<number>();
    const load = (query: string, arg: unknown): Compacted | null => {
      const r = this.sql.exec<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM compacted WHERE ${query} LIMIT 1`, arg).toArray()[0];
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
            "INSERT OR REPLACE INTO compacted (pos, seq, key, rows, part_of, active, body) VALUES (?, ?, ?, ?, ?, ?, ?)",
            it.pos,
            it.seq,
            it.key,
            it.rows,
            it.partOf,
            it.active ? 1 : 0,
            JSON.stringify(it.events),
          );
        }
      },
    };
  }
}

type ItemRow = { pos: number; seq: number; key: string | null; rows: number; part_of: number | null; active: number; body: string };

function itemOf(r: ItemRow): Compacted {
  return { pos: r.pos, seq: r.seq, key: r.key, rows: r.rows, partOf: r.part_of, active: r.active === 1, events: JSON.parse(r.body) as SessionEvent[] };
}
