/** `npm test` without Chromium (issue 32 #11): one line up front saying what is missing and how to get it. */
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { chromiumPath, chromiumProblem, DEFAULT_CHROMIUM } from "../../scripts/chromium-check.mjs";

const ROOT = resolve(import.meta.dirname, "..", "..");
/** Well past a check of one path, far short of a type check or a vitest run. */
const QUICK_MS = 10_000;

describe("the Chromium check", () => {
  const dir = mkdtempSync(join(tmpdir(), "baton-chromium-check-"));

  it("uses CHROMIUM_PATH when set, else Debian's", () => {
    expect(chromiumPath({})).toBe(DEFAULT_CHROMIUM);
    expect(chromiumPath({ CHROMIUM_PATH: "/opt/chrome/chrome" })).toBe("/opt/chrome/chrome");
  });

  it("names a missing path and both ways to fix it, in one line", () => {
    const problem = chromiumProblem({ CHROMIUM_PATH: "/nonexistent" });
    expect(problem).toContain("CHROMIUM_PATH=/nonexistent does not exist");
    expect(problem).toContain("apt-get install -y chromium");
    expect(problem).toContain("CHROMIUM_PATH=/path/to/chromium");
    expect(problem).not.toContain("\n");
  });

  it("tells a file that is not executable, and a folder, from a missing one", () => {
    const plain = join(dir, "chromium");
    writeFileSync(plain, "");
    chmodSync(plain, 0o644);
    expect(chromiumProblem({ CHROMIUM_PATH: plain })).toContain("is not executable");
    expect(chromiumProblem({ CHROMIUM_PATH: dir })).toContain("is not a file");
  });

  it("passes an executable", () => {
    const exe = join(dir, "chrome");
    writeFileSync(exe, "#!/bin/sh\n");
    chmodSync(exe, 0o755);
    expect(chromiumProblem({ CHROMIUM_PATH: exe })).toBeNull();
  });

  it("npm test with CHROMIUM_PATH=/nonexistent exits non-zero at once with that one line", async () => {
    const started = Date.now();
    const { code, out } = await new Promise<{ code: number | null; out: string }>((res) => {
      const child = spawn(process.execPath, [join(ROOT, "scripts", "test.mjs")], {
        cwd: ROOT,
        env: { ...process.env, CHROMIUM_PATH: "/nonexistent" },
        stdio: ["ignore", "pipe", "pipe"],
        // Its own process group, so a run that went on (no check) is stopped with all it started.
        detached: true,
      });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      // Before the check, this started the type checks and every vitest run: stop it rather than wait.
      const timer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), QUICK_MS);
      child.on("exit", (exit) => {
        clearTimeout(timer);
        res({ code: exit, out });
      });
    });
    expect(out.trim()).toBe(chromiumProblem({ CHROMIUM_PATH: "/nonexistent" }));
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(QUICK_MS);
  });
});
