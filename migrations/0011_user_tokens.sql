-- `baton login --user` (issue 30 #1): a person's own sign-in for `baton attach` from an editor or terminal.
-- It acts as that user (their role per session), only on the attach socket; revocable from the Machines page.
-- Only the token's SHA-256 is kept; the token itself goes once to the terminal that asked.
CREATE TABLE user_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  token_hash TEXT NOT NULL UNIQUE,
  -- Where it was issued (the hostname `baton login --user` reported), to tell sign-ins apart.
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX user_tokens_user ON user_tokens(user_id, created_at);

-- What a device code pairs: a machine (the daemon) or a user sign-in (`baton attach`).
ALTER TABLE device_codes ADD COLUMN kind TEXT NOT NULL DEFAULT 'machine' CHECK (kind IN ('machine', 'user'));

-- Which sessions each sign-in attached to: revoking it closes those rooms' sockets of it, and no others are woken.
CREATE TABLE user_token_sessions (
  token_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  PRIMARY KEY (token_id, session_id)
);
