-- Read-only share links (issue 30 #3): the owner hands out a link that opens the session as a spectator.
-- Only the token's SHA-256 is kept; the token itself is shown once, at creation.
CREATE TABLE share_links (
  id TEXT PRIMARY KEY,
  -- No foreign key: a deleted session's links stay, so opening one says "the session was deleted".
  session_id TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  -- 'signed_in': anyone signed in to this deployment; 'anyone': no sign-in (an anonymous spectator).
  scope TEXT NOT NULL CHECK (scope IN ('signed_in', 'anyone')),
  created_by TEXT NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  -- NULL: never expires.
  expires_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX share_links_session ON share_links(session_id, created_at);
