/**
 * The part of a Durable Object's SQLite (`ctx.storage.sql`) the stores use. Declared here so stores and
 * the rules over them do not depend on the Workers runtime: unit tests give them an in-memory SQLite.
 */
export type SqlValue = ArrayBuffer | string | number | null;
export interface SqlCursor<T> extends Iterable<T> {
  toArray(): T[];
  /** The single row; throws unless there is exactly one. */
  one(): T;
}
export interface SqlDb {
  exec<T extends Record<string, SqlValue>>(query: string, ...bindings: unknown[]): SqlCursor<T>;
}

/** Schema migrations for a Durable Object's SQLite storage, tracked in `_migrations`. */
export function migrate(sql: SqlDb, steps: readonly string[]): void {
  sql.exec("CREATE TABLE IF NOT EXISTS _migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const row = sql.exec<{ v: number | null }>("SELECT MAX(version) AS v FROM _migrations").one();
  const current = row.v ?? 0;
  for (let v = current + 1; v <= steps.length; v++) {
    sql.exec(steps[v - 1]!);
    sql.exec("INSERT INTO _migrations (version, applied_at) VALUES (?, ?)", v, Date.now());
  }
}

/** A JSON key/value table (`meta`) — small durable facts of a DO, read and written synchronously. */
export function makeMetaTable(sql: SqlDb) {
  return {
    get<T>(key: string): T | null {
      const rows = sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray();
      return rows.length ? (JSON.parse(rows[0]!.value) as T) : null;
    },
    set(key: string, value: unknown): void {
      sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", key, JSON.stringify(value));
    },
  };
}
