-- A session's git worktree (issue 28 #1): the repository, branch, base and paths the daemon made for it
-- (shared/worktree.ts SessionWorktree as JSON); NULL when the session runs in its directory as given.
ALTER TABLE sessions ADD COLUMN worktree_json TEXT;
