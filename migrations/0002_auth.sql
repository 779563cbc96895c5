-- Built-in sign-in (AUTH_MODE=builtin): one-time email codes and cookie sessions. Secrets are stored hashed.
CREATE TABLE login_codes (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  code_hash TEXT NOT NULL,           -- HMAC-SHA-256(AUTH_SECRET, email:code)
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  consumed_at INTEGER
);
CREATE INDEX login_codes_email ON login_codes(email, created_at);

CREATE TABLE auth_sessions (
  id_hash TEXT PRIMARY KEY,          -- SHA-256 of the random cookie value
  user_id TEXT NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX auth_sessions_user ON auth_sessions(user_id);
