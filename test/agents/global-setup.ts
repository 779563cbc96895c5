// Installs the agents this run needs (BATON_AGENTS, default claude,codex) into the cache outside
// node_modules before any test starts: quick when they are there already (a marker per install).
import { ensureInstalled, selectedAgents } from "./launch";

export default async function setup(): Promise<void> {
  await ensureInstalled(selectedAgents());
}
