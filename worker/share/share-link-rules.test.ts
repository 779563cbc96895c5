import { describe, expect, it } from "vitest";
import { SHARE_PROTOCOL } from "../../shared/share-socket";
import { expiresAtFor, expiryDue, isActive, refusalAnswer, shareVerdict, type ShareLinkRow, tokenFromProtocols } from "./share-link-rules";

const NOW = 1_800_000_000_000;
const link = (over: Partial<ShareLinkRow> = {}): ShareLinkRow => ({ id: "l1", sessionId: "s1", scope: "signed_in", expiresAt: NOW + 1000, revokedAt: null, ...over });
const at = (over: Partial<{ now: number; signedIn: boolean; sessionExists: boolean }> = {}) => ({ now: NOW, signedIn: true, sessionExists: true, ...over });

describe("share link rules", () => {
  it("expiry choices: 1 hour, 1 day, 7 days, never", () => {
    expect(expiresAtFor("1h", NOW)).toBe(NOW + 3_600_000);
    expect(expiresAtFor("1d", NOW)).toBe(NOW + 86_400_000);
    expect(expiresAtFor("7d", NOW)).toBe(NOW + 7 * 86_400_000);
    expect(expiresAtFor("never", NOW)).toBeNull();
  });

  it("a live link opens; its scope decides whether an anonymous caller may", () => {
    expect(shareVerdict(link(), at())).toEqual({ ok: true, link: link() });
    expect(shareVerdict(link(), at({ signedIn: false }))).toEqual({ ok: false, reason: "sign_in_required" });
    expect(shareVerdict(link({ scope: "anyone" }), at({ signedIn: false })).ok).toBe(true);
    expect(shareVerdict(link({ expiresAt: null }), at({ now: NOW + 10 ** 12 })).ok).toBe(true);
  });

  it("unknown, deleted, revoked and expired links are refused, each with its own reason", () => {
    expect(shareVerdict(null, at())).toEqual({ ok: false, reason: "not_found" });
    expect(shareVerdict(link(), at({ sessionExists: false }))).toEqual({ ok: false, reason: "session_deleted" });
    expect(shareVerdict(link({ revokedAt: NOW - 1 }), at())).toEqual({ ok: false, reason: "revoked" });
    // Expiry is inclusive: at expiresAt the link is gone.
    expect(shareVerdict(link(), at({ now: NOW + 1000 }))).toEqual({ ok: false, reason: "expired" });
    expect(shareVerdict(link({ revokedAt: NOW, expiresAt: NOW - 5 }), at())).toEqual({ ok: false, reason: "revoked" });
    // An anonymous caller of a dead link learns it is dead, not that it should sign in.
    expect(shareVerdict(link({ revokedAt: NOW }), at({ signedIn: false }))).toEqual({ ok: false, reason: "revoked" });
  });

  it("every refusal has a status and a sentence a person can act on", () => {
    for (const reason of ["not_found", "expired", "revoked", "sign_in_required", "session_deleted"] as const) {
      const a = refusalAnswer(reason);
      expect(a.status).toBeGreaterThanOrEqual(400);
      expect(a.message).toMatch(/^[A-Z].+\.$/);
    }
    expect(refusalAnswer("revoked").message).toMatch(/revoked/);
    expect(refusalAnswer("expired").message).toMatch(/expired/);
  });

  it("lists only links neither revoked nor expired", () => {
    expect(isActive(link(), NOW)).toBe(true);
    expect(isActive(link({ revokedAt: NOW }), NOW)).toBe(false);
    expect(isActive(link(), NOW + 1000)).toBe(false);
  });

  it("reads the token from the subprotocol header only in the shape handed out", () => {
    const token = "A".repeat(42) + "_";
    expect(tokenFromProtocols(`${SHARE_PROTOCOL}, ${token}`)).toBe(token);
    expect(tokenFromProtocols(`${SHARE_PROTOCOL},${token}`)).toBe(token);
    expect(tokenFromProtocols(token)).toBeNull();
    expect(tokenFromProtocols(`other, ${token}`)).toBeNull();
    expect(tokenFromProtocols(`${SHARE_PROTOCOL}, ${token}x`)).toBeNull();
    expect(tokenFromProtocols(`${SHARE_PROTOCOL}, ${"A".repeat(42)}=`)).toBeNull();
    expect(tokenFromProtocols(null)).toBeNull();
  });

  it("closes the spectators whose link expired and names the next expiry", () => {
    const s = [{ expiresAt: NOW - 1 }, { expiresAt: NOW + 500 }, { expiresAt: null }, { expiresAt: NOW + 200 }];
    expect(expiryDue(s, NOW)).toEqual({ close: [s[0]], nextAt: NOW + 200 });
    expect(expiryDue([{ expiresAt: null }], NOW)).toEqual({ close: [], nextAt: null });
  });
});
