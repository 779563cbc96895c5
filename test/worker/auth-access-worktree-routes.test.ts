/**
 * Issue 28 in workerd: the worktree routes (worker/worktree-routes.ts) on a real tunnel socket whose test daemon
 * answers the git asks — who may ask what (owner / member / viewer / stranger), that the daemon is asked about
 * the session's own worktree (never a path the caller names), a session made in a worktree and one whose
 * worktree was refused (nothing created), an offline machine, and replies that are too large or do not fit.
 */
import { afterAll, describe, expect, it } from "vitest";
import { MAX_ASK_REPLY_BYTES } from "../../shared/limits";
import type { MachineFrame } from "../../shared/tunnel-protocol";
import type { GitStatus, SessionWorktree, WorktreeDiff } from "../../shared/worktree";
import { asUser, AuthedViewer, call } from "./auth-harness";
import { settleTracked, track } from "./access-settle";
import { TestDaemon, waitFor } from "./harness";

afterAll(settleTracked, 60_000);

const OWNER = "wt-owner@example.com";
const MEMBER = "wt-member@example.com";
const VIEWER = "wt-viewer@example.com";
const STRANGER = "wt-stranger@example.com";

type Ask = Extract<MachineFrame, { type: "ask" }>;
/** What the test daemon replies to one ask: a reply's fields, a raw frame (string), or nothing (silent). */
type Answer = { ok: true; result: unknown } | { ok: false; code: string; message: string } | string | undefined;

const STATUS: GitStatus = { branch: "baton/fix", base: "main", ahead: 2, behind: 1, files: 3, untracked: 1, upstream: null };
const DIFF: WorktreeDiff = {
  base: "main",
  files: [{ path: "src/app.ts", oldPath: null, status: "modified", binary: false, patch: "@@ -1 +1 @@\n-a\n+b\n", truncated: false }],
  note: null,
};
const worktreeFor = (sessionId: string, branch: string): SessionWorktree => ({
  repoRoot: "/work",
  repoName: "work",
  worktreePath: `/work/.worktrees/work/${sessionId}`,
  path: `/work/.worktrees/work/${sessionId}`,
  branch,
  base: "main",
});

/** The daemon's answers by ask kind; a test changes them as it goes. */
function defaultAnswers(): Record<string, (a: Ask) => Answer> {
  return {
    "git.repo": () => ({ ok: true, result: { repo: { root: "/work", name: "work", branch: "main", branches: ["main", "dev"] }, reason: null } }),
    "git.worktree.create": (a) => ({ ok: true, result: worktreeFor(String(a.request.sessionId), String(a.request.branch)) }),
    "git.worktree.remove": (a) =>
      a.request.force ? { ok: true, result: { removed: true, reason: null, dirtyFiles: 0, unpushedCommits: 0 } } : { ok: true, result: { removed: false, reason: "3 uncommitted files", dirtyFiles: 3, unpushedCommits: 0 } },
    "git.status": () => ({ ok: true, result: STATUS }),
    "git.diff": () => ({ ok: true, result: DIFF }),
    "git.commit": () => ({ ok: true, result: { commit: "abc1234def", summary: "1 file changed", status: { ...STATUS, files: 0, untracked: 0, ahead: 3 } } }),
  };
}

async function start() {
  const owner = await asUser(OWNER);
  const pair = await call<{ machine: { id: string }; token: string }>("/api/machines", { method: "POST", headers: owner, body: JSON.stringify({ name: "laptop" }) });
  const machineId = pair.body.machine.id;
  const daemon = new TestDaemon(pair.body.token);
  await daemon.connect();
  const asks: Ask[] = [];
  const answers = defaultAnswers();
  daemon.ws.addEventListener("message", (e) => {
    const f = JSON.parse(e.data as string) as MachineFrame;
    if (f.type !== "ask") return;
    asks.push(f);
    const reply = answers[f.request.kind]?.(f) ?? { ok: false, code: "UNKNOWN_ASK", message: "not answered here" };
    if (reply !== undefined) daemon.ws.send(typeof reply === "string" ? reply : JSON.stringify({ type: "reply", id: f.id, ...reply }));
  });
  const ownSessions: string[] = [];
  const create = async (body: Record<string, unknown>) => {
    const r = await call<{ session: { id: string; cwd: string; worktree: SessionWorktree | null } }>("/api/sessions", {
      method: "POST",
      headers: owner,
      body: JSON.stringify({ machineId, agentId: "demo", cwd: "/work", ...body }),
    });
    if (r.status === 201) ownSessions.push(r.body.session.id);
    return r;
  };
  const created = await create({ worktree: { base: "main", branch: "baton/fix" } });
  expect(created.status).toBe(201);
  const sessionId = created.body.session.id;
  track(daemon, [
    { headers: owner, sessionIds: ownSessions },
    { headers: await asUser(MEMBER), sessionIds: [sessionId] },
    { headers: await asUser(VIEWER), sessionIds: [sessionId] },
  ]);
  await waitFor(() => daemon.of("session.open").some((c) => c.sessionId === sessionId), "session.open");
  await daemon.settle();
  for (const [email, role] of [[MEMBER, "member"], [VIEWER, "viewer"]] as const)
    expect((await call(`/api/sessions/${sessionId}/members`, { method: "POST", headers: owner, body: JSON.stringify({ email, role }) })).status).toBe(201);
  return { machineId, sessionId, session: created.body.session, daemon, asks, answers, owner, create };
}

/** Asks again until `ok` holds (the machine going offline takes a moment to reach the directory). */
async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 250; i++) {
    const v = await fn();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const as = async (email: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  call(path, { ...init, headers: { ...(await asUser(email)), ...init.headers } });
const post = (email: string, path: string, body: unknown) => as(email, path, { method: "POST", body: JSON.stringify(body) });

describe("a session in a worktree", () => {
  it("is made in the worktree the daemon made for it; a refused worktree creates no session", async () => {
    const s = await start();
    const made = s.asks.find((a) => a.request.kind === "git.worktree.create")!;
    expect(made.request).toEqual({ kind: "git.worktree.create", cwd: "/work", base: "main", branch: "baton/fix", sessionId: s.sessionId });
    expect(s.session.worktree).toEqual(worktreeFor(s.sessionId, "baton/fix"));
    expect(s.session.cwd).toBe(`/work/.worktrees/work/${s.sessionId}`);
    expect(s.daemon.of("session.open").find((c) => c.sessionId === s.sessionId)!.cwd).toBe(s.session.cwd);

    const before = (await call<{ sessions: unknown[] }>("/api/sessions", { headers: s.owner })).body.sessions.length;
    s.answers["git.worktree.create"] = () => ({ ok: false, code: "GIT_REFUSED", message: "'bad..name' is not a valid branch name" });
    expect(await s.create({ worktree: { base: "main", branch: "bad..name" } })).toMatchObject({ status: 422, body: { error: { code: "GIT_REFUSED", message: expect.stringContaining("not a valid branch name") } } });
    s.answers["git.worktree.create"] = () => ({ ok: false, code: "GIT_MISSING", message: "git is not installed" });
    expect(await s.create({ worktree: { base: "main", branch: "x" } })).toMatchObject({ status: 422, body: { error: { code: "GIT_MISSING" } } });
    expect((await call<{ sessions: unknown[] }>("/api/sessions", { headers: s.owner })).body.sessions.length).toBe(before);
    expect(s.daemon.of("session.open")).toHaveLength(1);
  });
});

describe("GET /api/machines/:id/git (New session's worktree option)", () => {
  it("answers the machine's owner with the repository; anyone else sees no machine; bad input and outside the roots are not asked", async () => {
    const s = await start();
    const url = (cwd: string) => `/api/machines/${s.machineId}/git?cwd=${encodeURIComponent(cwd)}`;
    const asked = () => s.asks.filter((a) => a.request.kind === "git.repo");
    expect(await as(OWNER, url("/work/app"))).toMatchObject({ status: 200, body: { repo: { root: "/work", branch: "main" }, reason: null } });
    expect(asked().at(-1)!.request).toEqual({ kind: "git.repo", cwd: "/work/app" });
    const n = asked().length;
    // A member of one of its sessions is not the machine's owner.
    for (const who of [MEMBER, VIEWER, STRANGER]) expect(await as(who, url("/work"))).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    expect(await as(OWNER, `/api/machines/${s.machineId}/git`)).toMatchObject({ status: 400 });
    expect(await as(OWNER, url(`/work/${"x".repeat(4100)}`))).toMatchObject({ status: 400 });
    expect(await as(OWNER, url("/etc"))).toMatchObject({ status: 200, body: { repo: null, reason: "the directory is outside the machine's allowed roots" } });
    expect(asked().length).toBe(n);
  });

  it("every failure is an answer with its reason: an old daemon, a misfit reply, git's refusal, an offline machine", async () => {
    const s = await start();
    const url = `/api/machines/${s.machineId}/git?cwd=/work`;
    s.answers["git.repo"] = () => ({ ok: false, code: "UNKNOWN_ASK", message: "unknown ask kind" });
    expect(await as(OWNER, url)).toMatchObject({ status: 200, body: { repo: null, reason: "laptop's daemon is too old for worktrees (update it)" } });
    s.answers["git.repo"] = () => ({ ok: true, result: { repo: "yes" } });
    expect(await as(OWNER, url)).toMatchObject({ status: 200, body: { repo: null, reason: expect.stringContaining("did not fit") } });
    s.answers["git.repo"] = () => ({ ok: true, result: { repo: null, reason: "not inside a git repository" } });
    expect(await as(OWNER, url)).toMatchObject({ status: 200, body: { repo: null, reason: "not inside a git repository" } });
    s.daemon.close();
    const offline = await until(() => as(OWNER, url), (r) => (r.body as { reason?: string }).reason === "laptop is offline", "the machine offline");
    expect(offline).toMatchObject({ status: 200, body: { repo: null } });
  });
});

describe("GET git/status and git/diff", () => {
  it("anyone who sees the session gets the daemon's answer about the session's own worktree; a stranger sees no session", async () => {
    const s = await start();
    const wt = worktreeFor(s.sessionId, "baton/fix").worktreePath;
    for (const who of [OWNER, MEMBER, VIEWER]) {
      expect(await as(who, `/api/sessions/${s.sessionId}/git/status?path=/etc`)).toMatchObject({ status: 200, body: STATUS });
      expect(s.asks.at(-1)!.request).toEqual({ kind: "git.status", path: wt });
      expect(await as(who, `/api/sessions/${s.sessionId}/git/diff?path=/etc`)).toMatchObject({ status: 200, body: DIFF });
      expect(s.asks.at(-1)!.request).toEqual({ kind: "git.diff", path: wt, against: "base" });
    }
    const n = s.asks.length;
    expect(await as(STRANGER, `/api/sessions/${s.sessionId}/git/status`)).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    expect(await as(STRANGER, `/api/sessions/${s.sessionId}/git/diff`)).toMatchObject({ status: 404 });
    expect(await as(OWNER, `/api/sessions/no-such-session/git/diff`)).toMatchObject({ status: 404 });
    expect(s.asks.length).toBe(n);
  });

  it("a session without a worktree in a repository: its checkout against HEAD (git.repo asked once, then kept); no commit, no removal", async () => {
    const s = await start();
    const plain = await s.create({});
    expect(plain.status).toBe(201);
    const id = plain.body.session.id;
    const n = s.asks.length;
    expect(await as(VIEWER, `/api/sessions/${id}/git/repo`)).toMatchObject({ status: 404 }); // not a member of this one
    expect(await as(OWNER, `/api/sessions/${id}/git/repo`)).toMatchObject({ status: 200, body: { repo: { name: "work", root: "/work", branch: "main", worktree: false }, reason: null } });
    expect(await as(OWNER, `/api/sessions/${id}/git/status`)).toMatchObject({ status: 200, body: STATUS });
    expect(s.asks.at(-1)!.request).toEqual({ kind: "git.status", path: "/work" });
    expect(await as(OWNER, `/api/sessions/${id}/git/diff`)).toMatchObject({ status: 200, body: DIFF });
    expect(s.asks.at(-1)!.request).toEqual({ kind: "git.diff", path: "/work", against: "head" });
    expect(s.asks.slice(n).map((a) => a.request.kind)).toEqual(["git.repo", "git.status", "git.diff"]);
    const m = s.asks.length;
    expect(await post(OWNER, `/api/sessions/${id}/git/commit`, { message: "m" })).toMatchObject({ status: 404, body: { error: { code: "NO_WORKTREE" } } });
    expect(await post(OWNER, `/api/sessions/${id}/worktree/remove`, {})).toMatchObject({ status: 404, body: { error: { code: "NO_WORKTREE" } } });
    expect(s.asks.length).toBe(m);
  });

  it("a session whose directory is in no repository: git/repo says why, status and diff are NO_REPO and ask nothing more", async () => {
    const s = await start();
    s.answers["git.repo"] = () => ({ ok: true, result: { repo: null, reason: "not inside a git repository" } });
    const plain = await s.create({ cwd: "/work/plain" });
    const id = plain.body.session.id;
    const n = s.asks.length;
    expect(await as(OWNER, `/api/sessions/${id}/git/repo`)).toMatchObject({ status: 200, body: { repo: null, reason: expect.stringContaining("not inside a git repository") } });
    for (const route of ["git/status", "git/diff"])
      expect(await as(OWNER, `/api/sessions/${id}/${route}`)).toMatchObject({ status: 404, body: { error: { code: "NO_REPO" } } });
    expect(s.asks.slice(n).map((a) => a.request.kind)).toEqual(["git.repo"]);
  });

  it("a reply over the limit, one that does not fit, git's refusal, and an offline machine: each a clear API error", { timeout: 30_000 }, async () => {
    const s = await start();
    const status = () => as(OWNER, `/api/sessions/${s.sessionId}/git/status`);
    const diff = () => as(OWNER, `/api/sessions/${s.sessionId}/git/diff`);
    s.answers["git.diff"] = () => ({ ok: true, result: { ...DIFF, note: "x".repeat(MAX_ASK_REPLY_BYTES) } });
    expect(await diff()).toMatchObject({ status: 502, body: { error: { code: "REPLY_TOO_LARGE" } } });
    s.answers["git.diff"] = () => ({ ok: true, result: { base: "main", files: "many" } });
    expect(await diff()).toMatchObject({ status: 502, body: { error: { code: "BAD_REPLY" } } });
    s.answers["git.status"] = () => ({ ok: true, result: { ...STATUS, ahead: -1 } });
    expect(await status()).toMatchObject({ status: 502, body: { error: { code: "BAD_REPLY" } } });
    s.answers["git.status"] = () => ({ ok: false, code: "GIT_REFUSED", message: "the worktree is gone" });
    expect(await status()).toMatchObject({ status: 422, body: { error: { code: "GIT_REFUSED", message: "the worktree is gone" } } });
    s.answers["git.status"] = () => ({ ok: false, code: "GIT_MISSING", message: "git is not installed on this machine" });
    expect(await status()).toMatchObject({ status: 422, body: { error: { code: "GIT_MISSING" } } });
    // The tunnel still answers the next one.
    s.answers["git.status"] = () => ({ ok: true, result: STATUS });
    expect(await status()).toMatchObject({ status: 200, body: STATUS });
    s.daemon.close();
    const offline = await until(status, (r) => r.status === 409, "MACHINE_OFFLINE");
    expect(offline).toMatchObject({ status: 409, body: { error: { code: "MACHINE_OFFLINE" } } });
  });
});

describe("POST git/commit and worktree/remove", () => {
  it("owner and member commit with their message; a viewer, a stranger and an empty message are refused before the machine", async () => {
    const s = await start();
    const wt = worktreeFor(s.sessionId, "baton/fix").worktreePath;
    for (const who of [OWNER, MEMBER]) {
      expect(await post(who, `/api/sessions/${s.sessionId}/git/commit`, { message: `  fix by ${who} ` })).toMatchObject({ status: 200, body: { commit: "abc1234def", status: { files: 0 } } });
      expect(s.asks.at(-1)!.request).toEqual({ kind: "git.commit", path: wt, message: `fix by ${who}` });
    }
    const n = s.asks.length;
    expect(await post(VIEWER, `/api/sessions/${s.sessionId}/git/commit`, { message: "m" })).toMatchObject({ status: 403, body: { error: { code: "FORBIDDEN" } } });
    expect(await post(STRANGER, `/api/sessions/${s.sessionId}/git/commit`, { message: "m" })).toMatchObject({ status: 404 });
    expect(await post(OWNER, `/api/sessions/${s.sessionId}/git/commit`, { message: "   " })).toMatchObject({ status: 400, body: { error: { message: "write a commit message" } } });
    expect(await post(OWNER, `/api/sessions/${s.sessionId}/git/commit`, { message: "x".repeat(10_001) })).toMatchObject({ status: 400 });
    expect(await as(OWNER, `/api/sessions/${s.sessionId}/git/commit`, { method: "POST", body: "{not json" })).toMatchObject({ status: 400 });
    expect(s.asks.length).toBe(n);
    s.answers["git.commit"] = () => ({ ok: false, code: "GIT_REFUSED", message: "nothing to commit" });
    expect(await post(MEMBER, `/api/sessions/${s.sessionId}/git/commit`, { message: "m" })).toMatchObject({ status: 422, body: { error: { message: "nothing to commit" } } });
  });

  it("only the owner removes the worktree: kept with why unless forced", async () => {
    const s = await start();
    const wt = worktreeFor(s.sessionId, "baton/fix").worktreePath;
    const remove = (who: string, body: unknown) => post(who, `/api/sessions/${s.sessionId}/worktree/remove`, body);
    const n = s.asks.length;
    expect(await remove(MEMBER, {})).toMatchObject({ status: 403, body: { error: { code: "FORBIDDEN" } } });
    expect(await remove(VIEWER, {})).toMatchObject({ status: 403 });
    expect(await remove(STRANGER, {})).toMatchObject({ status: 404 });
    expect(await remove(OWNER, { force: "yes" })).toMatchObject({ status: 400 });
    expect(s.asks.length).toBe(n);
    expect(await remove(OWNER, {})).toMatchObject({ status: 200, body: { removed: false, reason: "3 uncommitted files", dirtyFiles: 3 } });
    expect(s.asks.at(-1)!.request).toEqual({ kind: "git.worktree.remove", path: wt, force: false });
    expect(await remove(OWNER, { force: true })).toMatchObject({ status: 200, body: { removed: true } });
    expect(s.asks.at(-1)!.request).toEqual({ kind: "git.worktree.remove", path: wt, force: true });
  });
});

describe("one turn's changes from git (the turn's snapshots)", () => {
  const A = "a".repeat(40);
  const B = "b".repeat(40);

  it("the room keeps a turn's two snapshots with its turn; git/diff?from&to asks for that turn; bad ids are refused before the machine", async () => {
    const s = await start();
    const v = await AuthedViewer.open(s.sessionId, s.owner);
    expect(await v.op({ op: "message.send", id: "m1", blocks: [{ type: "text", text: "write a file" }] })).toMatchObject({ type: "ack" });
    const prompt = await waitFor(() => s.daemon.prompts(s.sessionId)[0], "the prompt");
    s.daemon.emit({ t: "turn.started", sessionId: s.sessionId, turnId: prompt.turnId });
    s.daemon.emit({ t: "turn.tree", sessionId: s.sessionId, turnId: prompt.turnId, edge: "start", tree: A });
    s.daemon.emit({ t: "turn.ended", sessionId: s.sessionId, turnId: prompt.turnId, stopReason: "end_turn" });
    // The end snapshot comes after the turn ended (the room no longer runs it): it still lands on that turn.
    s.daemon.emit({ t: "turn.tree", sessionId: s.sessionId, turnId: prompt.turnId, edge: "end", tree: B });
    await s.daemon.settle();
    v.close();
    const changes = await as(VIEWER, `/api/sessions/${s.sessionId}/changes`);
    expect(changes).toMatchObject({ status: 200, body: { turns: [{ index: 0, messageId: "m1", files: [], trees: { from: A, to: B } }] } });

    const wt = worktreeFor(s.sessionId, "baton/fix").worktreePath;
    expect(await as(VIEWER, `/api/sessions/${s.sessionId}/git/diff?from=${A}&to=${B}`)).toMatchObject({ status: 200, body: DIFF });
    expect(s.asks.at(-1)!.request).toEqual({ kind: "git.diff", path: wt, against: "base", from: A, to: B });
    const n = s.asks.length;
    for (const q of [`from=${A}`, `from=${A}&to=HEAD`, `from=${A}&to=${B}x`, "to=--output=/tmp/x"])
      expect(await as(OWNER, `/api/sessions/${s.sessionId}/git/diff?${q}`)).toMatchObject({ status: 400, body: { error: { code: "BAD_REQUEST" } } });
    expect(s.asks.length).toBe(n);
  });
});
