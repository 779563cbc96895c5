// Issue 28 #2, per turn from git, with real git in temp repositories: a snapshot is the worktree as a tree
// (untracked files in, ignored files out) without touching the index or the files; the session host takes one
// before the prompt reaches the agent and one after it answered; `turnDiff` between them is that turn's changes
// only; a Stop during the start snapshot sends no prompt; bad ids and paths outside the roots are refused.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitRunner } from "../../daemon/src/git/git-run";
import { snapshotTree, turnSnapshots } from "../../daemon/src/git/turn-snapshot";
import { turnDiff, type WorktreeContext } from "../../daemon/src/git/worktrees";
import { createGitAskHandler } from "../../daemon/src/git/git-asks";
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import { git, tempRepo } from "./git-repo";
import { agentText, type HostFixture, makeHostFixture } from "./host-harness";

const run = gitRunner();
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function repo() {
  const t = tempRepo();
  cleanups.push(t.cleanup);
  return t;
}

/** Index, HEAD and status: what a snapshot must leave as it was. */
const checkoutState = (dir: string) => ({
  index: fs.readFileSync(path.join(dir, ".git", "index")).toString("base64"),
  status: git(dir, "status", "--porcelain", "--untracked-files=all"),
  head: git(dir, "rev-parse", "HEAD"),
});

describe("snapshotTree", () => {
  it("takes tracked, changed and untracked files, not ignored ones, and leaves the index and files alone", async () => {
    const t = repo();
    fs.writeFileSync(path.join(t.repo, ".gitignore"), "build/\n");
    fs.mkdirSync(path.join(t.repo, "build"));
    fs.writeFileSync(path.join(t.repo, "build", "out.js"), "generated\n");
    fs.writeFileSync(path.join(t.repo, "src", "a.ts"), "export const a = 2;\n");
    fs.writeFileSync(path.join(t.repo, "new.txt"), "untracked\n");
    git(t.repo, "add", "README.md");
    const before = checkoutState(t.repo);
    const tree = await snapshotTree(run, path.join(t.repo, "src"));
    expect(tree).toMatch(/^[0-9a-f]{40}$/);
    expect(git(t.repo, "ls-tree", "-r", "--name-only", tree).trim().split("\n").sort()).toEqual([".gitignore", "README.md", "new.txt", "src/a.ts"]);
    expect(git(t.repo, "show", `${tree}:src/a.ts`)).toBe("export const a = 2;\n");
    expect(checkoutState(t.repo)).toEqual(before);
    // The same contents: the same tree.
    expect(await snapshotTree(run, t.repo)).toBe(tree);
  });

  it("is taken only in the managed worktrees folder; elsewhere, or where git fails, there is none", async () => {
    const t = repo();
    const managed = turnSnapshots(run, t.worktrees);
    expect(await managed(t.repo)).toBeNull();
    expect(await turnSnapshots(run, null)(t.repo)).toBeNull();
    const wt = path.join(t.worktrees, "repo", "one");
    git(t.repo, "worktree", "add", "-q", "-b", "one", wt);
    expect(await managed(wt)).toMatch(/^[0-9a-f]{40}$/);
    fs.mkdirSync(path.join(t.worktrees, "plain"));
    expect(await managed(path.join(t.worktrees, "plain"))).toBeNull();
    // git that does not answer in time: no snapshot, and the turn is not held back longer than the bound.
    const slow: typeof run = (args, cwd, env) => new Promise((r) => setTimeout(() => r(run(args, cwd, env)), 2_000));
    const t0 = Date.now();
    expect(await turnSnapshots(slow, t.worktrees, 100)(wt)).toBeNull();
    // Less than the slow git's 2 s: the 100 ms bound cut it short (a loaded machine adds its own delay).
    expect(Date.now() - t0).toBeLessThan(2_000);
  });
});

describe("a turn's snapshots in the session host (the real demo agent)", () => {
  let f: HostFixture | null = null;
  afterEach(async () => {
    await f?.close();
    f = null;
  });

  /** A host whose root is a repository and the managed folder (so its sessions are snapshotted); `gate` holds the snapshot. */
  function gitHost(gate?: () => Promise<void>) {
    let dir = "";
    const fx = makeHostFixture({
      snapshot: async (cwd) => {
        await gate?.();
        return turnSnapshots(run, dir)(cwd);
      },
    });
    f = fx;
    dir = fx.root;
    git(fx.root, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(fx.root, "notes.txt"), "one\n");
    git(fx.root, "add", ".");
    git(fx.root, "commit", "-q", "-m", "first");
    return fx;
  }
  const treesOf = (fx: HostFixture, turnId: string) => fx.rec.of("turn.tree").filter((e) => e.turnId === turnId);

  it("start before the prompt reaches the agent, end after it answered; the diff between them is that turn's edits only", async () => {
    const fx = gitHost();
    await fx.open("s1");
    // The person's own edit before the turn is not the turn's.
    fs.writeFileSync(path.join(fx.root, "notes.txt"), "one\ntwo\n");
    const before = checkoutState(fx.root);
    expect((await fx.turn("s1", "t1", "write made.txt made by the agent")).stopReason).toBe("end_turn");
    await fx.rec.waitFor((e) => e.t === "turn.tree" && e.turnId === "t1" && e.edge === "end");
    const kinds = fx.rec.events.filter((e) => e.sessionId === "s1" && (e.t !== "session.update" || e.update.sessionUpdate !== "available_commands_update")).map((e) => (e.t === "turn.tree" ? `tree.${e.edge}` : e.t));
    const at = (k: string) => kinds.indexOf(k);
    expect(at("turn.started")).toBeLessThan(at("tree.start"));
    expect(at("tree.start")).toBeLessThan(at("session.update"));
    expect(at("turn.ended")).toBeLessThan(at("tree.end"));
    const [start, end] = treesOf(fx, "t1") as Extract<DaemonEvent, { t: "turn.tree" }>[];
    expect(agentText(fx.rec, "s1")).toContain("I wrote `made.txt`.");
    const ctx: WorktreeContext = { git: run, roots: [fx.root], dir: fx.root };
    const diff = await turnDiff(ctx, fx.root, { from: start!.tree, to: end!.tree });
    expect(diff.files.map((x) => [x.path, x.status])).toEqual([["made.txt", "added"]]);
    expect(diff.files[0]!.patch).toContain("+made by the agent");
    // The checkout's index is as it was; the agent's file is untracked there, as the agent left it.
    expect(checkoutState(fx.root).index).toBe(before.index);
    expect(git(fx.root, "status", "--porcelain")).toContain("?? made.txt");

    // The next turn's diff has only its own edit.
    await fx.turn("s1", "t2", "write notes.txt rewritten");
    await fx.rec.waitFor((e) => e.t === "turn.tree" && e.turnId === "t2" && e.edge === "end");
    const [s2, e2] = treesOf(fx, "t2") as Extract<DaemonEvent, { t: "turn.tree" }>[];
    expect(s2!.tree).toBe(end!.tree);
    const second = await turnDiff(ctx, fx.root, { from: s2!.tree, to: e2!.tree });
    expect(second.files.map((x) => [x.path, x.status])).toEqual([["notes.txt", "modified"]]);
    expect(second.files[0]!.patch).toContain("-two");
    expect(second.files[0]!.patch).toContain("+rewritten");

    // Through the ask: the same answer; a made-up id, a blob and a path outside the roots are refused.
    const asks = createGitAskHandler({ git: run, roots: [fx.root], dir: fx.root });
    expect(await asks({ kind: "git.diff", path: fx.root, from: s2!.tree, to: e2!.tree })).toMatchObject({ ok: true, result: { files: [{ path: "notes.txt" }] } });
    expect(await asks({ kind: "git.diff", path: fx.root, from: "0".repeat(40), to: e2!.tree })).toMatchObject({ ok: false, code: "GIT_REFUSED", message: expect.stringContaining("not a snapshot") });
    const blob = git(fx.root, "rev-parse", `${e2!.tree}:notes.txt`).trim();
    expect(await asks({ kind: "git.diff", path: fx.root, from: blob, to: e2!.tree })).toMatchObject({ ok: false, code: "GIT_REFUSED" });
    expect(await asks({ kind: "git.diff", path: "/etc", from: s2!.tree, to: e2!.tree })).toMatchObject({ ok: false, code: "GIT_REFUSED" });
  });

  it("a Stop during the start snapshot ends the turn cancelled without sending the prompt", async () => {
    let release: () => void = () => {};
    let hold = false;
    const fx = gitHost(() => (hold ? new Promise<void>((r) => (release = r)) : Promise.resolve()));
    await fx.open("c1");
    hold = true;
    const mark = fx.rec.events.length;
    fx.send({ t: "prompt", sessionId: "c1", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "write never.txt no" }] });
    await fx.rec.waitFor((e) => e.t === "turn.started", 5000, mark);
    fx.send({ t: "cancel", sessionId: "c1" });
    release();
    const ended = await fx.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t1", 5000, mark);
    expect(ended).toMatchObject({ stopReason: "cancelled" });
    expect(fx.rec.events.slice(mark).some((e) => e.t === "session.update" && e.update.sessionUpdate === "agent_message_chunk")).toBe(false);
    expect(fs.existsSync(path.join(fx.root, "never.txt"))).toBe(false);
    // The next turn runs as usual.
    hold = false;
    expect((await fx.turn("c1", "t2", "hello")).stopReason).toBe("end_turn");
  });
});
