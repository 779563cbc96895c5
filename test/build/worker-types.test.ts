/** The Worker's binding types are wrangler's own (`npm run types`), generated from wrangler.jsonc and kept current (issue 32 #7). */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..", "..");
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
/** wrangler starts slowly on a loaded 2-core machine. */
const WRANGLER_MS = 60_000;

describe("worker/worker-configuration.d.ts", () => {
  it("is what `npm run types` (wrangler types) makes of wrangler.jsonc today", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    const [tool, ...args] = pkg.scripts.types!.split(/\s+/);
    expect(tool).toBe("wrangler");
    expect(args[0]).toBe("types");
    const r = spawnSync(process.execPath, [WRANGLER, ...args, "--check"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" } });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain("up to date");
  }, WRANGLER_MS);

  it("declares the bindings worker/env.ts builds on", () => {
    const generated = readFileSync(join(ROOT, "worker", "worker-configuration.d.ts"), "utf8");
    for (const binding of ["DB: D1Database", "AUTH_MODE: string", "SESSION_ROOM: DurableObjectNamespace", "MACHINE: DurableObjectNamespace", "SESSION_FEED: DurableObjectNamespace"]) expect(generated).toContain(binding);
    expect(readFileSync(join(ROOT, "worker", "env.ts"), "utf8")).toMatch(/export interface Env extends WranglerEnv \{/);
  });
});
