/**
 * Built-in sign-in, part 2: cookie sessions. The cookie holds 32 random bytes; D1 holds only their
 * SHA-256, so a database leak yields no usable session.
 */
import { newSecret, sha256Hex, type User } from "../d1-directory";

/** A signed-in browser stays signed in for a month; sign-out deletes the row at once. */
export const AUTH_SESSION_TTL_MS = 30 * 24 * 60 * 60_000;

export async function createAuthSession(db: D1Database, userId: string, now = Date.now()): Promise<{ value: string; expiresAt: number }> {
  const value = newSecret("");
  const expiresAt = now + AUTH_SESSION_TTL_MS;
  await db.batch([
    db.prepare("INSERT INTO auth_sessions (id_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)").bind(await sha256Hex(value), userId, now, expiresAt),
    db.prepare("DELETE FROM auth_sessions WHERE expires_at < ?").bind(now),
  ]);
  return { value, expiresAt };
}

export async function userForAuthSession(db: D1Database, value: string | undefined, now = Date.now()): Promise<User | null> {
  if (!value || value.length > 128) return null;
  return db
    .prepare("SELECT u.id, u.email, u.name FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = ? AND s.expires_at > ?")
    .bind(await sha256Hex(value), now)
    .first<User>();
}

export async function deleteAuthSession(db: D1Database, value: string | undefined): Promise<void> {
  if (!value) return;
  await db.prepare("DELETE FROM auth_sessions WHERE id_hash = ?").bind(await sha256Hex(value)).run();
}

/** Signs a user out of every browser (a guest's last invitation was withdrawn). */
export async function deleteAuthSessionsOf(db: D1Database, userId: string): Promise<void> {
  await db.prepare("DELETE FROM auth_sessions WHERE user_id = ?").bind(userId).run();
}
