#!/usr/bin/env node
// Installs the peers the benchmarks measure Baton against (bench/peers/manifest.json: HAPI and
// Cloudflare's AIChatAgent with their pinned versions) into a cache outside node_modules
// (default ~/.cache/baton-peers/<id>-<version>/, override with BATON_PEERS_CACHE), once: a marker file
// is written only after npm succeeds, and an install with its marker is reused. `npm run bench` runs it
// first; `npm install` never does.
//   node scripts/install-peers.mjs          # every peer
//   node scripts/install-peers.mjs hapi     # only these
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(root, "bench/peers/manifest.json"), "utf8"));
const MARKER = ".baton-installed.json";

export function peersCache() {
  return process.env.BATON_PEERS_CACHE || join(homedir(), ".cache", "baton-peers");
}

/** The install folder of one peer: its id and the version of its first (main) package. */
export function peerDir(id) {
  const entry = manifest.peers[id];
  if (!entry) throw new Error(`unknown peer "${id}" (manifest has: ${Object.keys(manifest.peers).join(", ")})`);
  return join(peersCache(), `${id}-${Object.values(entry.packages)[0]}`);
}

export function isInstalled(id) {
  const marker = join(peerDir(id), MARKER);
  if (!existsSync(marker)) return false;
  // Reused only if it holds exactly the pinned set (a manifest change reinstalls).
  return JSON.stringify(JSON.parse(readFileSync(marker, "utf8")).packages) === JSON.stringify(manifest.peers[id].packages);
}

function run(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "inherit", "inherit"], env });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}`))));
  });
}

export async function installPeer(id) {
  const dir = peerDir(id);
  if (isInstalled(id)) return dir;
  const entry = manifest.peers[id];
  const specs = Object.entries(entry.packages).map(([name, version]) => `${name}@${version}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // A package.json of its own, so npm does not walk up into a project's.
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `baton-peer-${id}`, private: true }) + "\n");
  const started = Date.now();
  process.stderr.write(`[peers] installing ${id}: ${specs.join(" ")} into ${dir}\n`);
  // --legacy-peer-deps: `agents` lists ~20 optional integrations as peers (MCP, React, vite…); the
  // manifest names the ones the bench needs.
  await run("npm", ["install", "--prefix", dir, ...specs, "--legacy-peer-deps", "--no-audit", "--no-fund", "--loglevel=error"], {
    ...process.env,
    npm_config_update_notifier: "false",
  });
  writeFileSync(join(dir, MARKER), JSON.stringify({ id, packages: entry.packages, at: new Date().toISOString() }) + "\n");
  process.stderr.write(`[peers] ${id} installed in ${Math.round((Date.now() - started) / 1000)} s\n`);
  return dir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ids = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(manifest.peers);
  for (const id of ids) console.log(await installPeer(id));
}
