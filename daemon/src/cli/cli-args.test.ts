import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseCli, usage } from "./cli-args";

const cwd = "/work";
const env = { HOME: "/home/ann", BATON_CONFIG: "", XDG_CONFIG_HOME: "/nonexistent-config-home", BATON_TOKEN: "bt_x", BATON_SERVER: "https://baton.example.com" };

describe("baton's command line (node:util parseArgs)", () => {
  it("each command has its own help: `baton <command> --help`, and the overview points at it", () => {
    expect(parseCli(["service", "--help"], env, cwd)).toEqual({ kind: "help", command: "service" });
    expect(parseCli(["daemon", "-h"], env, cwd)).toEqual({ kind: "help", command: "daemon" });
    expect(parseCli(["--help"], env, cwd)).toEqual({ kind: "help" });
    const service = usage("service");
    expect(service).toMatch(/^Usage: baton service install\|uninstall\|status/);
    expect(service).toContain("--dry-run");
    expect(service).not.toContain("--token");
    const daemon = usage("daemon");
    expect(daemon).toContain("--token TOKEN");
    expect(daemon).not.toContain("--dry-run");
    expect(usage()).toContain("baton <command> --help");
    for (const cmd of ["login", "daemon", "service", "doctor", "agents"] as const) expect(usage()).toContain(`baton ${cmd}`);
  });

  it("an unknown option, a missing value or another command's option is a clear usage error", () => {
    expect(() => parseCli(["daemon", "--bogus"], env, cwd)).toThrow(/^unknown option --bogus$/);
    expect(() => parseCli(["daemon", "-x"], env, cwd)).toThrow(/^unknown option -x$/);
    expect(() => parseCli(["daemon", "--server"], env, cwd)).toThrow(/^--server needs a value$/);
    // The next flag is not taken as the value.
    expect(() => parseCli(["daemon", "--root", "--debug"], env, cwd)).toThrow(/^--root needs a value/);
    expect(() => parseCli(["daemon", "--debug=yes"], env, cwd)).toThrow(/^--debug takes no value$/);
    expect(() => parseCli(["daemon", "--dry-run"], env, cwd)).toThrow(/^--dry-run is not an option of `baton daemon`/);
    expect(() => parseCli(["agents", "--token", "t"], env, cwd)).toThrow(/not an option of `baton agents`/);
  });

  it("every flag still works: = and space forms, repeatable --root / --agent, -- ends the options", () => {
    expect(parseCli(["daemon", "--root=/a", "--root", "b", "--agent", "demo,claude", "--agent=codex", "--debug"], env, cwd)).toMatchObject({
      kind: "daemon",
      options: { roots: ["/a", "/work/b"], agents: ["demo", "claude", "codex"], debug: true },
    });
    expect(parseCli(["service", "install", "--dry-run", "--root", "/srv"], env, cwd)).toMatchObject({ kind: "service", action: "install", dryRun: true });
    expect(parseCli(["--", "login", "https://x.example"], env, cwd)).toMatchObject({ kind: "login", server: "https://x.example" });
    expect(parseCli(["daemon", "--version"], env, cwd)).toEqual({ kind: "version" });
    expect(parseCli(["-v"], env, cwd)).toEqual({ kind: "version" });
  });

  it("learnt capabilities go to $XDG_CACHE_HOME/baton (default ~/.cache/baton); the old file beside the config is read once", () => {
    const cached = parseCli(["daemon"], { ...env, XDG_CACHE_HOME: "/var/cache/ann" }, cwd);
    expect(cached).toMatchObject({
      options: { capabilitiesFile: "/var/cache/ann/baton/agent-capabilities.json", legacyCapabilitiesFile: path.join("/nonexistent-config-home", "baton", "agent-capabilities.json") },
    });
    expect(parseCli(["daemon"], env, cwd)).toMatchObject({ options: { capabilitiesFile: "/home/ann/.cache/baton/agent-capabilities.json" } });
    // An explicit file is used as it is (nothing to migrate).
    const explicit = parseCli(["daemon"], { ...env, BATON_CAPABILITIES_FILE: "caps.json" }, cwd);
    expect(explicit).toMatchObject({ options: { capabilitiesFile: "/work/caps.json" } });
    expect(explicit.kind === "daemon" && explicit.options.legacyCapabilitiesFile).toBeFalsy();
  });
});

describe("baton attach / baton login --user", () => {
  const url = "https://baton.example.com/s/abc";
  it("attach takes the session URL, a user token from the flag or BATON_USER_TOKEN (never the machine token), and --login", () => {
    expect(parseCli(["attach", url], { ...env, BATON_USER_TOKEN: "bu_env" }, cwd)).toMatchObject({ kind: "attach", url, token: "bu_env", login: false });
    expect(parseCli(["attach", url, "--token", "bu_flag"], { ...env, BATON_USER_TOKEN: "bu_env" }, cwd)).toMatchObject({ token: "bu_flag" });
    expect(parseCli(["attach", url], env, cwd)).toMatchObject({ token: null });
    expect(parseCli(["attach", url, "--login"], env, cwd)).toMatchObject({ login: true });
    expect(usage()).toContain("baton attach SESSION_URL");
  });

  it("attach without a URL, or with the daemon's flags, is a usage error", () => {
    expect(() => parseCli(["attach"], env, cwd)).toThrow(/needs the session's URL/);
    expect(() => parseCli(["attach", url, "--root", "/x"], env, cwd)).toThrow(/--root is not an option of `baton attach`/);
    expect(() => parseCli(["daemon", "--user"], env, cwd)).toThrow(/--user is not an option of `baton daemon`/);
  });

  it("login --user asks for a user sign-in", () => {
    expect(parseCli(["login", "https://baton.example.com", "--user"], env, cwd)).toMatchObject({ kind: "login", user: true });
    expect(parseCli(["login", "https://baton.example.com"], env, cwd)).toMatchObject({ kind: "login", user: false });
  });
});
