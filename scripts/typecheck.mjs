// Type checks every TypeScript project (`npm run typecheck`): one `tsc -p` per project, as many at once as
// the machine has cores. Prints each failing project's errors; exits 1 if any failed. `npm test` runs the same
// list (scripts/test.mjs) beside the tests, one at a time and single-threaded.
//
// The checker is TypeScript 7 (the native compiler, devDependency `typescript-7`): the same checks as 5.9 on these
// projects at a third of the CPU (measured: 97 → 32 CPU-s for the seven, 17 single-threaded). `typescript` 5.9
// stays for the compiler API that test/build/import-cycles.test.ts reads imports with, and for editors.
import { spawn } from "node:child_process";
import { availableParallelism, getPriority, setPriority } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** TypeScript 7's `tsc` (a Node shim that runs the native binary). */
export const TSC = join(ROOT, "node_modules", "typescript-7", "bin", "tsc");

/** Every tsconfig the repository type checks (the root one is only the editor's). */
export const TS_PROJECTS = ["worker", "client", "client/tsconfig.sw.json", "daemon", "bench", "bench/client", "bench/peers"];

/**
 * Runs `tsc -p` for each project, `parallel` at once; `niceness` lowers their priority (npm test: they use what
 * the tests leave idle); `singleThreaded`: one checker thread each (the least CPU in all, for a busy machine).
 * Resolves to the failures, each with tsc's output.
 */
export async function typecheck({ parallel = availableParallelism(), niceness = 0, singleThreaded = false } = {}) {
  const queue = [...TS_PROJECTS];
  const failed = [];
  const one = (project) =>
    new Promise((res) => {
      const child = spawn(process.execPath, [TSC, "-p", project, ...(singleThreaded ? ["--singleThreaded"] : [])], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
      if (niceness) setNiceness(child.pid, niceness);
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      child.on("error", (err) => {
        failed.push({ project, output: String(err) });
        res();
      });
      child.on("close", (code) => {
        if (code !== 0) failed.push({ project, output: out });
        res();
      });
    });
  const lane = async () => {
    for (let p = queue.shift(); p; p = queue.shift()) await one(p);
  };
  await Promise.all(Array.from({ length: Math.max(1, parallel) }, lane));
  return failed;
}

/** Lowers a child's priority by `niceness` below ours (a no-op where the OS refuses). */
export function setNiceness(pid, niceness) {
  try {
    setPriority(pid, Math.min(19, getPriority() + niceness));
  } catch {
    /* not permitted here: it runs at our priority */
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const failed = await typecheck();
  for (const f of failed) process.stderr.write(`\ntsc -p ${f.project}:\n${f.output}`);
  const s = ((Date.now() - started) / 1000).toFixed(1);
  console.log(failed.length ? `typecheck: ${failed.length} of ${TS_PROJECTS.length} projects failed (${s} s)` : `typecheck: ${TS_PROJECTS.length} projects clean (${s} s)`);
  process.exitCode = failed.length ? 1 : 0;
}
