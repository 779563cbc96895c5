import { describe, expect, it } from "vitest";
import { allowListed, constantTimeEqual, hmacHex, normalizeEmail, randomDigits } from "./login-codes";
import { accessIssuer } from "./access-jwt";
import { isLoopback, readCookie } from "./identity";

describe("login code helpers", () => {
  it("normalises plausible emails and rejects the rest", () => {
    expect(normalizeEmail("  Ann@Example.COM ")).toBe("ann@example.com");
    for (const bad of ["", "ann", "ann@", "@x.io", "a b@x.io", "ann@x", "<a@x.io>", 42, null, `${"a".repeat(250)}@x.io`]) expect(normalizeEmail(bad)).toBeNull();
  });

  it("matches allow lists by exact address or domain, not by suffix", () => {
    expect(allowListed("ann@x.io", "bob@y.io, ANN@x.io", undefined)).toBe(true);
    expect(allowListed("ann@team.io", undefined, "@team.io,other.io")).toBe(true);
    expect(allowListed("ann@evilteam.io", undefined, "team.io")).toBe(false);
    expect(allowListed("ann@sub.team.io", undefined, "team.io")).toBe(false);
    expect(allowListed("ann@x.io", "", "")).toBe(false);
  });

  it("draws uniform-looking digits of the requested length", () => {
    const counts = new Array(10).fill(0);
    for (let i = 0; i < 2000; i++) for (const d of randomDigits(6)) counts[Number(d)]++;
    expect(randomDigits(8)).toMatch(/^\d{8}$/);
    // 12,000 digits: each should be near 1,200; a broken generator (e.g. always 0-5) fails this.
    for (const c of counts) expect(c).toBeGreaterThan(900);
  });

  it("HMACs with the secret and compares without early exit", async () => {
    const a = await hmacHex("secret-1", "ann@x.io:123456");
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await hmacHex("secret-2", "ann@x.io:123456")).not.toBe(a);
    expect(constantTimeEqual(a, a)).toBe(true);
    expect(constantTimeEqual(a, a.replace(/.$/, a.endsWith("0") ? "1" : "0"))).toBe(false);
    expect(constantTimeEqual(a, a.slice(1))).toBe(false);
  });
});

describe("identity helpers", () => {
  it("treats only loopback hosts as local", () => {
    expect(isLoopback("http://localhost:8787/x")).toBe(true);
    expect(isLoopback("http://127.0.0.1/x")).toBe(true);
    expect(isLoopback("http://[::1]:5173/")).toBe(true);
    expect(isLoopback("https://localhost.evil.com/")).toBe(false);
    expect(isLoopback("https://baton.example.com/")).toBe(false);
  });

  it("reads one cookie by exact name", () => {
    const r = new Request("http://x/", { headers: { Cookie: "xbaton_session=no; baton_session=yes; other=1" } });
    expect(readCookie(r, "baton_session")).toBe("yes");
    expect(readCookie(new Request("http://x/"), "baton_session")).toBeUndefined();
  });

  it("refuses a cookie sent twice under one name (a shadowing cookie set by a sibling host or path)", () => {
    const r = new Request("http://x/", { headers: { Cookie: "baton_session=attacker; baton_session=mine" } });
    expect(readCookie(r, "baton_session")).toBeUndefined();
  });

  it("derives the Access issuer from the team domain however it was written", () => {
    for (const d of ["team.cloudflareaccess.com", "https://team.cloudflareaccess.com/", "http://team.cloudflareaccess.com"])
      expect(accessIssuer(d)).toBe("https://team.cloudflareaccess.com");
  });
});
