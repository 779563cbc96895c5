/**
 * Read-only share links (issue 30 #3) — the rule, pure: whether a link may be used now (expiry, revoked, its
 * scope against the caller), what an expiry choice means, what each refusal says, and when a room must next
 * close a spectator whose link expires. The routes (share-routes.ts) and the room's adapter apply it.
 */
import { ShareRefusal, type ShareExpiry, type ShareScope } from "../../shared/share-api";
import { SHARE_PROTOCOL } from "../../shared/share-socket";

/** 32 random bytes: 256 bits, far above the 128 the issue asks for; base64url without padding = 43 chars. */
export const SHARE_TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const HOUR_MS = 3_600_000;
export const SHARE_EXPIRY_MS: Record<ShareExpiry, number | null> = { "1h": HOUR_MS, "1d": 24 * HOUR_MS, "7d": 7 * 24 * HOUR_MS, never: null };

export const expiresAtFor = (expiry: ShareExpiry, now: number): number | null => {
  const ms = SHARE_EXPIRY_MS[expiry];
  return ms === null ? null : now + ms;
};

export type ShareLinkRow = { id: string; sessionId: string; scope: ShareScope; expiresAt: number | null; revokedAt: number | null };

export const isExpired = (expiresAt: number | null, now: number): boolean => expiresAt !== null && expiresAt <= now;

/** Listed in the Members panel: neither revoked nor expired. */
export const isActive = (link: Pick<ShareLinkRow, "expiresAt" | "revokedAt">, now: number): boolean => link.revokedAt === null && !isExpired(link.expiresAt, now);

export type ShareVerdict = { ok: true; link: ShareLinkRow } | { ok: false; reason: ShareRefusal };

/**
 * May this caller open the link now? Revoked wins over expired (the owner's act is the truer reason); a
 * signed-in-only link asks an anonymous caller to sign in; a deleted session's link is dead.
 */
export function shareVerdict(link: ShareLinkRow | null, at: { now: number; signedIn: boolean; sessionExists: boolean }): ShareVerdict {
  if (!link) return { ok: false, reason: ShareRefusal.not_found };
  if (!at.sessionExists) return { ok: false, reason: ShareRefusal.session_deleted };
  if (link.revokedAt !== null) return { ok: false, reason: ShareRefusal.revoked };
  if (isExpired(link.expiresAt, at.now)) return { ok: false, reason: ShareRefusal.expired };
  if (link.scope === "signed_in" && !at.signedIn) return { ok: false, reason: ShareRefusal.sign_in_required };
  return { ok: true, link };
}

/** What a refused caller is told: a status, a code and a sentence a person can act on. */
export function refusalAnswer(reason: ShareRefusal): { status: 401 | 404 | 410; code: string; message: string } {
  switch (reason) {
    case ShareRefusal.not_found:
      return { status: 404, code: "SHARE_NOT_FOUND", message: "This share link is not valid. Check that you copied all of it, or ask the session's owner for a new one." };
    case ShareRefusal.expired:
      return { status: 410, code: "SHARE_EXPIRED", message: "This share link has expired. Ask the session's owner for a new one." };
    case ShareRefusal.revoked:
      return { status: 410, code: "SHARE_REVOKED", message: "This share link was revoked by the session's owner." };
    case ShareRefusal.sign_in_required:
      return { status: 401, code: "SHARE_SIGN_IN_REQUIRED", message: "This share link is for people signed in to this Baton. Sign in, then open the link again." };
    case ShareRefusal.session_deleted:
      return { status: 410, code: "SHARE_SESSION_DELETED", message: "The session this link showed was deleted." };
  }
}

/** A token of the shape we hand out, or null (anything else is not looked up). */
export const tokenShape = (token: string): string | null => (TOKEN_SHAPE.test(token) ? token : null);

/** The token from `Sec-WebSocket-Protocol: baton-share, <token>`; null when the header is not that. */
export function tokenFromProtocols(header: string | null): string | null {
  const parts = (header ?? "").split(",").map((s) => s.trim());
  return parts.length === 2 && parts[0] === SHARE_PROTOCOL ? tokenShape(parts[1]!) : null;
}

/** Spectator sockets whose link expired by `now`, and when the next one does (the room's alarm), of those left. */
export function expiryDue<T extends { expiresAt: number | null }>(sockets: T[], now: number): { close: T[]; nextAt: number | null } {
  const close = sockets.filter((s) => isExpired(s.expiresAt, now));
  const left = sockets.filter((s) => s.expiresAt !== null && !isExpired(s.expiresAt, now)).map((s) => s.expiresAt!);
  return { close, nextAt: left.length ? Math.min(...left) : null };
}

/** Only the session's owner creates, lists and revokes its links (members and viewers: 403). */
export const managesShareLinks = (role: "owner" | "member" | "viewer"): boolean => role === "owner";
