import { describe, expect, it } from "vitest";
import { proposeBranch } from "./branch-name";

describe("proposeBranch", () => {
  it("slugs a session title under baton/", () => {
    expect(proposeBranch("Claude · fix the Login page!")).toBe("baton/claude-fix-the-login-page");
    expect(proposeBranch("Émile's ünïcode")).toBe("baton/emile-s-unicode");
    expect(proposeBranch("…")).toBe("baton/session");
    expect(proposeBranch("x".repeat(100))).toBe(`baton/${"x".repeat(40)}`);
  });
});
