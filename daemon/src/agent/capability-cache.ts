/**
 * Agent capabilities learnt from sessions (`initialize` + session/new|load), kept per agent id in a JSON file
 * in the cache folder (~/.cache/baton; older daemons kept it beside the config file), so the next hello advertises what the agent really does. Bad or missing file:
 * empty cache (the presets stand in). Writes are atomic (temp file + rename).
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { AgentCapabilities, type AgentInfo } from "../../../shared/tunnel-protocol";

export const CAPABILITIES_FILE_NAME = "agent-capabilities.json";

const CacheFile = z.record(z.string(), AgentCapabilities);
export type CapabilityCache = z.infer<typeof CacheFile>;

export function readCapabilityCache(file: string): CapabilityCache {
  try {
    const parsed = CacheFile.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export function writeCapabilityCache(file: string, cache: CapabilityCache): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(cache, null, 2)}\n`);
  fs.renameSync(tmp, file);
}

/**
 * Moves the file older daemons kept beside the config to `file`, when only the old one exists. True when it
 * moved; never overwrites a cache already in its new place.
 */
export function migrateCapabilityCache(file: string, legacy: string): boolean {
  if (path.resolve(file) === path.resolve(legacy) || fs.existsSync(file) || !fs.existsSync(legacy)) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // copy + remove rather than rename: the cache and config folders may be on different file systems.
  fs.copyFileSync(legacy, file, fs.constants.COPYFILE_EXCL);
  fs.rmSync(legacy, { force: true });
  return true;
}

/** The agents with the learnt capabilities in place of the presets' (the cache wins). */
export function withLearnt(agents: readonly AgentInfo[], cache: CapabilityCache): AgentInfo[] {
  return agents.map((a) => (cache[a.id] ? { ...a, capabilities: cache[a.id]! } : a));
}

export function sameCapabilities(a: AgentCapabilities | undefined, b: AgentCapabilities): boolean {
  return !!a && (Object.keys(b) as (keyof AgentCapabilities)[]).every((k) => a[k] === b[k]);
}
