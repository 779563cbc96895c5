/**
 * `makeOnce` (scripts/dev-stack.mjs): the stacks a clean clone's `npm test` starts at once — in several processes —
 * build the client and migrate the template D1 once between them, not once each (each migration is a whole
 * wrangler + workerd, ≈ 13 s of CPU).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, expect, it } from "vitest";

const DEV_STACK = resolve(import.meta.dirname, "..", "..", "scripts", "dev-stack.mjs");
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A process that asks for the thing: its `make` takes 400 ms (blocking, as a build does) and writes it. */
const CALLER = `
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { makeOnce } from ${JSON.stringify(DEV_STACK)};
const [dir] = process.argv.slice(1);
await makeOnce(dir + "/thing.lock", () => existsSync(dir + "/thing"), () => {
  appendFileSync(dir + "/made-by", process.pid + "\\n");
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
  writeFileSync(dir + "/thing", "x");
});
if (!existsSync(dir + "/thing")) process.exit(2);
`;

function caller(dir: string): Promise<number> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", CALLER, dir], { stdio: ["ignore", "ignore", "inherit"] });
    child.on("error", rej);
    child.on("close", (code) => res(code ?? 1));
  });
}

it("four processes asking at once: one makes it, every one finds it made", async () => {
  const dir = mkdtempSync(join(tmpdir(), "baton-make-once-"));
  dirs.push(dir);
  expect(await Promise.all([caller(dir), caller(dir), caller(dir), caller(dir)])).toEqual([0, 0, 0, 0]);
  expect(readFileSync(join(dir, "made-by"), "utf8").trim().split("\n")).toHaveLength(1);
});

it("a lock left by a killed maker is taken over once it is stale", async () => {
  const dir = mkdtempSync(join(tmpdir(), "baton-make-once-"));
  dirs.push(dir);
  mkdirSync(join(dir, "thing.lock"));
  const old = new Date(Date.now() - 10 * 60_000);
  utimesSync(join(dir, "thing.lock"), old, old);
  expect(await caller(dir)).toBe(0);
  expect(readFileSync(join(dir, "made-by"), "utf8").trim().split("\n")).toHaveLength(1);
});
