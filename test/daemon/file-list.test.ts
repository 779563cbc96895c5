/**
 * Issue 29 #3, daemon side: the `files.list` ask on real temp directories and a real git repository — the
 * machine's roots and the session directory enforced, ".." and symlink escapes refused, .gitignore respected
 * (git ls-files in a repository, the walk elsewhere), the answer bounded, and the timeout.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAskHandler } from "../../daemon/src/agent/agent-asks";
import { createFileListHandler, listFiles } from "../../daemon/src/files/file-list";
import { silentLogger } from "../../daemon/src/log";
import { routeAsks } from "../../daemon/src/tunnel/ask-router";
import { AskErrorCode, MAX_LISTED_FILES, outcomeOf } from "../../shared/tunnel-ask";

let tmp: string;
let root: string;
let outside: string;

function write(rel: string, text = "x\n", base = root) {
  const full = path.join(base, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd, stdio: "pipe" });

async function names(cwd: string, query = "", extra: Partial<Parameters<typeof listFiles>[0]> = {}) {
  const out = await listFiles({ cwd, roots: [root], query, ...extra });
  if (!out.ok) throw new Error(`${out.code}: ${out.message}`);
  return out.list;
}

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "baton-files-")));
  root = path.join(tmp, "root");
  outside = path.join(tmp, "outside");
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  write("secret.txt", "top secret\n", outside);
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("files.list in a git repository", () => {
  it("lists tracked and untracked files, leaves out what .gitignore ignores, ranks by the fuzzy query", async () => {
    const repo = path.join(root, "proj");
    write("proj/src/app.ts");
    write("proj/src/api/apple.ts");
    write("proj/README.md");
    write("proj/.gitignore", "dist/\n*.log\n");
    write("proj/dist/bundle.js");
    write("proj/debug.log");
    git(repo, "init", "-q");
    git(repo, "add", "src/app.ts", "README.md", ".gitignore");
    git(repo, "commit", "-q", "-m", "init");
    write("proj/notes/todo.md"); // untracked, not ignored: listed
    const all = await names(repo);
    expect(all.root).toBe(repo);
    expect([...all.files].sort()).toEqual([".gitignore", "README.md", "notes/todo.md", "src/api/apple.ts", "src/app.ts"]);
    expect(all.truncated).toBe(false);
    expect((await names(repo, "app")).files.slice(0, 2)).toEqual(["src/app.ts", "src/api/apple.ts"]);
    expect((await names(repo, "bundle")).files).toEqual([]);
  });

  it("a subdirectory of a repository lists only what is under it, relative to it", async () => {
    const repo = path.join(root, "proj");
    write("proj/a/one.ts");
    write("proj/b/two.ts");
    git(repo, "init", "-q");
    expect((await names(path.join(repo, "a"))).files).toEqual(["one.ts"]);
  });

  it("a tracked symlink to a file outside the directory is left out; one inside is kept", async () => {
    const repo = path.join(root, "proj");
    write("proj/real.ts");
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(repo, "leak.txt"));
    fs.symlinkSync("real.ts", path.join(repo, "alias.ts"));
    git(repo, "init", "-q");
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "links");
    expect([...(await names(repo)).files].sort()).toEqual(["alias.ts", "real.ts"]);
  });
});

describe("files.list without a repository (the walk)", () => {
  it("honours .gitignore files at every level, skips node_modules and .git, never follows a directory symlink out", async () => {
    write("plain/keep.ts");
    write("plain/.gitignore", "build/\nsecret-*\n");
    write("plain/build/out.js");
    write("plain/secret-key.pem");
    write("plain/sub/.gitignore", "*.tmp\n");
    write("plain/sub/a.tmp");
    write("plain/sub/b.ts");
    write("plain/node_modules/dep/index.js");
    fs.symlinkSync(outside, path.join(root, "plain", "escape"));
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "plain", "leak.txt"));
    expect([...(await names(path.join(root, "plain"))).files].sort()).toEqual([".gitignore", "keep.ts", "sub/.gitignore", "sub/b.ts"]);
  });
});

describe("files.list confinement and bounds", () => {
  it("a directory outside the machine's roots is refused, also through '..' and through a symlink", async () => {
    const direct = await listFiles({ cwd: outside, roots: [root], query: "" });
    expect(direct).toMatchObject({ ok: false, code: AskErrorCode.BAD_REQUEST, message: expect.stringMatching(/outside the allowed roots/) });
    const dotdot = await listFiles({ cwd: path.join(root, "..", "outside"), roots: [root], query: "" });
    expect(dotdot).toMatchObject({ ok: false, code: AskErrorCode.BAD_REQUEST });
    fs.symlinkSync(outside, path.join(root, "link-out"));
    const viaLink = await listFiles({ cwd: path.join(root, "link-out"), roots: [root], query: "secret" });
    expect(viaLink).toMatchObject({ ok: false, code: AskErrorCode.BAD_REQUEST });
    const relative = await listFiles({ cwd: "root", roots: [root], query: "" });
    expect(relative).toMatchObject({ ok: false, code: AskErrorCode.BAD_REQUEST, message: expect.stringMatching(/absolute/) });
  });

  it("the answer is bounded: at most MAX_LISTED_FILES, and a tree beyond the scan bound says it is truncated", async () => {
    for (let i = 0; i < MAX_LISTED_FILES + 20; i++) write(`many/f${String(i).padStart(3, "0")}.txt`);
    const all = await names(path.join(root, "many"));
    expect(all.files).toHaveLength(MAX_LISTED_FILES);
    expect(all.truncated).toBe(false);
    const scanned = await names(path.join(root, "many"), "", { maxScanned: 10 });
    expect(scanned.files).toHaveLength(10);
    expect(scanned.truncated).toBe(true);
    git(path.join(root, "many"), "init", "-q");
    const gitScanned = await names(path.join(root, "many"), "", { maxScanned: 10 });
    expect(gitScanned.files).toHaveLength(10);
    expect(gitScanned.truncated).toBe(true);
  });

  it("a listing that outlasts its timeout answers ASK_TIMEOUT, outside a repository and in one", async () => {
    write("slow/a.ts");
    expect(await listFiles({ cwd: path.join(root, "slow"), roots: [root], query: "", timeoutMs: 0 })).toMatchObject({ ok: false, code: AskErrorCode.TIMEOUT });
    git(path.join(root, "slow"), "init", "-q");
    expect(await listFiles({ cwd: path.join(root, "slow"), roots: [root], query: "", timeoutMs: 0 })).toMatchObject({ ok: false, code: AskErrorCode.TIMEOUT });
  });
});

describe("the files.list ask through the daemon's router", () => {
  it("is answered by the file lister (no agent), its answer fits the Machine's schema; bad input is BAD_REQUEST; other kinds still reach the agent asks", async () => {
    write("proj/src/app.ts");
    const ask = routeAsks({
      byKind: { "files.list": createFileListHandler({ roots: [root], log: silentLogger }) },
      otherwise: createAskHandler({ agents: [], roots: [root], log: silentLogger }),
    });
    const ok = outcomeOf("files.list", await ask({ kind: "files.list", cwd: path.join(root, "proj"), query: "app" }));
    expect(ok).toEqual({ ok: true, result: { root: path.join(root, "proj"), files: ["src/app.ts"], truncated: false } });
    expect(await ask({ kind: "files.list", cwd: path.join(root, "proj"), query: "x".repeat(300) })).toMatchObject({ ok: false, code: AskErrorCode.BAD_REQUEST });
    expect(await ask({ kind: "files.list", cwd: outside, query: "" })).toMatchObject({ ok: false, code: AskErrorCode.BAD_REQUEST });
    expect(await ask({ kind: "agent.sessions.list", agentId: "nope", cwd: root })).toMatchObject({ ok: false, code: AskErrorCode.AGENT_REFUSED });
    expect(await ask({ kind: "files.delete" })).toMatchObject({ ok: false, code: AskErrorCode.UNKNOWN_ASK });
  });
});
