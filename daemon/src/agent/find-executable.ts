/** Local-only lookups for agent binaries: PATH search and npm package resolution (never the network). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

function isExecutableFile(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) return false;
    if (process.platform === "win32") return true;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Absolute path of `name` on PATH (or `name` itself when it is a path to an executable), else null. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (!name) return null;
  if (name.includes("/") || name.includes("\\")) {
    const p = path.resolve(name);
    return isExecutableFile(p) ? p : null;
  }
  const exts = process.platform === "win32" ? (env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";").concat("") : [""];
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const p = path.join(dir, name + ext);
      if (isExecutableFile(p)) return p;
    }
  }
  return null;
}

/** Directories that may hold an installed copy of an npm package, most specific first. */
export function packageSearchDirs(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string[] {
  const dirs: string[] = [];
  for (let d = path.resolve(cwd); ; d = path.dirname(d)) {
    dirs.push(path.join(d, "node_modules"));
    if (path.dirname(d) === d) break;
  }
  const prefixes = [env.npm_config_prefix, env.NPM_CONFIG_PREFIX, path.dirname(path.dirname(process.execPath))];
  const nodeOnPath = findOnPath("node", env);
  if (nodeOnPath) {
    try {
      prefixes.push(path.dirname(path.dirname(fs.realpathSync(nodeOnPath))));
    } catch {
      /* ignore */
    }
  }
  for (const prefix of prefixes) {
    if (!prefix) continue;
    dirs.push(path.join(prefix, "lib", "node_modules"), path.join(prefix, "node_modules"));
  }
  // npx's cache: a package run once with `npx -y` is there and runs offline.
  const npxCache = path.join(env.npm_config_cache ?? path.join(os.homedir(), ".npm"), "_npx");
  try {
    for (const entry of fs.readdirSync(npxCache)) dirs.push(path.join(npxCache, entry, "node_modules"));
  } catch {
    /* no cache */
  }
  return [...new Set(dirs)];
}

/** The JS entry of `pkg`'s bin (named `bin`, or its only/first bin) in a locally installed copy, else null. */
export function findPackageBin(pkg: string, bin: string, dirs: readonly string[]): string | null {
  for (const dir of dirs) {
    const pkgDir = path.join(dir, ...pkg.split("/"));
    let manifest: { bin?: unknown; name?: unknown };
    try {
      manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")) as typeof manifest;
    } catch {
      continue;
    }
    let rel: string | undefined;
    if (typeof manifest.bin === "string") rel = manifest.bin;
    else if (manifest.bin && typeof manifest.bin === "object") {
      const bins = manifest.bin as Record<string, unknown>;
      const pick = bins[bin] ?? Object.values(bins)[0];
      if (typeof pick === "string") rel = pick;
    }
    if (!rel) continue;
    const file = path.resolve(pkgDir, rel);
    if (fs.existsSync(file)) return file;
  }
  return null;
}
