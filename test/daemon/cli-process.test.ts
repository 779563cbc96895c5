/**
 * The real `baton` CLI as a process: usage errors exit 2 with a clear line, help per command, and the
 * systemd lingering advice from `service install` and `doctor`, read from a fake `loginctl` (a real
 * executable on PATH in a temp dir).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { useTmpDirs } from "./host-harness";
import { BATON_BIN } from "../../scripts/baton-bin.mjs";

const BIN = BATON_BIN;
const tempDir = useTmpDirs();

async function baton(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, BATON_CONFIG: "", BATON_SERVER: "", BATON_TOKEN: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += String(d)));
  child.stderr.on("data", (d) => (stderr += String(d)));
  const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
  return { code, stdout, stderr };
}

/** A `loginctl` that answers `show-user … --property=Linger --value` with `linger` and logs its argv. */
function fakeLoginctl(linger: "yes" | "no"): { bin: string; calls: string } {
  const bin = tempDir("baton-fakebin-");
  const calls = path.join(bin, "calls.log");
  fs.writeFileSync(path.join(bin, "loginctl"), `#!/bin/sh\necho "$@" >> "${calls}"\necho ${linger}\n`, { mode: 0o755 });
  return { bin, calls };
}

describe("baton CLI (spawned): usage", () => {
  it("an unknown flag exits 2 with one clear line and the command's usage", async () => {
    const r = await baton(["daemon", "--bogus"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^baton: unknown option --bogus\n/);
    expect(r.stderr).toContain("Usage: baton daemon");
    expect(r.stdout).toBe("");
  });

  it("a flag without its value exits 2", async () => {
    const r = await baton(["service", "install", "--root"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^baton: --root needs a value\n/);
    expect(r.stderr).toContain("Usage: baton service");
  });

  it("`baton <command> --help` prints that command's help and exits 0", async () => {
    const r = await baton(["doctor", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: baton doctor/);
    expect(r.stdout).not.toContain("--dry-run");
  });
});

describe.skipIf(process.platform !== "linux")("baton CLI (spawned): systemd lingering", () => {
  it("service install says when `loginctl enable-linger` is needed, and not when lingering is on", async () => {
    const home = tempDir("baton-home-");
    const off = fakeLoginctl("no");
    const r = await baton(["service", "install", "--dry-run", "--root", home], { HOME: home, PATH: `${off.bin}${path.delimiter}${process.env.PATH}` });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("loginctl enable-linger");
    expect(r.stdout).toMatch(/only while you are logged in/);
    expect(fs.readFileSync(off.calls, "utf8")).toMatch(/^show-user \S+ --property=Linger --value$/m);
    expect(r.stdout).not.toContain("network-online");

    const on = fakeLoginctl("yes");
    const r2 = await baton(["service", "install", "--dry-run", "--root", home], { HOME: home, PATH: `${on.bin}${path.delimiter}${process.env.PATH}` });
    expect(r2.code).toBe(0);
    expect(r2.stdout).not.toContain("enable-linger");
    expect(r2.stdout).toMatch(/lingering is on/);
  });

  it("doctor warns about an installed unit without lingering, with the fix", async () => {
    const home = tempDir("baton-home-");
    fs.mkdirSync(path.join(home, ".config", "systemd", "user"), { recursive: true });
    fs.writeFileSync(path.join(home, ".config", "systemd", "user", "baton.service"), "[Unit]\n");
    const off = fakeLoginctl("no");
    const r = await baton(["doctor", "--agent", "demo", "--root", home], { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), PATH: `${off.bin}${path.delimiter}${process.env.PATH}` });
    expect(r.stdout).toMatch(/^! service\s+.*only while you are logged in/m);
    expect(r.stdout).toMatch(/fix: loginctl enable-linger \S+/);

    const on = fakeLoginctl("yes");
    const r2 = await baton(["doctor", "--agent", "demo", "--root", home], { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), PATH: `${on.bin}${path.delimiter}${process.env.PATH}` });
    expect(r2.stdout).toMatch(/^✓ service\s+.*lingering is on/m);
  });
});
