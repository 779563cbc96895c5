-- `baton login`: device-authorization requests (RFC 8628 style) and the daemon version each machine reports.
CREATE TABLE device_codes (
  id TEXT PRIMARY KEY,
  device_code_hash TEXT NOT NULL UNIQUE,  -- SHA-256 of the secret only the requesting daemon knows
  user_code TEXT NOT NULL UNIQUE,         -- short code the person types / sees (XXXX-XXXX)
  client_key TEXT NOT NULL,               -- who asked (CF-Connecting-IP), for the per-client rate limit
  hostname TEXT NOT NULL,
  os TEXT NOT NULL,
  agents_json TEXT NOT NULL,
  daemon_version TEXT NOT NULL,
  protocol_version INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'consumed')),
  approved_by TEXT REFERENCES users(id),
  machine_name TEXT,
  interval_ms INTEGER NOT NULL,
  last_poll_at INTEGER,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX device_codes_client ON device_codes(client_key, created_at);
CREATE INDEX device_codes_expiry ON device_codes(expires_at);

ALTER TABLE machines ADD COLUMN daemon_version TEXT;
ALTER TABLE machines ADD COLUMN protocol_version INTEGER;
