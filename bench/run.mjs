/**
 * `npm run bench`: runs the server benchmarks (workerd, with the inspector on for heap figures) and the
 * client render benchmark (Chromium), then prints every figure as one table. Benchmarks are not part of
 * `npm test`; nothing here asserts on time. Each test prints `BENCH_ROW {json}` lines, collected here.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { installPeer, peerDir } from "../scripts/install-peers.mjs";
import { TSC } from "../scripts/typecheck.mjs";
import { compareRows } from "./compare.mjs";

const VITEST = new URL("../node_modules/vitest/vitest.mjs", import.meta.url).pathname;

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });

/** Runs vitest; resolves with its output (echoed as it comes when BENCH_VERBOSE is set). */
function vitest(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, ...args], { env: { ...process.env, ...env, FORCE_COLOR: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const take = (d) => {
      out += d;
      if (process.env.BENCH_VERBOSE) process.stderr.write(d);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(Object.assign(new Error(`vitest ${args.join(" ")} exited ${code}`), { out }))));
  });
}

const ROOT = new URL("..", import.meta.url).pathname;

/**
 * Type-checks bench/peers/ai-chat (not in `npm run typecheck`: its packages' types live in the peers
 * cache, outside the repo) with a tsconfig written into that cache, mapping the packages there.
 */
function typecheckAiChat() {
  const cache = path.join(peerDir("ai-chat"), "node_modules");
  const config = path.join(peerDir("ai-chat"), "tsconfig.bench.json");
  writeFileSync(
    config,
    JSON.stringify({
      extends: path.join(ROOT, "tsconfig.base.json"),
      compilerOptions: {
        lib: ["ES2023"],
        types: [],
        paths: { "@cloudflare/ai-chat": [path.join(cache, "@cloudflare/ai-chat/dist/index.d.ts")], agents: [path.join(cache, "agents")], ai: [path.join(cache, "ai")] },
      },
      files: [
        "node_modules/@cloudflare/workers-types/index.d.ts",
        "node_modules/@cloudflare/vitest-plugin/types/cloudflare-test.d.ts",
        "test/worker/env.d.ts",
        // wrangler's generated types (GlobalProps, the bindings' types) that worker/env.ts builds on.
        "worker/worker-configuration.d.ts",
        "bench/peers/ai-chat/worker.ts",
        "bench/peers/ai-chat/ai-chat.bench-run.ts",
      ].map((f) => path.join(ROOT, f)),
    }),
  );
  return new Promise((resolve, reject) => {
    const tsc = spawn(process.execPath, [TSC, "-p", config], { stdio: ["ignore", "inherit", "inherit"] });
    tsc.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`tsc -p ${config} exited ${code}`))));
  });
}

const rowsOf = (out) =>
  out
    .split("\n")
    .map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""))
    .filter((l) => l.includes("BENCH_ROW "))
    .map((l) => JSON.parse(l.slice(l.indexOf("BENCH_ROW ") + 10)));

const TMPFS_MAGIC = 0x01021994;
/** "tmpfs" or "disk": miniflare keeps the DOs' SQLite files under the temp dir, and fsyncs every commit. */
const fsKind = (dir) => {
  try {
    return statfsSync(dir).type === TMPFS_MAGIC ? "tmpfs" : "disk";
  } catch {
    return null;
  }
};
/** A RAM-backed dir for the second fan-out pass, when the temp dir is on a disk and the machine has one. */
const SHM = "/dev/shm";

const started = new Date();
const load0 = os.loadavg()[0];
const t0 = Date.now();
const rows = [];
/**
 * `BENCH_ONLY=<test name filter>` (e.g. `fan-out`): only bench/room.bench-run.ts's tests matching it, with the DOs'
 * storage where the temp dir is (no tmpfs pass, no peers, no client) — a quick side-by-side of a few rows.
 * `BENCH_ONLY=client:<name>` (e.g. `client:vitals`): only bench/client/<name>.bench-run.ts.
 * `BENCH_ONLY="browser to browser"`: only the browser-to-browser file against HAPI (ONLY_ELSEWHERE).
 */
const only = process.env.BENCH_ONLY;
/** BENCH_ONLY filters that name a file of another project: that file's matching tests instead of room.bench-run.ts's. */
const ONLY_ELSEWHERE = [{ match: /browser to browser/i, project: "bench-peers", file: "bench/peers/browser-to-browser.bench-run.ts", peer: "hapi" }];
try {
  const elsewhere = only && ONLY_ELSEWHERE.find((o) => o.match.test(only));
  if (only?.startsWith("client:")) {
    const file = `bench/client/${only.slice("client:".length)}.bench-run.ts`;
    process.stderr.write(`bench: only ${file} (Chromium)…\n`);
    rows.push(...rowsOf(await vitest(["run", "--project", "bench-client", file])));
  } else if (elsewhere) {
    await installPeer(elsewhere.peer);
    process.stderr.write(`bench: only ${elsewhere.file} -t "${only}"…\n`);
    rows.push(...rowsOf(await vitest(["run", "--project", elsewhere.project, elsewhere.file, "-t", only])));
  } else if (only) {
    const storage = fsKind(os.tmpdir()) ?? "disk";
    process.stderr.write(`bench: only room.bench-run.ts -t "${only}", DO storage on ${storage}…\n`);
    rows.push(...rowsOf(await vitest(["run", "--project", "bench", "bench/room.bench-run.ts", "-t", only], { BENCH_STORAGE: storage })));
  } else {
    // The peers measured side by side (HAPI, AIChatAgent): installed once into ~/.cache/baton-peers, never by npm install.
    for (const id of ["hapi", "ai-chat"]) await installPeer(id);
    await typecheckAiChat();
    const port = await freePort();
    process.stderr.write("bench: server figures (workerd)…\n");
    const storage = fsKind(os.tmpdir()) ?? "disk";
    // One file per run with the inspector on: a second file's workerd could not take the same inspector port.
    rows.push(...rowsOf(await vitest(["run", "--project", "bench", "bench/room.bench-run.ts", `--inspect=127.0.0.1:${port}`, "--no-file-parallelism"], { BENCH_INSPECTOR: `http://127.0.0.1:${port}`, BENCH_STORAGE: storage })));
    if (storage === "disk" && fsKind(SHM) === "tmpfs") {
      // The same fan-out figures with the SQLite files in RAM: the commits' fsync is the one thing that
      // differs, so the two passes side by side show what the local disk costs the room.
      process.stderr.write("bench: fan-out again with DO storage on tmpfs…\n");
      const dir = mkdtempSync(path.join(SHM, "baton-bench-"));
      try {
        const again = rowsOf(await vitest(["run", "--project", "bench", "bench/room.bench-run.ts", "-t", "fan-out"], { TMPDIR: dir, BENCH_STORAGE: "tmpfs" }));
        const after = rows.findLastIndex((r) => r.figure.startsWith("fan-out")) + 1;
        rows.splice(after, 0, ...again);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    process.stderr.write("bench: join, catch-up and live on the shared session content (workerd)…\n");
    rows.push(...rowsOf(await vitest(["run", "--project", "bench", "bench/join.bench-run.ts"])));
    process.stderr.write("bench: the session list's join and feed, one user and a team of 1,000 (workerd)…\n");
    rows.push(...rowsOf(await vitest(["run", "--project", "bench", "bench/session-list.bench-run.ts"])));
    process.stderr.write("bench: HAPI 0.30.7 on the same session content (Node), then browser to browser (Chromium)…\n");
    rows.push(...rowsOf(await vitest(["run", "--project", "bench-peers"])));
    process.stderr.write("bench: Cloudflare AIChatAgent in the same workerd…\n");
    rows.push(...rowsOf(await vitest(["run", "--project", "bench-ai-chat"])));
    process.stderr.write("bench: client figures (Chromium)…\n");
    rows.push(...rowsOf(await vitest(["run", "--project", "bench-client"])));
  }
} catch (err) {
  process.stderr.write(`${err.out ?? ""}\n${err.message}\n`);
  process.exit(1);
}

// Baton's and HAPI's figures side by side after Baton's own join rows; HAPI's raw rows only feed them.
const compared = compareRows(rows);
const afterJoin = rows.findLastIndex((r) => r.data?.peer === "baton") + 1;
rows.splice(afterJoin, 0, ...compared);
const shown = rows.filter((r) => !r.hidden);

const cpu = os.cpus();
const cell = (v) => String(v ?? "").replace(/\|/g, "\\|");
const lines = [
  `Baton benchmarks — ${started.toISOString().slice(0, 16).replace("T", " ")} UTC, ${cpu.length} × ${cpu[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.versions.node}, load average ${load0.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}, ${Math.round((Date.now() - t0) / 1000)} s`,
  "",
  "| figure | measured | ratio | target | |",
  "| --- | --- | --- | --- | --- |",
  ...shown.map((r) => `| ${cell(r.figure)} | ${cell(r.measured)} | ${r.ratio ?? "—"} | ${cell(r.target ?? "")} | ${r.ok === undefined ? "" : r.ok ? "✅" : "❌"} |`),
];
console.log(lines.join("\n"));
