import { describe, expect, it } from "vitest";
import { accountScope } from "./account-scope";

describe("account scope", () => {
  const lists = { BUILTIN_ALLOWED_EMAILS: "ann@example.com", BUILTIN_ALLOWED_DOMAINS: "team.example" };
  it("built-in sign-in: allow-listed addresses are full accounts, invited-only ones guests", () => {
    expect(accountScope("builtin", "ann@example.com", lists)).toBe("full");
    expect(accountScope("builtin", "bob@team.example", lists)).toBe("full");
    expect(accountScope("builtin", "eve@elsewhere.example", lists)).toBe("guest");
    expect(accountScope("builtin", "eve@elsewhere.example", {})).toBe("guest");
  });
  it("Access and dev identities are full accounts", () => {
    expect(accountScope("access", "eve@elsewhere.example", {})).toBe("full");
    expect(accountScope("dev", "dev@localhost", {})).toBe("full");
  });
});
