import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_TUNNEL_FRAME_BYTES } from "../../shared/limits";
import { DaemonEvent } from "../../shared/tunnel-protocol";
import { chunkText, parseDemoScript } from "../../daemon/demo-agent/demo-script";
import { configAfterSetOption, configAfterUpdate, initialAgentConfig } from "../../daemon/src/agent/agent-config";
import { detectAgents, type CustomAgent } from "../../daemon/src/agent/agent-presets";
import { backoffDelay } from "../../daemon/src/tunnel/backoff";
import { UsageError, parseCli } from "../../daemon/src/cli/cli-args";
import { fitEvent } from "../../daemon/src/tunnel/frame-fit";
import { redact } from "../../daemon/src/log";
import { useTmpDirs } from "./host-harness";

const tempDir = useTmpDirs();

function fakeBin(dir: string, name: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  return p;
}

describe("agent presets", () => {
  it("advertises only agents found on the machine (PATH, local packages) plus the demo", () => {
    const bin = tempDir("baton-bin-");
    const cwd = tempDir("baton-cwd-");
    const gemini = fakeBin(bin, "gemini");
    fakeBin(bin, "opencode");
    // a locally installed npx package (no network involved)
    const pkgDir = path.join(cwd, "node_modules", "pi-acp");
    fs.mkdirSync(path.join(pkgDir, "dist"), { recursive: true });
    fs.writeFileSync(path.join(pkgDir, "package.json"), JSON.stringify({ name: "pi-acp", bin: { "pi-acp": "dist/cli.js" } }));
    fs.writeFileSync(path.join(pkgDir, "dist", "cli.js"), "");
    const env = { PATH: bin, HOME: cwd };
    const agents = detectAgents({ env, cwd });
    expect(agents.map((a) => a.info.id).sort()).toEqual(["demo", "gemini", "opencode", "pi"]);
    expect(agents.find((a) => a.info.id === "gemini")!.launch).toEqual({ command: gemini, args: ["--acp"] });
    expect(agents.find((a) => a.info.id === "pi")!.launch).toEqual({ command: process.execPath, args: [path.join(pkgDir, "dist", "cli.js")] });
    expect(agents.find((a) => a.info.id === "opencode")!.launch.args).toEqual(["acp"]);
  });

  it("custom agents from the config, --agent filter, DEMO_STEERING=0 reflected in the demo's capabilities", () => {
    const bin = tempDir("baton-bin-");
    const mine = fakeBin(bin, "my-agent");
    const env = { PATH: bin, HOME: bin, DEMO_STEERING: "0" };
    const custom: CustomAgent[] = [
      { id: "mine", label: "Mine", command: "my-agent", args: ["--acp"], env: { A: "1" } },
      { id: "ghost", command: "not-installed", args: [], env: {} },
    ];
    const all = detectAgents({ env, cwd: bin, custom });
    expect(all.map((a) => a.info.id)).toEqual(["demo", "mine"]);
    expect(all[1]!.launch).toEqual({ command: mine, args: ["--acp"], env: { A: "1" } });
    expect(all[0]!.info.capabilities.steering).toBe(false);
    expect(detectAgents({ env, cwd: bin, custom, only: ["mine"] }).map((a) => a.info.id)).toEqual(["mine"]);
  });

  it("a custom agent with a preset's id replaces the preset and keeps its label and capabilities", () => {
    const bin = tempDir("baton-bin-");
    fakeBin(bin, "gemini");
    const pinned = fakeBin(bin, "pinned-gemini");
    const env = { PATH: bin, HOME: bin };
    const custom: CustomAgent[] = [{ id: "gemini", command: pinned, args: ["--acp", "--fake-responses-non-strict", "/f.jsonl"], env: { GEMINI_API_KEY: "dummy" } }];
    const agents = detectAgents({ env, cwd: bin, custom });
    const gemini = agents.filter((a) => a.info.id === "gemini");
    expect(gemini).toHaveLength(1);
    expect(gemini[0]!.launch).toEqual({ command: pinned, args: ["--acp", "--fake-responses-non-strict", "/f.jsonl"], env: { GEMINI_API_KEY: "dummy" } });
    expect(gemini[0]!.info).toMatchObject({ label: "Gemini CLI", capabilities: { loadSession: true, modes: true, configOptions: false, steering: false } });
    const relabelled = detectAgents({ env, cwd: bin, custom: [{ ...custom[0]!, label: "Gemini (pinned)", capabilities: { images: false } }] });
    expect(relabelled.find((a) => a.info.id === "gemini")!.info).toMatchObject({ label: "Gemini (pinned)", capabilities: { loadSession: true, images: false } });
  });
});

describe("cli args", () => {
  const cwd = "/work";
  const noConfig = { BATON_CONFIG: "", XDG_CONFIG_HOME: "/nonexistent-config-home" };

  it("flags beat env beat config file; roots resolved; --agent repeatable", () => {
    const cfgDir = tempDir("baton-cfg-");
    const file = path.join(cfgDir, "c.json");
    fs.writeFileSync(file, JSON.stringify({ server: "https://file.example", token: "file-token", roots: ["/r1"], budget: 2, agents: [{ id: "x", command: "x" }] }));
    const fromFile = parseCli(["daemon", "--config", file], noConfig, cwd);
    expect(fromFile).toMatchObject({ kind: "daemon", options: { server: "https://file.example", token: "file-token", roots: ["/r1"], budget: 2 } });
    const fromEnv = parseCli(["daemon", "--config", file], { ...noConfig, BATON_SERVER: "https://env.example", BATON_ROOTS: `/a${path.delimiter}b` }, cwd);
    expect(fromEnv).toMatchObject({ options: { server: "https://env.example", roots: ["/a", "/work/b"] } });
    const fromFlags = parseCli(["daemon", "--config", file, "--server=http://localhost:8787", "--root", "x", "--agent", "demo", "--agent", "claude,codex"], noConfig, cwd);
    expect(fromFlags).toMatchObject({ options: { server: "http://localhost:8787", roots: ["/work/x"], agents: ["demo", "claude", "codex"] } });
    // learnt capabilities live in the cache folder (the old file beside the config is moved from) unless the env says otherwise
    expect(fromFile).toMatchObject({ options: { capabilitiesFile: path.join(os.homedir(), ".cache", "baton", "agent-capabilities.json"), legacyCapabilitiesFile: path.join(cfgDir, "agent-capabilities.json") } });
    expect(parseCli(["daemon", "--config", file], { ...noConfig, BATON_CAPABILITIES_FILE: "caps.json" }, cwd)).toMatchObject({
      options: { capabilitiesFile: "/work/caps.json" },
    });
  });

  it("help, version, and clear usage errors", () => {
    expect(parseCli([], noConfig, cwd)).toEqual({ kind: "help" });
    expect(parseCli(["daemon", "--help"], noConfig, cwd)).toEqual({ kind: "help", command: "daemon" });
    expect(parseCli(["--version"], noConfig, cwd)).toEqual({ kind: "version" });
    expect(() => parseCli(["daemon"], noConfig, cwd)).toThrow(/no server/);
    expect(() => parseCli(["daemon", "--server", "http://x"], noConfig, cwd)).toThrow(/no token/);
    // The token never goes over plain http to another machine unless the user says so.
    const tok = { ...noConfig, BATON_TOKEN: "bt_x" };
    expect(() => parseCli(["daemon", "--server", "http://baton.example.com"], tok, cwd)).toThrow(/refusing to send the machine token/);
    expect(parseCli(["daemon", "--server", "http://baton.example.com", "--allow-insecure-http"], tok, cwd)).toMatchObject({ kind: "daemon" });
    expect(parseCli(["daemon", "--server", "http://baton.example.com"], { ...tok, BATON_ALLOW_INSECURE_HTTP: "1" }, cwd)).toMatchObject({ kind: "daemon" });
    expect(() => parseCli(["daemon", "--bogus"], noConfig, cwd)).toThrow(UsageError);
    expect(() => parseCli(["daemon", "--server"], noConfig, cwd)).toThrow(/needs a value/);
    expect(() => parseCli(["fly"], noConfig, cwd)).toThrow(/unknown command/);
    const cfgDir = tempDir("baton-cfg-");
    fs.writeFileSync(path.join(cfgDir, "bad.json"), "{ nope");
    expect(() => parseCli(["daemon", "--config", path.join(cfgDir, "bad.json")], noConfig, cwd)).toThrow(/not valid JSON/);
    fs.writeFileSync(path.join(cfgDir, "bad2.json"), JSON.stringify({ roots: "not-a-list" }));
    expect(() => parseCli(["daemon", "--config", path.join(cfgDir, "bad2.json")], noConfig, cwd)).toThrow(/roots/);
  });
});

describe("small pieces", () => {
  it("backoff: first retry under a second, capped at ~15 s, jittered", () => {
    expect(backoffDelay(0, undefined, () => 1)).toBeLessThanOrEqual(1000);
    expect(backoffDelay(0, undefined, () => 0)).toBeGreaterThan(0);
    expect(backoffDelay(50, undefined, () => 1)).toBe(15_000);
    expect(backoffDelay(50, undefined, () => 0)).toBe(7_500);
  });

  it("redacts secrets from log lines", () => {
    expect(redact("token=abcd1234 again abcd1234", ["abcd1234"])).toBe("token=‹redacted› again ‹redacted›");
  });

  it("fitEvent trims oversized updates so the frame fits the tunnel limit, and leaves small ones alone", () => {
    const small: DaemonEvent = { t: "session.update", sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } } };
    expect(fitEvent(small)).toBe(small);
    const big = "x".repeat(MAX_TUNNEL_FRAME_BYTES + 10);
    for (const update of [
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: big } },
      { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", content: [{ type: "content", content: { type: "text", text: big } }] },
      { sessionUpdate: "_whatever", blob: big },
    ]) {
      const fitted = fitEvent({ t: "session.update", sessionId: "s", update });
      expect(JSON.stringify(fitted).length).toBeLessThan(MAX_TUNNEL_FRAME_BYTES);
      expect(DaemonEvent.safeParse(fitted).success).toBe(true);
      if (fitted.t === "session.update" && update.sessionUpdate === "tool_call_update") expect(fitted.update).toMatchObject({ toolCallId: "t1", status: "completed" });
    }
  });

  it("agent config: derived from initialize + session result, kept current by updates", () => {
    const init = { agentCapabilities: { promptCapabilities: { image: true }, _meta: { steering: { supported: true } } } };
    const session = {
      sessionId: "a",
      modes: { currentModeId: "code", availableModes: [{ id: "code", name: "Code" }] },
      models: { currentModelId: "m1", availableModels: [{ modelId: "m1", name: "M1" }] },
      configOptions: [{ id: "model", currentValue: "x" }, "junk"],
    };
    const c = initialAgentConfig(init, session);
    expect(c).toMatchObject({ steering: true, images: true, modes: { currentModeId: "code" }, models: { currentModelId: "m1" } });
    expect(c.configOptions).toEqual([{ id: "model", currentValue: "x" }]);
    expect(initialAgentConfig({}, { modes: "garbage" })).toEqual({ modes: null, models: null, configOptions: [], steering: false, images: false, embeddedContext: false, imageLimits: null, authMethods: [] });
    expect(configAfterUpdate(c, { sessionUpdate: "current_mode_update", currentModeId: "ask" })?.modes?.currentModeId).toBe("ask");
    expect(configAfterUpdate(c, { sessionUpdate: "agent_message_chunk" })).toBeNull();
    expect(configAfterSetOption(c, {}, "model", "y").configOptions).toEqual([{ id: "model", currentValue: "y" }]);
  });

  it("demo script parsing and lossless chunking", () => {
    expect(parseDemoScript("sleep 30")).toEqual({ kind: "sleep", units: 30 });
    expect(parseDemoScript("write notes.md hello there")).toEqual({ kind: "write", file: "notes.md", text: "hello there" });
    expect(parseDemoScript("write ../x.md hi")).toEqual({ kind: "markdown" });
    expect(parseDemoScript("write .env hi")).toEqual({ kind: "markdown" });
    expect(parseDemoScript("  Sleep")).toEqual({ kind: "sleep", units: 5 });
    expect(parseDemoScript("ASK me")).toEqual({ kind: "elicit" });
    for (const k of ["terminal", "warning", "fence", "blind"]) expect(parseDemoScript(`${k} now`)).toEqual({ kind: k });
    expect(parseDemoScript("burst 10")).toEqual({ kind: "burst", count: 10 });
    expect(parseDemoScript("config")).toEqual({ kind: "config", units: 0 });
    expect(parseDemoScript("hello")).toEqual({ kind: "markdown" });
    for (const t of ["", "  ", "a", "## x\n\n- y  z\n```ts\ncode\n```\n", " lead and trail  "]) expect(chunkText(t).join("")).toBe(t);
  });
});
