-- Web Push (issue 21): each signed-in browser's push subscription, per-user event choices, per-session mutes.
CREATE TABLE push_subscriptions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  endpoint TEXT NOT NULL UNIQUE,      -- the push service URL: one device's browser (re-posted → refreshed, moved to the poster)
  p256dh TEXT NOT NULL,               -- the browser's ECDH public key (RFC 8291)
  auth TEXT NOT NULL,                 -- the browser's auth secret (RFC 8291)
  label TEXT,                         -- "Chrome on Android", shown in settings
  auth_session_hash TEXT,             -- the built-in sign-in it was made under: removed with it at sign-out
  created_at INTEGER NOT NULL,
  refreshed_at INTEGER NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);
CREATE INDEX push_subscriptions_auth_session ON push_subscriptions(auth_session_hash);

-- Which events notify a user (JSON object kind → boolean; a kind not in it is on).
CREATE TABLE push_preferences (
  user_id TEXT PRIMARY KEY REFERENCES users(id),
  events_json TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);

-- Sessions a user muted (no push from them, whatever the event).
CREATE TABLE push_mutes (
  user_id TEXT NOT NULL REFERENCES users(id),
  session_id TEXT NOT NULL REFERENCES sessions(id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, session_id)
);
