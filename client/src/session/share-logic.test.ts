import { describe, expect, it } from "vitest";
import { expiryLabel, refusalHeading, scopeLabel } from "./share-logic";

const NOW = 1_800_000_000_000;
describe("share link labels", () => {
  it("says how long a link has left", () => {
    expect(expiryLabel(null, NOW)).toBe("Never expires");
    expect(expiryLabel(NOW + 3_600_000, NOW)).toBe("Expires in 1 h");
    expect(expiryLabel(NOW + 3_599_000, NOW)).toBe("Expires in 60 min");
    expect(expiryLabel(NOW + 10_000, NOW)).toBe("Expires in 1 min");
    expect(expiryLabel(NOW + 86_400_000, NOW)).toBe("Expires in 1 day");
    expect(expiryLabel(NOW + 86_399_000, NOW)).toBe("Expires in 24 h");
    expect(expiryLabel(NOW + 86_400_001, NOW)).toBe("Expires in 2 days");
    expect(expiryLabel(NOW + 7 * 86_400_000, NOW)).toBe("Expires in 7 days");
    expect(expiryLabel(NOW - 1, NOW)).toBe("Expired");
  });
  it("names scopes and refusals", () => {
    expect(scopeLabel("anyone")).toBe("Anyone with the link");
    expect(scopeLabel("signed_in")).toBe("People signed in here");
    expect(refusalHeading("SHARE_REVOKED")).toBe("This link was revoked");
    expect(refusalHeading("SHARE_EXPIRED")).toBe("This link has expired");
    expect(refusalHeading("WHATEVER")).toBe("This link does not open");
  });
});
