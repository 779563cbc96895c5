/** Schema migrations for a Durable Object's SQLite storage, tracked in `_migrations`. */
export function migrate(sql: SqlStorage, steps: readonly string[]): void {
  sql.exec("CREATE TABLE IF NOT EXISTS _migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const row = sql.exec<{ v: number | null }>("SELECT MAX(version) AS v FROM _migrations").one();
  const current = row.v ?? 0;
  for (let v = current + 1; v <= steps.length; v++) {
    sql.exec(steps[v - 1]!);
    sql.exec("INSERT INTO _migrations (version, applied_at) VALUES (?, ?)", v, Date.now());
  }
}

/** A JSON key/value table (`meta`) — small durable facts of a DO, read and written synchronously. */
export function makeMetaTable(sql: SqlStorage) {
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
