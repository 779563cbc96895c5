-- Sessions are told apart in the list: the first prompt (a title and a one-line preview) and the
-- agent's own title (ACP `session_info_update`), written by the session's room (session-title.ts).
ALTER TABLE sessions ADD COLUMN first_prompt TEXT;
ALTER TABLE sessions ADD COLUMN agent_title TEXT;
