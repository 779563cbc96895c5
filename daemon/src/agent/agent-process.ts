/** One agent subprocess: spawned with stdio pipes in its own process group, killed as a group. */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";

/** How long an agent gets to exit on SIGTERM before SIGKILL: enough to flush, short enough for a snappy close. */
const KILL_GRACE_MS = 2000;
/** How often a closing agent's leftover group members are checked for. */
const GROUP_POLL_MS = 50;
/** Stderr lines kept for crash messages: the last few usually say why. */
const STDERR_TAIL_LINES = 20;

export type LaunchSpec = { command: string; args: readonly string[]; env?: Readonly<Record<string, string>> };
export type ExitInfo = { code: number | null; signal: NodeJS.Signals | null; error?: string };

export type AgentProcess = {
  readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  readonly exited: Promise<ExitInfo>;
  readonly hasExited: () => boolean;
  stderrTail(): string[];
  kill(): Promise<void>;
};

export function describeExit(e: ExitInfo): string {
  if (e.error) return `agent could not start: ${e.error}`;
  return `agent exited (${e.signal ? `signal ${e.signal}` : `code ${e.code}`})`;
}

export function spawnAgent(spec: LaunchSpec, cwd: string, onStderrLine?: (line: string) => void): AgentProcess {
  const child = spawn(spec.command, [...spec.args], {
    cwd,
    env: { ...process.env, ...(spec.env ?? {}) },
    stdio: ["pipe", "pipe", "pipe"],
    // Own process group so npx-style wrappers and their children die together.
    detached: process.platform !== "win32",
    windowsHide: true,
  });
  const tail: string[] = [];
  let partial = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > STDERR_TAIL_LINES) tail.shift();
      onStderrLine?.(line);
    }
  });
  // A dead agent makes writes fail with EPIPE; the exit handler reports it, the error must not crash us.
  child.stdin.on("error", () => {});
  child.stdout.on("error", () => {});
  child.stderr.on("error", () => {});

  let done = false;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once("error", (err) => {
      if (done) return;
      done = true;
      resolve({ code: null, signal: null, error: err.message });
    });
    child.once("exit", (code, signal) => {
      if (done) return;
      done = true;
      resolve({ code, signal });
    });
  });

  const signalGroup = (sig: NodeJS.Signals) => {
    if (done || child.pid === undefined) return;
    try {
      if (process.platform !== "win32") process.kill(-child.pid, sig);
      else child.kill(sig);
    } catch {
      try {
        child.kill(sig);
      } catch {
        /* already gone */
      }
    }
  };

  /** Members of the agent's group that outlive it (a command it ran, an exec helper): TERM, then KILL after the grace. */
  const reapGroup = async () => {
    const pgid = child.pid;
    if (process.platform === "win32" || pgid === undefined) return;
    const signal = (sig: NodeJS.Signals | 0): boolean => {
      try {
        process.kill(-pgid, sig);
        return true;
      } catch {
        return false; // ESRCH: the group is gone
      }
    };
    if (!signal("SIGTERM")) return;
    const until = Date.now() + KILL_GRACE_MS;
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, GROUP_POLL_MS));
      if (!signal(0)) return;
    }
    signal("SIGKILL");
  };

  return {
    child,
    exited,
    hasExited: () => done,
    stderrTail: () => [...tail, ...(partial.trim() ? [partial] : [])],
    async kill() {
      if (done) return reapGroup();
      child.stdin.end();
      signalGroup("SIGTERM");
      const timer = setTimeout(() => signalGroup("SIGKILL"), KILL_GRACE_MS);
      await exited;
      clearTimeout(timer);
      await reapGroup();
    },
  };
}
