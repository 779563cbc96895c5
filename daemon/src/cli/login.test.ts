import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TUNNEL_PROTOCOL_VERSION } from "../../../shared/protocol-version";
import { login, serverBase } from "./login";

const request = { hostname: "box", os: "Linux", agents: [], daemonVersion: "0.1.0", protocolVersion: TUNNEL_PROTOCOL_VERSION };
const codeBody = { deviceCode: "bd_secret", userCode: "ACDE-FGHJ", verificationUri: "http://s/machines/approve", verificationUriComplete: "http://s/machines/approve?code=ACDE-FGHJ", expiresIn: 600, interval: 5 };
const err = (code: string, extra: object = {}) => ({ status: 400, body: { error: { code, message: code, ...extra } } });

/** A scripted server: the code request, then one answer per poll. */
function server(polls: { status: number; body: unknown }[]) {
  const seen: { url: string; body: unknown }[] = [];
  const fetchFn = (async (url: string, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body ?? "null"));
    seen.push({ url, body });
    const r = url.endsWith("/api/device/code") ? { status: 201, body: codeBody } : polls.shift()!;
    return new Response(JSON.stringify(r.body), { status: r.status });
  }) as typeof fetch;
  return { fetchFn, seen };
}

function run(polls: { status: number; body: unknown }[], req: Parameters<typeof login>[2] = request, configFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "baton-login-")), "config.json")) {
  const s = server(polls);
  const sleeps: number[] = [];
  const lines: string[] = [];
  const result = login("http://127.0.0.1:9/", configFile, req, { fetch: s.fetchFn, sleep: async (ms) => void sleeps.push(ms), say: (l) => lines.push(l) });
  return { result, configFile, sleeps, lines, seen: s.seen };
}

describe("baton login (client side)", () => {
  it("--user: asks for a user sign-in, keeps the machine's token, stores the user token under the server", async () => {
    const first = run([{ status: 200, body: { token: "bt_machine", machine: { id: "m1", name: "box" } } }]);
    await first.result;
    const t = run([{ status: 200, body: { token: "bu_me", user: { id: "u1", name: "Ann", email: "ann@example.com" } } }], { ...request, kind: "user" }, first.configFile);
    expect(await t.result).toEqual({ ok: true, user: { id: "u1", name: "Ann", email: "ann@example.com" }, configFile: first.configFile });
    expect(t.seen[0]!.body).toMatchObject({ kind: "user" });
    expect(t.lines.join("\n")).toContain("as yourself");
    expect(JSON.parse(fs.readFileSync(first.configFile, "utf8"))).toEqual({ server: "http://127.0.0.1:9", token: "bt_machine", userTokens: { "http://127.0.0.1:9": "bu_me" } });
    expect(fs.statSync(first.configFile).mode & 0o777).toBe(0o600);
  });

  it("prints the link and code, waits the interval, slows down when told, stores server + token 0600", async () => {
    const t = run([err("authorization_pending"), err("slow_down", { interval: 10 }), err("authorization_pending"), { status: 200, body: { token: "bt_tok", machine: { id: "m1", name: "box" } } }]);
    const r = await t.result;
    expect(r).toEqual({ ok: true, machine: { id: "m1", name: "box" }, configFile: t.configFile });
    expect(t.lines.join("\n")).toContain("http://s/machines/approve?code=ACDE-FGHJ");
    expect(t.lines.join("\n")).toContain("ACDE-FGHJ");
    expect(t.sleeps).toEqual([5000, 5000, 10_000, 10_000]);
    // Only the device code goes back to the server, never the user code.
    expect(t.seen.slice(1).map((s) => s.body)).toEqual(Array(4).fill({ deviceCode: "bd_secret" }));
    expect(t.seen[0]!.url).toBe("http://127.0.0.1:9/api/device/code");
    expect(JSON.parse(fs.readFileSync(t.configFile, "utf8"))).toEqual({ server: "http://127.0.0.1:9", token: "bt_tok" });
    expect(fs.statSync(t.configFile).mode & 0o777).toBe(0o600);
  });

  it("denied, expired and reused codes end with a clear message and store nothing", async () => {
    for (const [answer, message] of [
      [err("access_denied"), /denied in the browser/],
      [err("expired_token"), /expired before it was approved; run `baton login http:\/\/127\.0\.0\.1:9` again/],
      [err("invalid_grant"), /refused the code/],
    ] as const) {
      const t = run([answer]);
      const r = await t.result;
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(message);
      expect(fs.existsSync(t.configFile)).toBe(false);
    }
  });

  it("an unreachable server or a non-Baton one says so", async () => {
    const down = (async () => {
      throw new TypeError("fetch failed");
    }) as typeof fetch;
    const r = await login("http://127.0.0.1:9", "/nonexistent/config.json", request, { fetch: down, say: () => {} });
    expect(r).toEqual({ ok: false, message: "cannot reach http://127.0.0.1:9: fetch failed" });
    const notBaton = (async () => new Response("not found", { status: 404 })) as typeof fetch;
    const r2 = await login("http://127.0.0.1:9", "/nonexistent/config.json", request, { fetch: notBaton, say: () => {} });
    expect(r2.ok || r2.message).toMatch(/does not offer `baton login`/);
  });

  it("normalises the server URL", () => {
    expect(serverBase("baton.example.com")).toBe("https://baton.example.com");
    expect(serverBase("https://baton.example.com/team/")).toBe("https://baton.example.com/team");
    expect(() => serverBase("ftp://x")).toThrow(/http/);
  });
});
