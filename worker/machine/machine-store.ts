/** The Machine DO's durable state: tunnel cursors, the downstream outbox, known sessions, active turns. */
import type { DaemonFrame, MachineCommand } from "../../shared/tunnel-protocol";
import { makeMetaTable, migrate, type SqlDb } from "../sql-migrations";

/** The Machine's small durable facts (the `meta` table), by key. */
export type MachineMeta = {
  machine_id: string;
  /** The daemon process's epoch: a new one restarts the numbering. */
  epoch: string;
  /** Every room accepted the daemon's events up to here (written now and then: tunnel-intake.ts). */
  last_seen_up: number;
  /** The last number given to a command for the daemon. */
  last_down: number;
  /** What the daemon said of itself in its hello (agents updated as it learns them). */
  hello: { hostname: string; agents: Hello["agents"]; roots: Hello["roots"]; version: Hello["version"] };
  online: boolean;
  /** Turns that may run at once (set by the owner; the env's default otherwise). */
  budget: number;
};
type Hello = Extract<DaemonFrame, { type: "hello" }>;

const MIGRATIONS = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE down_outbox (n INTEGER PRIMARY KEY, body TEXT NOT NULL);
   CREATE TABLE sessions (session_id TEXT PRIMARY KEY);
   CREATE TABLE active (session_id TEXT PRIMARY KEY, since INTEGER NOT NULL);`,
];

/**
 * Reads every tunnel cycle asks for (the epoch, whether a session is this machine's) are answered from memory
 * after the first: this instance is the storage's only writer, and each SQLite statement outside a write costs
 * a read transaction on the thread every DO shares (bench/RESULTS.md, issue 31 #3).
 */
export class MachineStore {
  private readonly meta: ReturnType<typeof makeMetaTable>;
  /** Meta values read or written by this instance (null: known absent). */
  private readonly metaCache = new Map<keyof MachineMeta, unknown>();
  /** Sessions known to be this machine's (only positives: a daemon naming foreign ids cannot grow it). */
  private readonly knownSessions = new Set<string>();
  constructor(private readonly sql: SqlDb) {
    migrate(sql, MIGRATIONS);
    this.meta = makeMetaTable(sql);
  }
  get<K extends keyof MachineMeta>(key: K): MachineMeta[K] | null {
    if (this.metaCache.has(key)) return this.metaCache.get(key) as MachineMeta[K] | null;
    const value = this.meta.get<MachineMeta[K]>(key);
    this.metaCache.set(key, value);
    return value;
  }
  set<K extends keyof MachineMeta>(key: K, value: MachineMeta[K]): void {
    this.meta.set(key, value);
    // As read back: a JSON copy, so a caller's later change to `value` does not show through.
    this.metaCache.set(key, JSON.parse(JSON.stringify(value)) as MachineMeta[K]);
  }

  pushDown(command: MachineCommand): number {
    const n = (this.get("last_down") ?? 0) + 1;
    this.set("last_down", n);
    this.sql.exec("INSERT INTO down_outbox (n, body) VALUES (?, ?)", n, JSON.stringify(command));
    return n;
  }
  ackDown(n: number): void {
    this.sql.exec("DELETE FROM down_outbox WHERE n <= ?", n);
  }
  /** A new daemon process: its numbering starts over and what was queued for the old one is moot. */
  startEpoch(epoch: string): void {
    this.set("epoch", epoch);
    this.set("last_seen_up", 0);
    this.clearDown();
    this.clearActive();
  }

  clearDown(): void {
    this.sql.exec("DELETE FROM down_outbox");
  }
  pendingDown(): { n: number; command: MachineCommand }[] {
    return this.sql
      .exec<{ n: number; body: string }>("SELECT n, body FROM down_outbox ORDER BY n")
      .toArray()
      .map((r) => ({ n: r.n, command: JSON.parse(r.body) as MachineCommand }));
  }

  addSession(sessionId: string): void {
    if (this.knownSessions.has(sessionId)) return;
    this.sql.exec("INSERT OR IGNORE INTO sessions (session_id) VALUES (?)", sessionId);
    this.knownSessions.add(sessionId);
  }
  /** A deleted session: the Machine no longer calls its room (issue 26). */
  forgetSession(sessionId: string): void {
    this.knownSessions.delete(sessionId);
    this.sql.exec("DELETE FROM sessions WHERE session_id = ?", sessionId);
    this.sql.exec("DELETE FROM active WHERE session_id = ?", sessionId);
  }
  hasSession(sessionId: string): boolean {
    if (this.knownSessions.has(sessionId)) return true;
    const known = this.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM sessions WHERE session_id = ?", sessionId).one().c > 0;
    if (known) this.knownSessions.add(sessionId);
    return known;
  }
  sessionIds(): string[] {
    return this.sql.exec<{ session_id: string }>("SELECT session_id FROM sessions").toArray().map((r) => r.session_id);
  }

  isActive(sessionId: string): boolean {
    return this.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM active WHERE session_id = ?", sessionId).one().c > 0;
  }
  activeCount(): number {
    return this.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM active").one().c;
  }
  setActive(sessionId: string, active: boolean): void {
    if (active) this.sql.exec("INSERT OR REPLACE INTO active (session_id, since) VALUES (?, ?)", sessionId, Date.now());
    else this.sql.exec("DELETE FROM active WHERE session_id = ?", sessionId);
  }
  clearActive(): void {
    this.sql.exec("DELETE FROM active");
  }
}
