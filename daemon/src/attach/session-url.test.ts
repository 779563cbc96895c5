import { describe, expect, it } from "vitest";
import { parseSessionUrl } from "./session-url";

describe("parseSessionUrl", () => {
  it.each([
    ["https://baton.example.com/s/abc-123", { server: "https://baton.example.com", sessionId: "abc-123" }],
    ["http://localhost:8787/s/abc/", { server: "http://localhost:8787", sessionId: "abc" }],
    ["  https://b.example/s/x?tab=1#end ", { server: "https://b.example", sessionId: "x" }],
  ])("%s → server and session", (input, target) => {
    expect(parseSessionUrl(input)).toEqual({ ok: true, target });
  });

  it.each([
    ["baton.example.com/s/abc", "not a URL"],
    ["ftp://b.example/s/abc", "must be http(s)"],
    ["https://b.example/machines", "is not a session's address"],
    ["https://b.example/s/", "is not a session's address"],
  ])("%s is refused with a reason", (input, reason) => {
    const r = parseSessionUrl(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(reason);
  });
});
