-- Directory: users, machines (hashed tokens), sessions and their members.
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE machines (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER,
  hostname TEXT,
  agents_json TEXT NOT NULL DEFAULT '[]',
  roots_json TEXT NOT NULL DEFAULT '[]',
  online INTEGER NOT NULL DEFAULT 0,
  last_seen_at INTEGER
);
CREATE INDEX machines_owner ON machines(owner_id);

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES users(id),
  machine_id TEXT NOT NULL REFERENCES machines(id),
  agent_id TEXT NOT NULL,
  cwd TEXT NOT NULL,
  title TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'starting',
  created_at INTEGER NOT NULL,
  last_activity_at INTEGER NOT NULL
);
CREATE INDEX sessions_owner ON sessions(owner_id, last_activity_at);

CREATE TABLE session_members (
  session_id TEXT NOT NULL REFERENCES sessions(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  role TEXT NOT NULL CHECK (role IN ('owner', 'member', 'viewer')),
  PRIMARY KEY (session_id, user_id)
);
CREATE INDEX session_members_user ON session_members(user_id);
