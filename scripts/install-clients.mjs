#!/usr/bin/env node
// Installs the ACP clients pinned in test/clients/manifest.json (acpx, the headless ACP client the attach e2e
// drives) into a cache outside node_modules (default ~/.cache/baton-clients/<id>-<version>/, override with
// BATON_CLIENTS_CACHE), once, the way scripts/install-agents.mjs installs the agents.
//   node scripts/install-clients.mjs          # every client
//   node scripts/install-clients.mjs acpx     # only these
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { installPinned } from "./install-agents.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(root, "test/clients/manifest.json"), "utf8"));

export function clientsCache() {
  return process.env.BATON_CLIENTS_CACHE || join(homedir(), ".cache", "baton-clients");
}

function entryOf(id) {
  const entry = manifest.clients[id];
  if (!entry) throw new Error(`unknown client "${id}" (manifest has: ${Object.keys(manifest.clients).join(", ")})`);
  return entry;
}

/** The install folder of one client: its id and the version of its package. */
export function clientDir(id) {
  return join(clientsCache(), `${id}-${Object.values(entryOf(id).packages)[0]}`);
}

/** Installs the client if needed; resolves with the path of its entry script (run it with Node 22). */
export async function installClient(id) {
  const dir = await installPinned(clientDir(id), entryOf(id).packages, `client ${id}`);
  return join(dir, entryOf(id).bin);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ids = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(manifest.clients);
  for (const id of ids) console.log(await installClient(id));
}
