import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TUNNEL_PROTOCOL_VERSION } from "../../../shared/protocol-version";
import { demoLaunch } from "../agent/agent-presets";
import { probeAgent } from "../agent/agent-probe";
import { configCheck, formatChecks, nodeCheck, runDoctor } from "./doctor";

describe("baton doctor", () => {
  it("Node: 20 and newer pass, older fail with the fix", () => {
    expect(nodeCheck("20.20.2").ok).toBe(true);
    expect(nodeCheck("22.23.3").ok).toBe(true);
    const old = nodeCheck("18.19.0");
    expect(old.ok).toBe(false);
    expect(old.fix).toMatch(/Node 20/);
  });

  it("a config file others can read is a problem, with chmod as the fix", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "baton-doc-"));
    const file = path.join(dir, "config.json");
    expect(configCheck(file).ok).toBe(true);
    fs.writeFileSync(file, "{}");
    fs.chmodSync(file, 0o644);
    expect(configCheck(file)).toMatchObject({ ok: false, fix: `chmod 600 ${file}` });
    fs.chmodSync(file, 0o600);
    expect(configCheck(file).ok).toBe(true);
    fs.rmSync(dir, { recursive: true });
  });

  it("probes the real demo agent's initialize for its version and auth methods", async () => {
    const r = await probeAgent(demoLaunch(), os.tmpdir());
    expect(r).toMatchObject({ ok: true, name: "Baton demo agent", version: expect.any(String) });
  });

  it("an agent that cannot start is reported with how to install it", async () => {
    const r = await probeAgent({ command: process.execPath, args: ["-e", "console.error('no credentials'); process.exit(3)"] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/code 3.*no credentials/);
  });

  it("never sends the machine token over plain http off loopback (as daemon and login refuse to); the health probe still runs", async () => {
    const sent: { path: string; headers: string }[] = [];
    const fetchFn = (async (url: string, init?: RequestInit) => {
      const headers: string[] = [];
      new Headers(init?.headers).forEach((v) => headers.push(v));
      sent.push({ path: new URL(url).pathname, headers: headers.join("\n") });
      return new Response("{}", { status: 200 });
    }) as typeof fetch;
    const checks = await runDoctor({ server: "http://baton.example.com", token: "bt_secret", roots: [os.tmpdir()] }, "/nonexistent/baton.json", { fetch: fetchFn, agents: [] });
    expect(sent.map((s) => s.path)).toEqual(["/api/health"]);
    expect(sent.some((s) => s.headers.includes("bt_secret"))).toBe(false);
    expect(checks.find((c) => c.name === "token")).toMatchObject({ ok: false, detail: expect.stringContaining("refusing to send the machine token over plain http") });

    // Explicitly allowed (a trusted network): checked as usual.
    sent.length = 0;
    await runDoctor({ server: "http://baton.example.com", token: "bt_secret", roots: [os.tmpdir()], allowInsecureHttp: true }, "/nonexistent/baton.json", { fetch: fetchFn, agents: [] });
    expect(sent.map((s) => s.path)).toEqual(["/api/health", "/api/tunnel/check"]);
  });

  it("server down, token revoked, missing roots: each with its fix", async () => {
    const answers: Record<string, Response> = {
      "/api/health": new Response("{}", { status: 200 }),
      "/api/tunnel/check": new Response(JSON.stringify({ error: { code: "BAD_TOKEN" } }), { status: 401 }),
    };
    const fetchFn = (async (url: string) => answers[new URL(url).pathname]!) as typeof fetch;
    const checks = await runDoctor({ server: "http://127.0.0.1:9", token: "bt_old", roots: ["/definitely/not/here"] }, "/nonexistent/baton.json", {
      fetch: fetchFn,
      agents: [],
      probe: async () => ({ ok: true, name: null, version: null, authMethods: [] }),
    });
    const by = Object.fromEntries(checks.map((c) => [c.name, c]));
    expect(by.server).toMatchObject({ ok: true });
    expect(by.token).toMatchObject({ ok: false, fix: "baton login http://127.0.0.1:9" });
    expect(by.roots).toMatchObject({ ok: false });
    expect(by.agents).toMatchObject({ ok: false });
    expect(formatChecks(checks)).toContain("✗ token");

    const down = (async () => {
      throw new TypeError("fetch failed");
    }) as typeof fetch;
    const offline = await runDoctor({ server: "http://127.0.0.1:9", token: "t", roots: [os.tmpdir()] }, "/nonexistent/baton.json", { fetch: down, agents: [] });
    expect(offline.find((c) => c.name === "server")).toMatchObject({ ok: false, detail: expect.stringContaining("fetch failed") });
    expect(offline.some((c) => c.name === "token")).toBe(false);

    answers["/api/tunnel/check"] = new Response(JSON.stringify({ machine: { name: "box" }, protocolVersion: TUNNEL_PROTOCOL_VERSION, minProtocolVersion: TUNNEL_PROTOCOL_VERSION + 1 }), { status: 200 });
    answers["/api/health"] = new Response("{}", { status: 200 });
    const stale = await runDoctor({ server: "http://127.0.0.1:9", token: "t", roots: [os.tmpdir()] }, "/nonexistent/baton.json", { fetch: fetchFn, agents: [] });
    expect(stale.find((c) => c.name === "token")).toMatchObject({ ok: false, fix: "npm i -g baton-acp" });
  });
});
