// `npm test`: the type checks and every vitest project, arranged so a 2-core machine stays busy. The projects
// that wait on real processes take most of the time and little CPU: e2e (the local stack and Chromium), agents
// (Claude Code and Codex against the fake model) and daemon (the demo agent, git and the CLI as processes) run as
// three vitest runs side by side; the CPU-bound projects (unit, client, the workerd ones) run in a fourth beside
// them, a step lower in priority, and the type checks beside all four at that same priority. Each vitest prints one
// line per finished file and writes a blob report; their merge prints the full report once (errors, console
// output, the slowest ten files, then the summary with "Tests N passed"). Extra arguments go to every vitest
// run (`npm test -- -t pattern`). First, the pinned Gemini CLI goes into the agents' cache if it is not there
// (the unit and e2e runs both drive it; installed once here, not by two runs at the same time).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumProblem } from "./chromium-check.mjs";
import { installAgent } from "./install-agents.mjs";
import { setNiceness, TS_PROJECTS, typecheck } from "./typecheck.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const VITEST = join(ROOT, "node_modules", "vitest", "vitest.mjs");

/** e2e files run side by side (each on its own stack or the shared one, in its own Chromium contexts). */
const E2E_FILES_AT_ONCE = 2;
/** The vitest runs: the waiting projects at our priority, the CPU-bound ones just below (the e2e timing checks keep their headroom). */
const RUNS = [
  // Two e2e files at a time: each spends most of its time waiting on its stack and Chromium, and one at a time
  // the e2e run was the whole suite's tail (≈ 940 s of files on 2 cores). vitest starts the slowest known first.
  { name: "e2e", projects: ["e2e"], niceness: 0, args: [`--maxWorkers=${E2E_FILES_AT_ONCE}`, "--fileParallelism"] },
  // Real agents (Claude Code, Codex) through their own stack and Chromium: they wait on the agents more than they
  // compute and end minutes before e2e (490 vs 624 s), so a step below it, as the CPU-bound run, for the e2e checks'
  // headroom. (Not for the wall time: the machine is busy throughout, and the same run took 10:35 and 10:36.)
  { name: "agents", projects: ["agents"], niceness: 2, args: [] },
  // The daemon against real processes: waiting more than computing, so beside the CPU-bound queue, not in it.
  { name: "daemon", projects: ["daemon"], niceness: 0, args: [] },
  // One file at a time (vitest's default on 2 cores): two made the workerd reliability scenarios (200 viewers, floods)
  // miss their bounds and saved a minute at most (16:38 vs 17:43 wall).
  { name: "cpu", projects: ["unit", "client", "worker", "worker-access", "worker-builtin", "worker-push"], niceness: 3, args: [] },
];
/** The type checks share with the CPU-bound run (lower, they became the tail on a loaded machine). */
const TYPECHECK_NICENESS = 3;

// The one system prerequisite, checked before anything starts: without it every browser test fails alike.
const missing = chromiumProblem();
if (missing) {
  console.error(missing);
  process.exit(1);
}

const extra = process.argv.slice(2);
/** A filter (`npm test -- some.test.ts`) may leave one of the runs without files: that is not a failure. */
const filtered = extra.length ? ["--passWithNoTests"] : [];
const blobs = mkdtempSync(join(tmpdir(), "baton-test-reports-"));

function run(args, niceness = 0) {
  return new Promise((res) => {
    const child = spawn(process.execPath, [VITEST, ...args], { cwd: ROOT, stdio: "inherit" });
    if (niceness) setNiceness(child.pid, niceness);
    child.on("error", (err) => {
      console.error(err);
      res(1);
    });
    child.on("close", (code, signal) => res(code ?? (signal ? 1 : 0)));
  });
}

/**
 * The daemon CLI and the demo agent bundled once for the run (build-daemon.mjs --out): every daemon and demo agent
 * the tests spawn then starts on plain Node instead of compiling its sources through tsx (≈ 0.4 s of CPU each, and
 * seconds of wall clock on a loaded machine). The runs inherit where they are.
 */
function buildDaemonBundle(dir) {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [join(ROOT, "scripts", "build-daemon.mjs"), "--out", dir], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    child.on("error", rej);
    child.on("close", (code) => (code === 0 ? res() : rej(new Error(`build-daemon.mjs exited ${code}`))));
  });
}

/**
 * Node's on-disk compile cache (the V8 code of every module a Node process loads), for every process the run starts:
 * vitest's workers, wrangler, the daemons, the demo agents, the Node-based agents. Measured alone, ≈ 10 % of their
 * CPU (unit + client + worker-builtin 49 → 44.5 CPU-s, daemon 27.5 → 23.5). In node_modules/.cache: kept between
 * runs here, gone with `npm ci`.
 */
process.env.NODE_COMPILE_CACHE ??= join(ROOT, "node_modules", ".cache", "node-compile-cache");

const started = Date.now();
const bundle = mkdtempSync(join(tmpdir(), "baton-test-daemon-"));
await buildDaemonBundle(bundle);
process.env.BATON_DAEMON_BIN = join(bundle, "baton.mjs");
process.env.BATON_DEMO_AGENT = join(bundle, "demo-agent.mjs");
// A failed install is not the end of the run: the files that need the CLI try again and fail with npm's reason.
await installAgent("gemini").catch((err) => console.error(`[agents] gemini: ${err instanceof Error ? err.message : err}`));
const checking = typecheck({ parallel: 1, niceness: TYPECHECK_NICENESS, singleThreaded: true });
const codes = await Promise.all(
  RUNS.map(({ name, projects, niceness, args }) =>
    run(["run", ...projects.flatMap((p) => ["--project", p]), ...args, "--reporter=./test/progress-reporter.ts", "--reporter=blob", `--outputFile.blob=${join(blobs, `${name}.json`)}`, ...filtered, ...extra], niceness),
  ),
);
const failedChecks = await checking;
for (const f of failedChecks) process.stderr.write(`\ntsc -p ${f.project}:\n${f.output}`);
console.log(`\ntypecheck: ${failedChecks.length ? `${failedChecks.length} of ${TS_PROJECTS.length} projects FAILED` : `${TS_PROJECTS.length} projects clean`}`);
console.log(`tests and type checks ran in ${((Date.now() - started) / 1000).toFixed(0)} s; the report:`);
const merged = await run(["--merge-reports", blobs, "--reporter=./test/slowest-files-reporter.ts", "--reporter=default"]);
rmSync(blobs, { recursive: true, force: true });
rmSync(bundle, { recursive: true, force: true });
process.exitCode = failedChecks.length || merged || codes.some((c) => c !== 0) ? 1 : 0;
