#!/usr/bin/env node
// Installs the real ACP agents pinned in test/agents/manifest.json into a cache outside node_modules
// (default ~/.cache/baton-agents/<id>-<version>/, override with BATON_AGENTS_CACHE), once: a marker file is
// written only after npm succeeds, and an install with its marker is reused. One install per agent at a time
// (a lock folder beside it): vitest runs side by side may ask for the same agent.
//   node scripts/install-agents.mjs              # every agent in the manifest
//   node scripts/install-agents.mjs claude codex # only these
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(root, "test/agents/manifest.json"), "utf8"));
const MARKER = ".baton-installed.json";
/** A lock older than this is from an install that died (the biggest agent takes a few minutes offline). */
const STALE_LOCK_MS = 20 * 60_000;
const LOCK_POLL_MS = 1_000;

export function agentsCache() {
  return process.env.BATON_AGENTS_CACHE || join(homedir(), ".cache", "baton-agents");
}

/** The install folder of one agent: its id and the version of its first (main) package. */
export function agentDir(id) {
  const entry = manifest.agents[id];
  if (!entry) throw new Error(`unknown agent "${id}" (manifest has: ${Object.keys(manifest.agents).join(", ")})`);
  const version = Object.values(entry.packages)[0];
  return join(agentsCache(), `${id}-${version}`);
}

export function isInstalled(id) {
  return existsSync(join(agentDir(id), MARKER));
}

function run(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "inherit", "inherit"], env });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}`))));
  });
}

/** Runs `fn` holding `${dir}.lock` (mkdir is atomic); gives up waiting once `done()` says another holder finished. */
async function withLock(dir, done, fn) {
  const lock = `${dir}.lock`;
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
      if (done()) return;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
    }
  }
  try {
    if (!done()) await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export async function installAgent(id) {
  return installPinned(agentDir(id), manifest.agents[id].packages, `agent ${id}`);
}

/**
 * Installs `packages` ({name: version}) into `dir` once, under a lock, with a marker written only after npm
 * succeeded; a folder with its marker is reused. Shared with scripts/install-clients.mjs (the ACP clients).
 */
export async function installPinned(dir, packages, label) {
  const done = () => existsSync(join(dir, MARKER));
  if (done()) return dir;
  await withLock(dir, done, () => install(dir, packages, label));
  return dir;
}

async function install(dir, packages, label) {
  const specs = Object.entries(packages).map(([name, version]) => `${name}@${version}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // A package.json of its own, so npm does not walk up into a project's.
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `baton-cache-${label.replace(/[^a-z0-9]+/gi, "-")}`, private: true }) + "\n");
  const started = Date.now();
  process.stderr.write(`[install] ${label}: ${specs.join(" ")} into ${dir}\n`);
  await run("npm", ["install", "--prefix", dir, ...specs, "--no-audit", "--no-fund", "--loglevel=error"], {
    ...process.env,
    npm_config_update_notifier: "false",
  });
  writeFileSync(join(dir, MARKER), JSON.stringify({ packages, at: new Date().toISOString() }) + "\n");
  process.stderr.write(`[install] ${label} installed in ${Math.round((Date.now() - started) / 1000)} s\n`);
}

/** Ids from a list ("all" or a comma/space list); unknown ids are an error. */
export function resolveIds(list) {
  const all = Object.keys(manifest.agents);
  const ids = list.flatMap((s) => s.split(/[,\s]+/)).filter(Boolean);
  if (ids.length === 0 || ids.includes("all")) return all;
  for (const id of ids) if (!all.includes(id)) throw new Error(`unknown agent "${id}" (known: ${all.join(", ")})`);
  return ids;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ids = resolveIds(process.argv.slice(2));
  for (const id of ids) await installAgent(id);
}
