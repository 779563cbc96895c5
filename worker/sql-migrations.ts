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
