import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseCli, UsageError } from "./cli-args";

const cwd = os.tmpdir();
const env = { HOME: "/home/ann", XDG_CONFIG_HOME: path.join(cwd, "baton-no-such-config-dir") };
const configFile = path.join(env.XDG_CONFIG_HOME, "baton", "config.json");

describe("baton login / service / doctor command lines", () => {
  it("login takes the server URL (or BATON_SERVER) and an explicit --config that does not exist yet", () => {
    expect(parseCli(["login", "https://baton.example.com"], env, cwd)).toMatchObject({ kind: "login", server: "https://baton.example.com", configFile });
    expect(parseCli(["login"], { ...env, BATON_SERVER: "https://env.example" }, cwd)).toMatchObject({ kind: "login", server: "https://env.example" });
    const fresh = path.join(cwd, "baton-fresh", "c.json");
    expect(parseCli(["login", "https://x.example", "--config", fresh], env, cwd)).toMatchObject({ kind: "login", configFile: fresh });
    expect(() => parseCli(["login"], env, cwd)).toThrow(/needs the server's URL/);
    expect(() => parseCli(["login", "a", "b"], env, cwd)).toThrow(/unexpected argument "b"/);
  });

  it("service takes install | uninstall | status, --dry-run and roots", () => {
    expect(parseCli(["service", "install", "--dry-run", "--root", "/srv"], env, cwd)).toMatchObject({ kind: "service", action: "install", dryRun: true, options: { roots: ["/srv"] } });
    expect(parseCli(["service", "status"], env, cwd)).toMatchObject({ kind: "service", action: "status", dryRun: false });
    expect(() => parseCli(["service"], env, cwd)).toThrow(UsageError);
    expect(() => parseCli(["service", "restart"], env, cwd)).toThrow(/install, uninstall, status/);
  });

  it("doctor needs nothing; daemon without a token points at baton login", () => {
    expect(parseCli(["doctor"], env, cwd)).toMatchObject({ kind: "doctor", configFile });
    expect(() => parseCli(["daemon", "--server", "https://x.example"], env, cwd)).toThrow(/baton login/);
  });
});
