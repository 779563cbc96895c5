// Where a command's CPU goes, by process: `node scripts/cpu-census.mjs npm test` runs the command and, once a second,
// reads every process's CPU time from /proc (Linux). At the end it prints the CPU seconds by kind of process
// (Chromium's renderers, workerd, the agents…), by the vitest run that started it (e2e, agents, daemon, the
// CPU-bound run, the type checks), and by both. `npm test` on 2 cores is CPU-bound (the machine busy throughout), so its wall
// time follows the sum of this table, not any one file's duration. A process that lives less than a second is
// missed; its parent's "children" time is not added (it would count the sampled ones twice).
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** How often /proc is read: a second keeps the census's own cost near 1% of a core. */
const SAMPLE_MS = 1_000;
/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** pid:starttime → what the process is and its last CPU reading. */
const procs = new Map();

function sample() {
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const f = stat.slice(close + 2).split(" ");
    const key = `${pid}:${f[19]}`;
    let p = procs.get(key);
    if (!p) {
      let cmd = "";
      try {
        cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").slice(0, 400);
      } catch {}
      p = { pid, ppid: f[1], start: Number(f[19]), comm, cmd, first: null, last: 0 };
      procs.set(key, p);
    }
    const ticks = Number(f[11]) + Number(f[12]);
    p.first ??= ticks;
    p.last = ticks;
  }
}

const KINDS = [
  ["chromium renderer", /chrom.*--type=renderer/],
  ["chromium gpu", /chrom.*--type=gpu-process/],
  ["chromium other", /chrom/],
  ["workerd", /workerd/],
  ["wrangler", /wrangler/],
  ["typecheck (tsc)", /typescript|\btsc\b/],
  ["esbuild", /esbuild/],
  ["demo agent", /demo-agent/],
  ["baton daemon", /baton\.mjs|daemon\/src\/cli/],
  ["fake model", /fake-model/],
  ["claude", /claude/],
  ["codex", /codex/],
  ["gemini", /gemini/],
  ["qwen", /qwen/],
  ["opencode", /opencode/],
  ["copilot", /copilot/],
  ["pi", /pi-coding-agent|\/pi\b/],
  ["git", /(^|\/)git\b/],
  ["vitest (tests, transforms)", /vitest/],
];
const kindOf = (p) => KINDS.find(([, rx]) => rx.test(p.cmd) || rx.test(p.comm))?.[0] ?? p.comm;

/**
 * The vitest run (its --project list) or the type check a process descends from; "(the command, elsewhere)" for the
 * command's other processes, "(outside the command)" for the rest of the machine (and for a process whose parent
 * exited before the census saw it).
 */
function runOf(p, byPid, root) {
  let run = null;
  for (let q = p, hops = 0; q && hops < 64; hops++) {
    const projects = [...q.cmd.matchAll(/--project[= ](\S+)/g)].map((m) => m[1]);
    if (!run && /vitest/.test(q.cmd) && projects.length) run = projects.length > 2 ? "cpu-bound (unit, client, workerd)" : projects.join("+");
    if (!run && /typecheck/.test(q.cmd)) run = "typecheck";
    if (q.pid === root) return run ?? "(the command, elsewhere)";
    const parents = (byPid.get(q.ppid) ?? []).filter((c) => c.start <= q.start);
    q = parents.sort((a, b) => b.start - a.start)[0];
  }
  return "(outside the command)";
}

function report(seenAtStart, root) {
  const byPid = new Map();
  for (const q of procs.values()) (byPid.get(q.pid) ?? byPid.set(q.pid, []).get(q.pid)).push(q);
  const byKind = new Map();
  const byRun = new Map();
  const byRunKind = new Map();
  let total = 0;
  let outside = 0;
  for (const [key, p] of procs) {
    const used = p.last - (seenAtStart.has(key) ? p.first : 0);
    if (used <= 0) continue;
    const r = runOf(p, byPid, root);
    if (r === "(outside the command)") {
      outside += used;
      continue;
    }
    total += used;
    const k = kindOf(p);
    byKind.set(k, (byKind.get(k) ?? 0) + used);
    byRun.set(r, (byRun.get(r) ?? 0) + used);
    const cell = `${r} · ${k}`;
    byRunKind.set(cell, (byRunKind.get(cell) ?? 0) + used);
  }
  const table = (title, m, rows = 16) => {
    console.log(`\n${title}`);
    for (const [name, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, rows))
      console.log(`  ${name.padEnd(50)} ${(t / TICKS).toFixed(0).padStart(6)} s  ${((100 * t) / total).toFixed(1).padStart(5)} %`);
  };
  console.log(`\ncpu-census: the command used ${(total / TICKS).toFixed(0)} CPU seconds (the rest of the machine ${(outside / TICKS).toFixed(0)} s)`);
  table("by kind of process", byKind);
  table("by run", byRun);
  table("by run and kind", byRunKind, 24);
}

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error("usage: node scripts/cpu-census.mjs <command> [args…]");
  process.exit(2);
}
sample();
const seenAtStart = new Set(procs.keys());
const timer = setInterval(sample, SAMPLE_MS);
const child = spawn(cmd, args, { stdio: "inherit" });
child.on("close", (code, signal) => {
  clearInterval(timer);
  sample();
  report(seenAtStart, String(child.pid));
  process.exit(code ?? (signal ? 1 : 0));
});
