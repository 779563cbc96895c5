/**
 * Lexical path checks shared by the Worker (refuse a session outside the machine's advertised roots
 * before anything starts) and the client. The daemon stays authoritative: it also follows symlinks.
 */

/** Normalises an absolute POSIX path (".", "..", repeated and trailing slashes); null if not absolute. */
export function normalizePosix(p: string): string | null {
  if (!p.startsWith("/") || p.includes("\0")) return null;
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

/**
 * Whether `cwd` lies in one of `roots`. Roots that are not POSIX paths (a Windows daemon) cannot be
 * judged lexically here, so they admit anything and leave the decision to the daemon.
 */
export function insideRoots(cwd: string, roots: readonly string[]): boolean {
  if (roots.length === 0) return true;
  const c = normalizePosix(cwd);
  return roots.some((root) => {
    const r = normalizePosix(root);
    if (r === null) return true;
    if (c === null) return false;
    return r === "/" || c === r || c.startsWith(`${r}/`);
  });
}

/**
 * `s` without its trailing slashes, in one pass from the end (`s.replace(/\/+$/, "")` backtracks from every slash of
 * a long run that does not end the string: 40 KB of them took 0.9 s).
 */
export function withoutTrailingSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 47 /* "/" */) end--;
  return end === s.length ? s : s.slice(0, end);
}
