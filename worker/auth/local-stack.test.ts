import { describe, expect, it } from "vitest";
import { codeSecret, isLocalStack, LOCAL_DEV_SECRET, sessionCookieName } from "./local-stack";

describe("local-stack privileges follow how the server started, not the request", () => {
  it("the dev code-signing key only on a local stack, and never over a real AUTH_SECRET", () => {
    expect(codeSecret({})).toBeNull();
    expect(codeSecret({ AUTH_SECRET: "short" })).toBeNull();
    expect(codeSecret({ LOCAL_STACK: "1" })).toBe(LOCAL_DEV_SECRET);
    expect(codeSecret({ LOCAL_STACK: "true" })).toBeNull();
    expect(codeSecret({ AUTH_SECRET: "0123456789abcdef", LOCAL_STACK: "1" })).toBe("0123456789abcdef");
  });
  it("a __Host- session cookie everywhere but a local stack", () => {
    expect(sessionCookieName({})).toBe("__Host-baton_session");
    expect(sessionCookieName({ LOCAL_STACK: "1" })).toBe("baton_session");
    expect(isLocalStack({ LOCAL_STACK: "0" })).toBe(false);
  });
});

describe("the dev identity", () => {
  it("answers nobody on a server the local stack did not start, even for a loopback Host", async () => {
    const { resolveIdentity } = await import("./identity");
    const env = { AUTH_MODE: "dev" } as unknown as import("../env").Env;
    expect(await resolveIdentity(env, new Request("http://localhost:8787/api/me"))).toBeNull();
    expect(await resolveIdentity(env, new Request("http://127.0.0.1/api/me"))).toBeNull();
  });
});
