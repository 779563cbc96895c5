/**
 * A session's git worktree over HTTP (issue 28 #1), through the daemon's git asks: what repository a directory
 * is in (New session's worktree option), the worktree made for a new session (and dropped again when the
 * session could not be created: nothing half-made), and its removal when the session is archived or deleted.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AccountScope } from "../shared/api";
import { AskErrorCode, type AskKind, type AskOutcome } from "../shared/tunnel-ask";
import { CommitBody, TurnTrees, type RepoInfo, type SessionRepo, type SessionWorktree, type WorktreeRequest } from "../shared/worktree";
import { apiError } from "./api-error";
import { ask, askRefusal } from "./agent-session-routes";
import { getMachine, sessionAccess, type User } from "./d1-directory";
import { type Env, roomStub } from "./env";
import { insideRoots } from "../shared/paths";
import { canWrite } from "./session-list/session-list-rules";
import { gitTargetOf } from "./session-git-target";

type RouteEnv = { Bindings: Env; Variables: { user: User; scope: AccountScope } };
export const worktreeRoutes = new Hono<RouteEnv>();

/** A route's answer to an ask: its result, or its refusal as the API error it maps to. */
function answerAsk<K extends AskKind>(c: Context, out: AskOutcome<K>) {
  if (!out.ok) {
    const r = askRefusal(out);
    return apiError(c, r.status, r.code, r.message);
  }
  return c.json(out.result);
}

/** The repository `cwd` is in; any failure to ask reads as the reason the option is off (never an error page). */
worktreeRoutes.get("/machines/:machineId/git", async (c) => {
  const cwd = c.req.query("cwd") ?? "";
  if (!cwd || cwd.length > 4096) return apiError(c, 400, "BAD_REQUEST", "cwd required (at most 4096 characters)");
  const machine = await getMachine(c.env.DB, c.req.param("machineId"));
  if (!machine || machine.ownerId !== c.get("user").id || machine.revoked) return apiError(c, 404, "NOT_FOUND", "no such machine");
  const off = (reason: string): RepoInfo => ({ repo: null, reason });
  if (!machine.online) return c.json(off(`${machine.name} is offline`));
  if (!insideRoots(cwd, machine.roots)) return c.json(off("the directory is outside the machine's allowed roots"));
  const out = await ask(c.env, machine.id, { kind: "git.repo", cwd });
  if (out.ok) return c.json(out.result);
  if (out.code === AskErrorCode.UNKNOWN_ASK) return c.json(off(`${machine.name}'s daemon is too old for worktrees (update it)`));
  return c.json(off(out.message));
});

/** Makes the session's worktree on the machine; a refusal says why (and nothing was made). */
export async function makeWorktree(
  env: Env,
  machineId: string,
  sessionId: string,
  cwd: string,
  want: WorktreeRequest,
): Promise<{ ok: true; worktree: SessionWorktree } | { ok: false; status: 400 | 409 | 422 | 502 | 504; code: string; message: string }> {
  const out = await ask(env, machineId, { kind: "git.worktree.create", cwd, base: want.base, branch: want.branch, sessionId });
  if (out.ok) return { ok: true, worktree: out.result };
  const r = askRefusal(out);
  const status = r.status === 400 || r.status === 409 || r.status === 422 || r.status === 504 ? r.status : 502;
  return { ok: false, status, code: r.code, message: out.code === AskErrorCode.UNKNOWN_ASK ? "the machine's daemon is too old for worktrees (update it)" : r.message };
}

/** Drops a worktree made for a session that then failed to start (best effort: logged, never thrown). */
export async function dropWorktree(env: Env, machineId: string, worktree: SessionWorktree): Promise<void> {
  const out = await ask(env, machineId, { kind: "git.worktree.remove", path: worktree.worktreePath, force: true });
  if (!out.ok) console.error("could not drop the worktree of a failed session", worktree.worktreePath, out.message);
}

const RemoveBody = z.object({ force: z.boolean().default(false) });

/** Removes the session's worktree (owner only): kept with why when it holds work, unless `force`. */
worktreeRoutes.post("/sessions/:id/worktree/remove", async (c) => {
  const body = RemoveBody.safeParse(await c.req.json().catch(() => ({})));
  if (!body.success) return apiError(c, 400, "BAD_REQUEST", body.error.issues[0]?.message ?? "invalid body");
  const access = await sessionAccess(c.env.DB, c.req.param("id"), c.get("user").id);
  if (!access) return apiError(c, 404, "NOT_FOUND", "no such session");
  if (access.role !== "owner") return apiError(c, 403, "FORBIDDEN", "only the session owner removes its worktree");
  const wt = access.session.worktree;
  if (!wt) return apiError(c, 404, "NO_WORKTREE", "this session runs in its directory, not in a worktree");
  const out = await ask(c.env, access.session.machineId, { kind: "git.worktree.remove", path: wt.worktreePath, force: body.data.force });
  return answerAsk(c, out);
});

/** The session's worktree and the caller's role, or the refusal as a response. */
async function worktreeOf(c: { env: Env; req: { param(k: "id"): string }; get(k: "user"): User }) {
  const access = await sessionAccess(c.env.DB, c.req.param("id"), c.get("user").id);
  if (!access) return { ok: false as const, code: "NOT_FOUND", message: "no such session" };
  const wt = access.session.worktree;
  if (!wt) return { ok: false as const, code: "NO_WORKTREE", message: "this session runs in its directory, not in a worktree" };
  return { ok: true as const, access, wt };
}

/** The session the caller sees (any role) and where its git answers come from, or why not (404 for a session it cannot see). */
async function sessionGitTarget(c: { env: Env; req: { param(k: "id"): string }; get(k: "user"): User }) {
  const access = await sessionAccess(c.env.DB, c.req.param("id"), c.get("user").id);
  if (!access) return { ok: false as const, status: 404 as const, code: "NOT_FOUND", message: "no such session" };
  const found = await gitTargetOf(c.env, access.session);
  return found.ok ? { ...found, machineId: access.session.machineId } : found;
}

/** Issue 28 #2: the repository the session's changes come from (its worktree, or the checkout its directory is in). */
worktreeRoutes.get("/sessions/:id/git/repo", async (c) => {
  const found = await sessionGitTarget(c);
  if (found.ok) return c.json({ repo: found.repo, reason: null } satisfies SessionRepo);
  if (found.code === "NO_REPO") return c.json({ repo: null, reason: found.message } satisfies SessionRepo);
  return apiError(c, found.status, found.code, found.message);
});

/** Issue 28 #4: ahead / behind the base and the changed files, for everyone who sees the session. */
worktreeRoutes.get("/sessions/:id/git/status", async (c) => {
  const found = await sessionGitTarget(c);
  if (!found.ok) return apiError(c, found.status, found.code, found.message);
  const out = await ask(c.env, found.machineId, { kind: "git.status", path: found.target.path });
  return answerAsk(c, out);
});

/**
 * Commits everything in the worktree with the person's message (owner and members). Only a Baton worktree: in a
 * person's own checkout `git add --all` would sweep their unrelated work into a commit on their branch.
 */
worktreeRoutes.post("/sessions/:id/git/commit", async (c) => {
  const body = CommitBody.safeParse(await c.req.json().catch(() => null));
  if (!body.success) return apiError(c, 400, "BAD_REQUEST", body.error.issues[0]?.message ?? "invalid body");
  const found = await worktreeOf(c);
  if (!found.ok) return apiError(c, 404, found.code, found.message);
  if (!canWrite(found.access.role)) return apiError(c, 403, "FORBIDDEN", "viewers cannot commit");
  const out = await ask(c.env, found.access.session.machineId, { kind: "git.commit", path: found.wt.worktreePath, message: body.data.message });
  return answerAsk(c, out);
});

/**
 * Issue 28 #2: the files the session changed, with their diffs (bounded by the daemon): its worktree against its
 * base, or — a session in the person's own checkout — the working tree against HEAD; with `?from=&to=` (a turn's
 * snapshots, from `GET …/changes`) the changes of that one turn.
 */
worktreeRoutes.get("/sessions/:id/git/diff", async (c) => {
  const from = c.req.query("from");
  const to = c.req.query("to");
  const trees = from === undefined && to === undefined ? null : TurnTrees.safeParse({ from, to });
  if (trees && !trees.success) return apiError(c, 400, "BAD_REQUEST", "from and to must both be git tree ids");
  const found = await sessionGitTarget(c);
  if (!found.ok) return apiError(c, found.status, found.code, found.message);
  const out = await ask(c.env, found.machineId, { kind: "git.diff", path: found.target.path, against: found.target.against, ...(trees?.data ?? {}) });
  return answerAsk(c, out);
});

/** Issue 28 #2: the changes from the room's log (works with the machine offline), for everyone who sees the session. */
worktreeRoutes.get("/sessions/:id/changes", async (c) => {
  const access = await sessionAccess(c.env.DB, c.req.param("id"), c.get("user").id);
  if (!access) return apiError(c, 404, "NOT_FOUND", "no such session");
  const json = await roomStub(c.env, access.session.id).loggedChanges();
  if (json === null) return apiError(c, 404, "NOT_FOUND", "no such session");
  return c.body(json, 200, { "content-type": "application/json" });
});
