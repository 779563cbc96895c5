/** The optional JSON config file (default ~/.config/baton/config.json). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { CustomAgent } from "../agent/agent-presets";

export const ConfigFile = z.object({
  server: z.string().url().optional(),
  token: z.string().min(1).optional(),
  roots: z.array(z.string().min(1)).optional(),
  agents: z.array(CustomAgent).optional(),
  /** Local cap on concurrent turns (the Machine DO's budget is the real one). */
  budget: z.number().int().min(1).max(64).optional(),
  /** `baton login --user`: the person's own sign-in per server (for `baton attach`), keyed by the server's origin. */
  userTokens: z.record(z.string(), z.string().min(1)).optional(),
  /** Where sessions' git worktrees go (default: worktreesDir below). */
  worktrees: z.string().min(1).optional(),
});
export type ConfigFile = z.infer<typeof ConfigFile>;

export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || path.join(os.homedir(), ".config");
  return path.join(base, "baton", "config.json");
}

/**
 * Sessions' git worktrees: `$XDG_DATA_HOME/baton/worktrees`. Outside every repository (the original checkout
 * sees no new untracked folder) and in a data folder, not a cache or /tmp (they hold uncommitted work).
 */
export function defaultWorktreesDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME?.trim() || path.join(env.HOME?.trim() || os.homedir(), ".local", "share");
  return path.join(base, "baton", "worktrees");
}

export class ConfigError extends Error {}

/** Reads the file; a missing default file is fine (empty config), a missing explicit one is an error. */
export function readConfigFile(file: string, explicit: boolean): ConfigFile {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if (!explicit && (err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ConfigError(`cannot read config file ${file}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`config file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = ConfigFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`config file ${file}: ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}
