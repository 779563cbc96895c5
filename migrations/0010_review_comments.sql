-- Review comments (issue 28 #3): kept with the session until "Send review" turns them into one message.
CREATE TABLE review_comments (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  author_id TEXT NOT NULL REFERENCES users(id),
  path TEXT NOT NULL,
  line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  quoted TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX review_comments_session ON review_comments(session_id, created_at);
