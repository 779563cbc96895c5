// The agent's process group dies with it: a child that outlives the agent's SIGTERM (codex's exec helpers,
// a shell command mid-run) must not keep writing into the workspace after the session is closed.
import { describe, expect, it } from "vitest";
import { spawnAgent } from "../../daemon/src/agent/agent-process";

const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(process.platform === "win32")("agent process group", () => {
  it("kill() leaves no member of the agent's group behind, even one that ignores SIGTERM", async () => {
    // The leader exits on SIGTERM; its child ignores SIGTERM and would live on for 30 s.
    const proc = spawnAgent({ command: "sh", args: ["-c", "(trap '' TERM; exec sleep 30) & sleep 30; wait"] }, process.cwd());
    const pgid = proc.child.pid;
    expect(pgid).toBeTypeOf("number");
    await new Promise((r) => setTimeout(r, 200));
    expect(groupAlive(pgid!)).toBe(true);
    await proc.kill();
    // SIGKILL is delivered at once; the kernel may take a moment to tear the process down.
    const until = Date.now() + 2000;
    while (groupAlive(pgid!) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(groupAlive(pgid!)).toBe(false);
  }, 15_000);
});
