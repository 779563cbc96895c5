/**
 * Pure rules for the worktree's diff (issue 28 #2): git's unified diff cut into files, a new (untracked) file as
 * a patch, what counts as binary, and the byte budget that keeps the answer inside one tunnel reply.
 */
import type { ChangedFile } from "../../../shared/worktree";

/** Bytes scanned for a NUL to call a file binary (git's own heuristic reads the first 8000). */
export const BINARY_SNIFF_BYTES = 8000;

export function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** The path git prints after `a/` or `b/` (quoted when it holds unusual characters). */
function unquote(p: string): string {
  if (!p.startsWith('"')) return p;
  try {
    return JSON.parse(p) as string;
  } catch {
    return p.slice(1, -1);
  }
}

/** `git diff` output (with `--no-prefix` off, `-M`) as one entry per file. */
export function splitPatch(text: string): ChangedFile[] {
  if (!text.trim()) return [];
  const out: ChangedFile[] = [];
  const chunks = text.split(/^(?=diff --git )/m).filter((c) => c.startsWith("diff --git "));
  for (const chunk of chunks) {
    const lines = chunk.split("\n");
    let oldPath: string | null = null;
    let newPath: string | null = null;
    let status: ChangedFile["status"] = "modified";
    let binary = false;
    for (const line of lines) {
      if (line.startsWith("@@")) break;
      if (line.startsWith("--- ")) oldPath = line === "--- /dev/null" ? oldPath : unquote(line.slice(4)).replace(/^a\//, "");
      else if (line.startsWith("+++ ")) newPath = line === "+++ /dev/null" ? newPath : unquote(line.slice(4)).replace(/^b\//, "");
      else if (line.startsWith("new file mode")) status = "added";
      else if (line.startsWith("deleted file mode")) status = "deleted";
      else if (line.startsWith("rename from ")) (oldPath = unquote(line.slice(12))), (status = "renamed");
      else if (line.startsWith("rename to ")) newPath = unquote(line.slice(10));
      else if (line.startsWith("Binary files ") || line === "GIT binary patch") binary = true;
    }
    if (!newPath || !oldPath) {
      // No ---/+++ lines (binary, mode-only, pure rename): the header's `a/x b/x`.
      const m = /^diff --git (?:"a\/(.+?)"|a\/(\S+)) (?:"b\/(.+?)"|b\/(\S+))$/.exec(lines[0] ?? "");
      oldPath ??= m?.[1] ?? m?.[2] ?? null;
      newPath ??= m?.[3] ?? m?.[4] ?? oldPath;
    }
    const path = status === "deleted" ? (oldPath ?? newPath ?? "?") : (newPath ?? oldPath ?? "?");
    const hunkAt = chunk.search(/^@@/m);
    out.push({
      path,
      oldPath: status === "renamed" ? oldPath : null,
      status,
      binary,
      patch: binary ? null : hunkAt >= 0 ? chunk.slice(hunkAt).replace(/\n$/, "") : "",
      truncated: false,
    });
  }
  return out;
}

/** An untracked file's content as a patch adding every line (git's own shape for a new file). */
export function newFilePatch(text: string): string {
  if (!text) return "";
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  const lines = body.split("\n");
  return `@@ -0,0 +1${lines.length === 1 ? "" : `,${lines.length}`} @@\n${lines.map((l) => `+${l}`).join("\n")}${text.endsWith("\n") ? "" : "\n\\ No newline at end of file"}`;
}

/**
 * The files in order, their patches kept while the budget lasts (a file past it is listed, patch null,
 * truncated); at most `maxFiles` listed. The note says what was left out.
 */
export function withinBudget(files: readonly ChangedFile[], maxChars: number, maxFiles: number): { files: ChangedFile[]; note: string | null } {
  let used = 0;
  let cut = 0;
  const kept = files.slice(0, maxFiles).map((f) => {
    if (f.patch === null) return f;
    if (used + f.patch.length > maxChars) {
      cut++;
      return { ...f, patch: null, truncated: true };
    }
    used += f.patch.length;
    return f;
  });
  const notes: string[] = [];
  if (cut) notes.push(`${cut} ${cut === 1 ? "file's diff" : "files' diffs"} left out: the diff is larger than ${Math.round(maxChars / 1024)} KB`);
  if (files.length > maxFiles) notes.push(`${files.length - maxFiles} more files not listed`);
  return { files: kept, note: notes.length ? notes.join("; ") : null };
}
