// The whole local product in child processes: Worker + DOs + the built client served by `wrangler dev`
// (workerd, the same asset and upgrade handling as a deployment), and a daemon with the demo agent,
// paired automatically. Used by `npm start` and e2e tests; `npm run dev` serves through Vite with hot
// reload instead (`dev: true`).
import { BATON_BIN } from "./baton-bin.mjs";
import { spawn, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createServer } from "node:net";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { devVapidKeys } from "./vapid-keys.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(ROOT, "node_modules", ".bin", name);

/** A cold first start (Vite's dependency scan, workerd boot) on a loaded 2-core CI machine can take a minute. */
const HEALTHY_WITHIN_MS = 100_000;
/** One health probe's limit. */
const PROBE_TIMEOUT_MS = 2_000;
/** Lines of a quiet server's output kept for the error when it does not come up. */
const OUTPUT_TAIL_LINES = 40;

async function waitHealthy(url, server, tail, ms = HEALTHY_WITHIN_MS) {
  const until = Date.now() + ms;
  const why = (what) => new Error(`server at ${url} ${what}${tail.length ? `; its last output:\n${tail.join("\n")}` : ""}`);
  while (Date.now() < until) {
    if (server.exitCode !== null || server.signalCode !== null) throw why(`exited (${server.exitCode ?? server.signalCode}) before it was healthy`);
    try {
      // Bounded: a port that accepts and never answers must not hang the wait.
      const r = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      if (r.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw why(`did not become healthy within ${ms / 1000} s`);
}

/** Keeps the last lines of a stream (a quiet child's output), for errors. */
function keepTail(stream, tail) {
  let partial = "";
  stream?.on("data", (d) => {
    const lines = (partial + d).split("\n");
    partial = lines.pop() ?? "";
    tail.push(...lines);
    if (tail.length > OUTPUT_TAIL_LINES) tail.splice(0, tail.length - OUTPUT_TAIL_LINES);
  });
}

/** What the build reads: a change to any of these makes the next start rebuild. */
const BUILD_INPUTS = ["client", "worker", "shared", "vite.config.ts", "wrangler.jsonc", "package-lock.json"];
const BUILT_WORKER_CONFIG = join(ROOT, "dist", "baton", "wrangler.json");
const BUILD_STAMP = join(ROOT, "dist", ".build-stamp");
const BUILD_LOCK = join(ROOT, "dist.lock");
/** A build or a migration takes seconds; a lock older than this was left by a killed process. */
const STALE_LOCK_MS = 120_000;

/**
 * The build's inputs as files: the newest file time and the set of paths (a deleted or added file counts).
 * Directory times are left out: the build itself writes `client/.wrangler/` (the Cloudflare plugin), which
 * touched `client/` after the stamp and made every fresh clone build twice — the second time under a running
 * stack serving `dist/`.
 */
function inputFiles(path, out = []) {
  let st;
  try {
    st = statSync(path);
  } catch {
    return out;
  }
  if (!st.isDirectory()) {
    out.push({ path, mtimeMs: st.mtimeMs });
    return out;
  }
  for (const name of readdirSync(path)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    inputFiles(join(path, name), out);
  }
  return out;
}

function inputsSignature() {
  const files = BUILD_INPUTS.flatMap((p) => inputFiles(join(ROOT, p)));
  const newest = Math.max(0, ...files.map((f) => f.mtimeMs));
  const paths = createHash("sha256").update(files.map((f) => f.path).sort().join("\n")).digest("hex");
  return { newest, paths };
}

function buildIsFresh() {
  if (!existsSync(BUILT_WORKER_CONFIG) || !existsSync(BUILD_STAMP)) return false;
  const built = statSync(BUILD_STAMP).mtimeMs;
  const { newest, paths } = inputsSignature();
  return newest < built && readFileSync(BUILD_STAMP, "utf8") === paths;
}

/**
 * Makes something once for every process that wants it at the same time (test files, projects, runs): the first to
 * take the directory lock `lock` runs `make`; the others wait for it and find `done()` true. A lock older than
 * STALE_LOCK_MS was left by a killed process and is taken over.
 */
export async function makeOnce(lock, done, make) {
  for (;;) {
    if (done()) return;
    try {
      mkdirSync(lock);
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      if (!done()) make();
      return;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * Builds the client and the Worker (`vite build`) unless the last build is newer than every input. Several
 * stacks may start at once (test files, projects): they share one build.
 */
export async function ensureBuilt({ quiet = false } = {}) {
  await makeOnce(BUILD_LOCK, buildIsFresh, () => {
    const started = Date.now();
    const { paths } = inputsSignature();
    execFileSync(bin("vite"), ["build", "--logLevel", "warn"], { cwd: ROOT, stdio: ["ignore", quiet ? "ignore" : "inherit", "inherit"] });
    // The stamp's time is the build's start: a source saved during the build makes the next start rebuild.
    writeFileSync(BUILD_STAMP, paths);
    const t = new Date(started);
    utimesSync(BUILD_STAMP, t, t);
  });
}

function runMigrations(stateDir) {
  execFileSync(bin("wrangler"), ["d1", "migrations", "apply", "baton", "--local", "--persist-to", stateDir], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false" },
  });
}

/** Where a fresh state directory's D1 lives (miniflare's layout under `--persist-to`). */
const D1_STATE = join("v3", "d1");
/** Migrated D1 states, one per set of migrations (and wrangler version), copied into fresh state directories. */
const MIGRATED_TEMPLATES = join(ROOT, "node_modules", ".cache", "baton-migrated-d1");

/** What a migrated database depends on: every migration's name and text, and the wrangler that applied them. */
function migrationsSignature() {
  const h = createHash("sha256");
  const dir = join(ROOT, "migrations");
  for (const name of readdirSync(dir).sort()) h.update(name).update("\0").update(readFileSync(join(dir, name))).update("\0");
  h.update(readFileSync(join(ROOT, "node_modules", "wrangler", "package.json")));
  h.update(readFileSync(join(ROOT, "wrangler.jsonc")));
  return h.digest("hex").slice(0, 16);
}

/**
 * Brings a state directory's D1 up to the migrations. A fresh directory (every e2e stack) gets a copy of a
 * database migrated once per set of migrations: applying them starts a whole wrangler + workerd, ≈ 13 s of CPU
 * on a 2-core machine, once per stack otherwise. A directory with a database already (npm start's
 * `.wrangler/state`, the user's sessions in it) is migrated in place, as before.
 */
async function applyMigrations(stateDir) {
  if (existsSync(join(stateDir, D1_STATE))) return runMigrations(stateDir);
  const template = join(MIGRATED_TEMPLATES, migrationsSignature());
  // One stack makes it; the others starting meanwhile (npm test on a clean clone starts several at once) wait.
  mkdirSync(MIGRATED_TEMPLATES, { recursive: true });
  await makeOnce(`${template}.lock`, () => existsSync(template), () => {
    // Made beside its final name and renamed into place: a killed maker never leaves a half-made one.
    const making = mkdtempSync(join(MIGRATED_TEMPLATES, "making-"));
    try {
      runMigrations(making);
      renameSync(making, template);
    } catch (err) {
      rmSync(making, { recursive: true, force: true });
      throw err;
    }
  });
  cpSync(join(template, D1_STATE), join(stateDir, D1_STATE), { recursive: true });
}

/** `BATON_VAR_X=v` in an environment: Worker var X is v for the local server (e.g. BATON_VAR_AUTH_MODE=builtin). */
export function varOverrides(env) {
  return Object.entries(env)
    .filter(([k, v]) => k.startsWith("BATON_VAR_") && v !== undefined)
    .map(([k, v]) => [k.slice("BATON_VAR_".length), v]);
}

/** The server process: the built app under `wrangler dev`, or (`dev`) Vite's dev server with hot reload. */
function spawnServer({ port, stateDir, dev, out, serverEnv }) {
  // Local means offline: no metrics, and no fetch of the `Request.cf` placeholder from Cloudflare.
  const env = { ...process.env, BATON_STATE_DIR: stateDir, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", ...serverEnv };
  // Its own process group, stopped as a group: the workerd child ignores SIGTERM and would otherwise
  // outlive every stack (npm start's own SIGINT handler stops it).
  const common = { cwd: ROOT, detached: true, stdio: ["ignore", out, out], env };
  if (dev) {
    // Tests start several stacks in one project at once; Vite's one-dev-server-per-project lock would refuse them.
    const lock = process.env.VITEST ? ["--bypass-lock"] : [];
    return spawn(bin("vite"), ["--port", String(port), "--strictPort", ...lock], common);
  }
  const vars = varOverrides(env).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const args = ["dev", "-c", BUILT_WORKER_CONFIG, "--ip", "127.0.0.1", "--port", String(port), "--persist-to", stateDir];
  // LOCAL_STACK: how the server was started, not what a request's Host says (`npm run deploy` never sets it).
  args.push("--show-interactive-dev-session=false", "--var", "LOCAL_STACK:1", ...vars);
  return spawn(bin("wrangler"), args, common);
}

/**
 * @param {{ port?: number, stateDir?: string, roots?: string[], daemonEnv?: Record<string,string>, quiet?: boolean, daemon?: boolean, daemonServer?: string, serverEnv?: Record<string,string>, dev?: boolean }} opts
 * `daemonServer`: where the daemon dials (default: the server itself); e2e tests put a loopback proxy there to cut the tunnel.
 */
export async function startStack(opts = {}) {
  const port = opts.port ?? 8787;
  // Before anything is written: a second start must not pair a second daemon against the first server.
  await assertPortFree(port);
  const stateDir = resolve(opts.stateDir ?? join(ROOT, ".wrangler", "state"));
  mkdirSync(stateDir, { recursive: true });
  await applyMigrations(stateDir);
  const url = `http://127.0.0.1:${port}`;
  const out = opts.quiet ? "pipe" : "inherit";
  if (!opts.dev) await ensureBuilt({ quiet: opts.quiet });
  // Web Push works on localhost too: dev VAPID keys made once in the state directory, passed as vars.
  const vapid = await devVapidKeys(join(stateDir, "dev-vapid.json"));
  const pushVars = { BATON_VAR_VAPID_PRIVATE_KEY: vapid.privateJwk, BATON_VAR_VAPID_SUBJECT: "mailto:baton@localhost" };
  const server = spawnServer({ port, stateDir, dev: opts.dev === true, out, serverEnv: { ...pushVars, ...opts.serverEnv } });
  groupLeaders.add(server);
  const tail = [];
  keepTail(server.stdout, tail);
  keepTail(server.stderr, tail);
  const procs = [server];
  try {
    await waitHealthy(url, server, tail);
    let daemon = null;
    let token = null;
    // Auto-pairing uses the dev identity; with another auth mode, pair from the Machines page.
    const authMode = opts.serverEnv?.BATON_VAR_AUTH_MODE ?? process.env.BATON_VAR_AUTH_MODE ?? "dev";
    if (opts.daemon !== false && authMode === "dev") {
      token = await pairToken(url, stateDir);
      daemon = startDaemonProcess({ url: opts.daemonServer ?? url, token, roots: opts.roots ?? [ROOT], env: opts.daemonEnv, quiet: opts.quiet });
      procs.push(daemon);
      await waitMachineOnline(url);
    }
    return {
      url,
      token,
      stateDir,
      server,
      daemon,
      /** The server's last output lines (kept when quiet, for error messages and tests). */
      serverOutput: () => [...tail],
      /** `signal`: SIGTERM for a clean restart, SIGKILL to simulate a crash. */
      restartDaemon: async (signal = "SIGTERM") => {
        await killProc(daemon, signal);
        daemon = startDaemonProcess({ url: opts.daemonServer ?? url, token, roots: opts.roots ?? [ROOT], env: opts.daemonEnv, quiet: opts.quiet });
        procs.push(daemon);
      },
      stop: async () => {
        await Promise.all(procs.map(killProc));
      },
    };
  } catch (err) {
    await Promise.all(procs.map(killProc));
    throw err;
  }
}

/** Thrown by startStack when another process already listens on the port (e.g. a first `npm start`). */
export class PortInUseError extends Error {
  constructor(port) {
    super(`port ${port} is already in use (another Baton?). Stop it, or run with PORT=<another port>.`);
    this.port = port;
  }
}

/** Resolves when nothing listens on 127.0.0.1:port; rejects with PortInUseError when something does. */
function assertPortFree(port) {
  return new Promise((res, rej) => {
    const probe = createServer();
    probe.once("error", (err) => rej(err.code === "EADDRINUSE" ? new PortInUseError(port) : err));
    probe.listen(port, "127.0.0.1", () => probe.close(() => res()));
  });
}

// npm scripts put every `node_modules/.bin` on PATH; agent CLIs that are only Baton's own devDependencies
// (the pinned Gemini CLI the e2e tests drive) must not be advertised as if installed on this machine.
const isNpmBinDir = (dir) => /[\\/]node_modules[\\/]\.bin$/.test(dir);
function daemonPath(path = "") {
  return path.split(delimiter).filter((d) => d && !isNpmBinDir(d)).join(delimiter);
}

export function startDaemonProcess({ url, token, roots, env, quiet }) {
  const args = [BATON_BIN, "daemon", "--server", url, ...roots.flatMap((r) => ["--root", r])];
  // The token goes through the environment, not argv (argv is visible in `ps`).
  return spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ["ignore", quiet ? "ignore" : "inherit", quiet ? "ignore" : "inherit"],
    env: { ...process.env, PATH: daemonPath(process.env.PATH), BATON_TOKEN: token, ...env },
  });
}

async function pairToken(url, stateDir) {
  const file = join(stateDir, "dev-machine-token");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const r = await fetch(`${url}/api/dev/pair`, { method: "POST", body: JSON.stringify({ name: "This machine" }) });
  if (!r.ok) throw new Error(`pairing failed: ${r.status} ${await r.text()}`);
  const { token } = await r.json();
  writeFileSync(file, token, { mode: 0o600 });
  return token;
}

async function waitMachineOnline(url, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const r = await fetch(`${url}/api/machines`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }).catch(() => null);
    if (r?.ok) {
      const { machines } = await r.json();
      if (machines.some((m) => m.online && m.agents.length)) return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the daemon did not come online");
}

function killProc(p, signal = "SIGTERM") {
  return new Promise((res) => {
    if (!p || p.exitCode !== null || p.signalCode !== null) return res();
    // A detached child leads its own process group: signal the group, and after the leader exits
    // SIGKILL whatever of the group is left (workerd).
    const group = groupLeaders.has(p);
    const send = (sig) => {
      try {
        if (group) process.kill(-p.pid, sig);
        else p.kill(sig);
      } catch {
        /* already gone */
      }
    };
    p.once("exit", () => {
      if (group) send("SIGKILL");
      res();
    });
    send(signal);
    setTimeout(() => send("SIGKILL"), 3000).unref();
  });
}

/** Children spawned detached (their own process group). */
const groupLeaders = new WeakSet();
