/**
 * User tokens (issue 30 #1): `baton login --user` signs a person in from a terminal, for `baton attach`.
 * Storage only (D1); the token acts as its user with that user's role per session, and only on the attach
 * socket (attach-routes.ts). Only the SHA-256 is stored; revoking refuses every later use.
 */
import { USER_TOKEN_PREFIX, type UserTokenSummary } from "../../shared/attach-api";
import { newSecret, sha256Hex, type User } from "../d1-directory";

type UserTokenRow = { id: string; name: string; created_at: number; last_used_at: number | null };

/** A sign-in's name is what the terminal's machine reported (its hostname), cut to fit a list row. */
const MAX_TOKEN_NAME_CHARS = 100;
/** `last_used_at` is written at most this often per token: a reconnecting attach must not write on every dial. */
const LAST_USED_GRANULARITY_MS = 60_000;

export async function createUserToken(db: D1Database, userId: string, name: string, now: number): Promise<{ id: string; token: string }> {
  const id = crypto.randomUUID();
  const token = newSecret(USER_TOKEN_PREFIX);
  await db
    .prepare("INSERT INTO user_tokens (id, user_id, token_hash, name, created_at) VALUES (?, ?, ?, ?, ?)")
    .bind(id, userId, await sha256Hex(token), name.trim().slice(0, MAX_TOKEN_NAME_CHARS) || "terminal", now)
    .run();
  return { id, token };
}

/** The user a live (unrevoked) token belongs to, or null; marks it used. */
export async function userForToken(db: D1Database, token: string, now: number): Promise<(User & { tokenId: string }) | null> {
  if (!token.startsWith(USER_TOKEN_PREFIX)) return null;
  const row = await db
    .prepare(
      `SELECT t.id AS tokenId, t.last_used_at AS lastUsedAt, u.id, u.email, u.name FROM user_tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = ? AND t.revoked_at IS NULL`,
    )
    .bind(await sha256Hex(token))
    .first<User & { tokenId: string; lastUsedAt: number | null }>();
  if (!row) return null;
  if (row.lastUsedAt === null || now - row.lastUsedAt >= LAST_USED_GRANULARITY_MS)
    await db.prepare("UPDATE user_tokens SET last_used_at = ? WHERE id = ?").bind(now, row.tokenId).run();
  return { id: row.id, email: row.email, name: row.name, tokenId: row.tokenId };
}

export async function listUserTokens(db: D1Database, userId: string): Promise<UserTokenSummary[]> {
  const { results } = await db
    .prepare("SELECT id, name, created_at, last_used_at FROM user_tokens WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at")
    .bind(userId)
    .all<UserTokenRow>();
  return results.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at, lastUsedAt: r.last_used_at }));
}

/** Remembers that a sign-in attached to a session (once per pair), so a revoke reaches that room. */
export async function noteAttached(db: D1Database, tokenId: string, sessionId: string): Promise<void> {
  await db.prepare("INSERT OR IGNORE INTO user_token_sessions (token_id, session_id) VALUES (?, ?)").bind(tokenId, sessionId).run();
}

/** The sessions a sign-in attached to. */
export async function attachedSessions(db: D1Database, tokenId: string): Promise<string[]> {
  const { results } = await db.prepare("SELECT session_id FROM user_token_sessions WHERE token_id = ?").bind(tokenId).all<{ session_id: string }>();
  return results.map((r) => r.session_id);
}

/** False when `userId` has no such live token (someone else's id is not found either). */
export async function revokeUserToken(db: D1Database, userId: string, tokenId: string, now: number): Promise<boolean> {
  const r = await db.prepare("UPDATE user_tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL").bind(now, tokenId, userId).run();
  return r.meta.changes === 1;
}
