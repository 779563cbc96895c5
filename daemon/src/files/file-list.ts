/**
 * The daemon's answer to `files.list` (shared/tunnel-ask.ts; issue 29 #3): the files under a session's directory
 * that fuzzy-match what a person typed after "@". Confined twice: the directory must resolve inside the machine's
 * roots (allowed-roots.ts), and every file named must resolve inside that directory (a symlink out is left out;
 * paths never carry ".."). `.gitignore` is respected: `git ls-files` in a repository, else a bounded walk that
 * reads each directory's .gitignore. Reading stops at MAX_SCANNED_FILES and at the timeout.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { fuzzyFilter } from "../../../shared/fuzzy-match";
import { AskErrorCode, type FileList, FilesListRequest, MAX_LISTED_FILES } from "../../../shared/tunnel-ask";
import { checkCwd, isInside } from "../allowed-roots";
import { errorMessage, type Logger } from "../log";
import type { AskAnswer } from "../tunnel/tunnel-client";

/** Paths read before ranking: bounds memory and time on a huge tree (a narrower directory or query finds the rest). */
export const MAX_SCANNED_FILES = 20_000;
/** The whole listing: well under the Worker's ASK_TIMEOUT_MS, and a picker that waits longer is no help. */
export const FILE_LIST_TIMEOUT_MS = 5_000;
/** Directories the walk (no repository) never enters: version control's own, and installed packages without a .gitignore. */
const WALK_SKIPPED = new Set([".git", ".hg", ".svn", "node_modules"]);
/** How deep the walk goes below the session directory. */
const MAX_WALK_DEPTH = 16;

export type ListFilesOptions = {
  cwd: string;
  roots: readonly string[];
  query: string;
  timeoutMs?: number;
  maxScanned?: number;
  limit?: number;
};

export type ListFilesOutcome = { ok: true; list: FileList } | { ok: false; code: string; message: string };

class Expired extends Error {}

/** The files under `cwd` matching `query`, best first; or why not. Never throws. */
export async function listFiles(o: ListFilesOptions): Promise<ListFilesOutcome> {
  const dir = checkCwd(o.cwd, o.roots);
  if (!dir.ok) return { ok: false, code: AskErrorCode.BAD_REQUEST, message: dir.message };
  const root = dir.cwd;
  const timeoutMs = o.timeoutMs ?? FILE_LIST_TIMEOUT_MS;
  const max = o.maxScanned ?? MAX_SCANNED_FILES;
  const deadline = Date.now() + timeoutMs;
  try {
    const scanned = (await gitFiles(root, max, deadline)) ?? (await walkFiles(root, max, deadline));
    const files: string[] = [];
    // Ranked first, checked after: only the few shown pay for an lstat / realpath.
    for (const rel of fuzzyFilter(scanned.paths, o.query, Number.MAX_SAFE_INTEGER)) {
      if (files.length >= (o.limit ?? MAX_LISTED_FILES)) break;
      if (Date.now() > deadline) throw new Expired();
      if (confinedFile(root, rel, o.roots)) files.push(rel);
    }
    return { ok: true, list: { root, files, truncated: scanned.truncated } };
  } catch (err) {
    if (err instanceof Expired) return { ok: false, code: AskErrorCode.TIMEOUT, message: `listing the files took longer than ${timeoutMs / 1000} s` };
    return { ok: false, code: AskErrorCode.AGENT_FAILED, message: `could not list the files: ${errorMessage(err)}` };
  }
}

/** A relative path that names a regular file whose real path is inside `root` and the machine's roots. */
export function confinedFile(root: string, rel: string, roots: readonly string[]): boolean {
  if (!rel || path.isAbsolute(rel) || rel.split(/[\\/]/).includes("..") || rel.includes("\0")) return false;
  const full = path.join(root, rel);
  try {
    const real = fs.realpathSync(full);
    return isInside(real, root) && roots.some((r) => isInside(real, r)) && fs.statSync(real).isFile();
  } catch {
    return false;
  }
}

type Scanned = { paths: string[]; truncated: boolean };

/**
 * `git ls-files` (tracked, plus untracked not ignored) relative to `root`; null when `root` is not in a
 * repository or git is missing. `core.fsmonitor` is off: a repository's config must not start a program here.
 */
function gitFiles(root: string, max: number, deadline: number): Promise<Scanned | null> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", ["-c", "core.fsmonitor=false", "-c", "core.quotePath=false", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: root,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const seen = new Set<string>();
    let rest = "";
    let truncated = false;
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      child.kill("SIGKILL");
    }, Math.max(0, deadline - Date.now()));
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const parts = (rest + chunk).split("\0");
      rest = parts.pop() ?? "";
      for (const p of parts) {
        if (seen.size >= max) {
          truncated = true;
          child.kill("SIGKILL");
          return;
        }
        if (p) seen.add(p);
      }
    });
    child.on("error", () => {
      clearTimeout(timer);
      resolve(null); // no git on this machine: walk instead
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (expired) reject(new Expired());
      else if (truncated) resolve({ paths: [...seen], truncated });
      else if (code === 0) resolve({ paths: [...seen], truncated: false });
      else resolve(null); // not a repository
    });
  });
}

/** A breadth-first walk of `root` that honours each directory's .gitignore and never follows a directory symlink. */
async function walkFiles(root: string, max: number, deadline: number): Promise<Scanned> {
  const paths: string[] = [];
  type Rule = { base: string; ig: Ignore };
  const queue: { rel: string; depth: number; rules: Rule[] }[] = [{ rel: "", depth: 0, rules: [] }];
  const ignoredBy = (rules: Rule[], rel: string, isDir: boolean) =>
    rules.some((r) => {
      const sub = r.base ? rel.slice(r.base.length + 1) : rel;
      return r.ig.ignores(isDir ? `${sub}/` : sub);
    });
  while (queue.length) {
    if (Date.now() > deadline) throw new Expired();
    const { rel, depth, rules: inherited } = queue.shift()!;
    const abs = path.join(root, rel);
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(abs, { withFileTypes: true });
    } catch {
      continue; // unreadable: left out
    }
    let rules = inherited;
    if (entries.some((e) => e.name === ".gitignore" && e.isFile())) {
      try {
        const text = await fs.promises.readFile(path.join(abs, ".gitignore"), "utf8");
        rules = [...inherited, { base: rel, ig: ignore().add(text) }];
      } catch {
        /* unreadable .gitignore: nothing more ignored */
      }
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (WALK_SKIPPED.has(e.name) || depth + 1 > MAX_WALK_DEPTH || ignoredBy(rules, child, true)) continue;
        queue.push({ rel: child, depth: depth + 1, rules });
      } else if ((e.isFile() || e.isSymbolicLink()) && !ignoredBy(rules, child, false)) {
        if (paths.length >= max) return { paths, truncated: true };
        paths.push(child);
      }
    }
  }
  return { paths, truncated: false };
}

/** The `files.list` ask: parses it, lists, answers. */
export function createFileListHandler(o: { roots: readonly string[]; log: Logger; timeoutMs?: number }): (request: unknown) => Promise<AskAnswer> {
  return async (raw) => {
    const req = FilesListRequest.safeParse(raw);
    if (!req.success) return { ok: false, code: AskErrorCode.BAD_REQUEST, message: req.error.issues[0]?.message ?? "invalid request" };
    const out = await listFiles({ cwd: req.data.cwd, roots: o.roots, query: req.data.query, timeoutMs: o.timeoutMs });
    if (!out.ok) o.log.debug(`files.list in ${req.data.cwd}: ${out.message}`);
    return out.ok ? { ok: true, result: out.list } : out;
  };
}
