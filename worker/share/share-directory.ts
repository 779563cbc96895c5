/** Share links in D1 (`share_links`, migrations/0008): only the token's SHA-256 is stored. */
import type { ShareLinkSummary, ShareScope } from "../../shared/share-api";
import { sha256Hex } from "../d1-directory";
import { SHARE_TOKEN_BYTES, type ShareLinkRow } from "./share-link-rules";

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

/** A fresh token (crypto RNG, SHARE_TOKEN_BYTES) — returned to the owner once, stored only as its hash. */
export const newShareToken = (): string => base64url(crypto.getRandomValues(new Uint8Array(SHARE_TOKEN_BYTES)));

export async function insertShareLink(
  db: D1Database,
  link: { sessionId: string; scope: ShareScope; createdBy: string; expiresAt: number | null; now: number },
): Promise<{ link: ShareLinkSummary; token: string }> {
  const id = crypto.randomUUID();
  const token = newShareToken();
  await db
    .prepare("INSERT INTO share_links (id, session_id, token_hash, scope, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
    .bind(id, link.sessionId, await sha256Hex(token), link.scope, link.createdBy, link.now, link.expiresAt)
    .run();
  return { link: { id, scope: link.scope, createdAt: link.now, expiresAt: link.expiresAt }, token };
}

/** The session's links neither revoked nor expired at `now`, newest first. */
export async function activeShareLinks(db: D1Database, sessionId: string, now: number): Promise<ShareLinkSummary[]> {
  const r = await db
    .prepare(
      `SELECT id, scope, created_at AS createdAt, expires_at AS expiresAt FROM share_links
       WHERE session_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at DESC, id`,
    )
    .bind(sessionId, now)
    .all<ShareLinkSummary>();
  return r.results;
}

const ROW = "SELECT id, session_id AS sessionId, scope, expires_at AS expiresAt, revoked_at AS revokedAt FROM share_links";

export async function shareLinkByToken(db: D1Database, token: string): Promise<ShareLinkRow | null> {
  return db.prepare(`${ROW} WHERE token_hash = ?`).bind(await sha256Hex(token)).first<ShareLinkRow>();
}

/** Revokes one of the session's links; false when there is no such link (or it was revoked already). */
export async function revokeShareLink(db: D1Database, sessionId: string, linkId: string, now: number): Promise<boolean> {
  const r = await db.prepare("UPDATE share_links SET revoked_at = ? WHERE id = ? AND session_id = ? AND revoked_at IS NULL").bind(now, linkId, sessionId).run();
  return r.meta.changes > 0;
}
