import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { SessionAuth } from "./session-auth";

describe("session auth", () => {
  it("a logged-out report is one notice per change, naming what to run", () => {
    const a = new SessionAuth("claude /login");
    expect(a.noticeFor({ authStatus: { kind: "none", label: "Claude" } })).toBe("The agent reports it is not logged in on this machine (Claude). To log in, run there: claude /login");
    expect(a.noticeFor({ authStatus: { kind: "none" } })).toBeNull();
    expect(a.noticeFor({ authStatus: { kind: "apiKey" } })).toBeNull();
    expect(a.noticeFor({ authStatus: { kind: "none" } })).not.toBeNull();
    expect(a.noticeFor({ nonsense: 1 })).toBeNull();
  });

  it("a failed open names the advertised methods, else an auth_required error's, else the preset's login", () => {
    const a = new SessionAuth("qwen");
    const required = new acp.RequestError(-32000, "Authentication required", { authMethods: [{ id: "oauth", name: "OAuth" }] });
    expect(a.methodsFor(required)).toEqual([{ id: "oauth", name: "OAuth", description: null, command: "qwen" }]);
    expect(a.methodsFor(new acp.RequestError(-32000, "Authentication required"))).toEqual([{ id: "login", name: "Log in", description: null, command: "qwen" }]);
    expect(a.methodsFor(new Error("boom"))).toEqual([]);
    a.fromInitialize({ authMethods: [{ id: "openai", name: "OpenAI key" }] });
    expect(a.methodsFor(new Error("boom"))).toEqual([{ id: "openai", name: "OpenAI key", description: null, command: "qwen" }]);
  });
});
