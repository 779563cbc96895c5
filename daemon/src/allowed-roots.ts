/** The directories sessions may run in: a cwd must resolve (symlinks followed) inside one of them. */
import fs from "node:fs";
import path from "node:path";

export type CwdCheck = { ok: true; cwd: string } | { ok: false; message: string };

/** Resolves roots to real paths; roots that do not exist are reported and left out. */
export function resolveRoots(roots: readonly string[]): { roots: string[]; missing: string[] } {
  const out: string[] = [];
  const missing: string[] = [];
  for (const r of roots) {
    try {
      const real = fs.realpathSync(path.resolve(r));
      if (fs.statSync(real).isDirectory() && !out.includes(real)) out.push(real);
      else if (!out.includes(real)) missing.push(r);
    } catch {
      missing.push(r);
    }
  }
  return { roots: out, missing };
}

export function isInside(child: string, root: string): boolean {
  const rel = path.relative(root, child);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

export function checkCwd(cwd: unknown, roots: readonly string[]): CwdCheck {
  if (typeof cwd !== "string" || cwd.trim() === "" || cwd.includes("\0")) return { ok: false, message: "no working directory given" };
  if (!path.isAbsolute(cwd)) return { ok: false, message: `working directory must be an absolute path: ${cwd}` };
  let real: string;
  try {
    real = fs.realpathSync(cwd);
    if (!fs.statSync(real).isDirectory()) return { ok: false, message: `not a directory: ${cwd}` };
  } catch {
    return { ok: false, message: `working directory does not exist: ${cwd}` };
  }
  if (!roots.some((root) => isInside(real, root)))
    return { ok: false, message: `working directory is outside the allowed roots: ${cwd}` };
  return { ok: true, cwd: real };
}
