import { describe, expect, it } from "vitest";
import { parseShareGrant } from "./viewer-sockets";

describe("a spectator's share grant on the upgrade", () => {
  it("absent for members, read when well formed, refused otherwise", () => {
    expect(parseShareGrant(null)).toBeNull();
    expect(parseShareGrant(JSON.stringify({ linkId: "l1", expiresAt: 5 }))).toEqual({ linkId: "l1", expiresAt: 5 });
    expect(parseShareGrant(JSON.stringify({ linkId: "l1", expiresAt: null }))).toEqual({ linkId: "l1", expiresAt: null });
    for (const bad of ["", "{", "null", "[]", JSON.stringify({ linkId: 1, expiresAt: 5 }), JSON.stringify({ linkId: "l1" }), JSON.stringify({ linkId: "l1", expiresAt: "5" })])
      expect(parseShareGrant(bad), bad).toBe("bad");
  });
});
