-- The live session list and the session lifecycle (issue 26): a person's name for a session, archiving,
-- the "needs you" marker, a per-session version (bumped on every change the list shows: the feed's
-- ordering key) and each member's last look (the "new since you looked" marker).
ALTER TABLE sessions ADD COLUMN custom_title TEXT;
ALTER TABLE sessions ADD COLUMN archived_at INTEGER;
ALTER TABLE sessions ADD COLUMN needs_you INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE session_members ADD COLUMN seen_at INTEGER NOT NULL DEFAULT 0;

-- The list: a user's member rows (the owner has one too), then the page in (last_activity_at, id) order.
CREATE INDEX session_members_user_session ON session_members(user_id, session_id);
CREATE INDEX sessions_activity ON sessions(last_activity_at DESC, id DESC);
-- Bulk archive of idle sessions: an owner's unarchived sessions by age.
CREATE INDEX sessions_owner_archived ON sessions(owner_id, archived_at, last_activity_at);
-- Machine online/offline re-publishes its sessions' rows.
CREATE INDEX sessions_machine ON sessions(machine_id);
-- Deleting a session removes the push mutes that name it.
CREATE INDEX push_mutes_session ON push_mutes(session_id);
