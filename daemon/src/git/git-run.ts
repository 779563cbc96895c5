/** The thin `git` process runner: argv only (no shell), bounded time and output, git's own message on failure. */
import { execFile, spawn } from "node:child_process";

/** One git command's wall-clock bound: local operations (worktree add on a big repo included) finish well inside it. */
export const GIT_TIMEOUT_MS = 60_000;
/** Output read from one git command: a status or branch list is far smaller; a diff is bounded by its caller. */
export const GIT_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

/** git could not be started at all (not installed, not on PATH). */
export class GitMissing extends Error {
  constructor() {
    super("git is not installed on this machine (or not on the daemon's PATH)");
  }
}

/** git ran and refused: `message` is its first stderr line. */
export class GitFailed extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super(message);
  }
}

/** `env`: variables added for this one command (a turn snapshot's temporary index). */
export type GitRun = (args: readonly string[], cwd: string, env?: Readonly<Record<string, string>>) => Promise<string>;

/** A runner for the `git` executable `bin` (tests pass a missing one to see GitMissing). */
export function gitRunner(bin = "git"): GitRun {
  return (args, cwd, env) =>
    new Promise((resolve, reject) => {
      execFile(
        bin,
        [...args],
        {
          cwd,
          timeout: GIT_TIMEOUT_MS,
          maxBuffer: GIT_MAX_OUTPUT_BYTES,
          encoding: "utf8",
          // No prompts (credentials, editors) from a daemon nobody watches; messages in English to quote them.
          env: { ...process.env, ...env, GIT_TERMINAL_PROMPT: "0", GIT_EDITOR: "true", LC_ALL: "C" },
        },
        (err, stdout, stderr) => {
          if (!err) return resolve(stdout);
          if ((err as NodeJS.ErrnoException).code === "ENOENT" && !stderr) return reject(new GitMissing());
          const line = stderr.split("\n").map((l) => l.replace(/^(fatal|error): /, "").trim()).find(Boolean);
          reject(new GitFailed(line ?? err.message, typeof err.code === "number" ? err.code : null));
        },
      );
    });
}

/**
 * Runs git and reads at most `maxBytes` of its output: a larger one is cut there (the process is stopped),
 * `truncated` says so. For diffs, whose size the person's changes decide.
 */
export function gitRunBounded(args: readonly string[], cwd: string, maxBytes: number, bin = "git"): Promise<{ text: string; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [...args], { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" }, stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), GIT_TIMEOUT_MS);
    child.stdout.on("data", (b: Buffer) => {
      if (truncated) return;
      const room = maxBytes - size;
      if (b.length > room) {
        chunks.push(b.subarray(0, room));
        size = maxBytes;
        truncated = true;
        child.kill("SIGKILL");
        return;
      }
      chunks.push(b);
      size += b.length;
    });
    child.stderr.on("data", (b: Buffer) => {
      if (stderr.length < 4096) stderr += b.toString("utf8");
    });
    child.on("error", (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(err.code === "ENOENT" ? new GitMissing() : err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (truncated || code === 0) return resolve({ text: Buffer.concat(chunks).toString("utf8"), truncated });
      const line = stderr.split("\n").map((l) => l.replace(/^(fatal|error): /, "").trim()).find(Boolean);
      reject(new GitFailed(line ?? `git exited with ${code}`, code));
    });
  });
}
