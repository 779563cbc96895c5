/** The SessionRoom's SQLite schema, step by step (worker/sql-migrations.ts applies what a room has not run yet). */
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
  // Issue 28 #2: each turn's worktree snapshots (`turn.tree`), by turn; `message_id` ties it to the log's turn.
  `CREATE TABLE IF NOT EXISTS turn_trees (turn_id TEXT PRIMARY KEY, message_id TEXT, start_tree TEXT, end_tree TEXT);`,
];
