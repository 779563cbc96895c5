import { describe, expect, it } from "vitest";
import { insecureServerProblem } from "./server-url";

describe("where the machine token may go", () => {
  it("https anywhere, plain http only to loopback unless explicitly allowed", () => {
    expect(insecureServerProblem("https://baton.example.com", false)).toBeNull();
    expect(insecureServerProblem("wss://baton.example.com", false)).toBeNull();
    for (const local of ["http://localhost:8787", "http://127.0.0.1:8787", "http://[::1]:8787", "ws://localhost:1"])
      expect(insecureServerProblem(local, false), local).toBeNull();
    expect(insecureServerProblem("http://baton.example.com", false)).toMatch(/refusing to send the machine token over plain http/);
    expect(insecureServerProblem("http://192.168.1.20:8787", false)).toMatch(/--allow-insecure-http/);
    expect(insecureServerProblem("http://localhost.evil.com", false)).not.toBeNull();
    expect(insecureServerProblem("http://baton.internal", true)).toBeNull();
    expect(insecureServerProblem("ftp://x", false)).toMatch(/unsupported/);
    expect(insecureServerProblem("not a url", false)).toMatch(/not a URL/);
  });
});
