// Issue 28 with real agents (claude, codex) against the fake model, on the local stack (worker + daemon): each
// agent, in a session made in a new git worktree, writes a file with its own file tool (claude `Write`, codex
// `apply_patch`). The changes view's data from git (`GET …/git/diff`: the worktree against its base, and the
// turn's own diff between its snapshots) lists the file with its text; the original checkout is untouched. Then,
// with the daemon stopped, the same file comes from the room's log (`GET …/changes`). Agents: env BATON_AGENTS.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoggedChanges } from "../../shared/changes-from-log";
import type { SessionWorktree, WorktreeDiff } from "../../shared/worktree";
import { git, tempRepo } from "../daemon/git-repo";
import { FAST_DEMO, NodeViewer, type Stack, startTestStack, waitFor } from "../e2e/support";
import { startFakeModel, type FakeModel } from "../fake-model/server";
import { EDIT_TEXT, TRIGGERS } from "../fake-model/script";
import { START_MS, STDIO_RECORDER, TURN_MS, tmpDir } from "./harness";
import { agentRun, ensureInstalled, selectedAgents, type AgentId } from "./launch";

const AGENTS = selectedAgents().filter((id): id is "claude" | "codex" => id === "claude" || id === "codex");

type Done = { id: AgentId; sessionId: string; worktree: SessionWorktree; file: string };

let stack: Stack;
let base: string;
let repo: ReturnType<typeof tempRepo>;
const models: FakeModel[] = [];
const done: Done[] = [];

beforeAll(async () => {
  await ensureInstalled(AGENTS);
  base = tmpDir("baton-agents-worktree-");
  repo = tempRepo();
  const custom = [];
  for (const id of AGENTS) {
    const model = await startFakeModel();
    models.push(model);
    const run = agentRun(id, join(base, id), model.url);
    custom.push({ id, command: process.execPath, args: [STDIO_RECORDER, join(base, id, "acp-log"), "--", run.launch.command, ...run.launch.args], env: run.launch.env ?? {} });
  }
  const config = join(base, "baton-config.json");
  writeFileSync(config, JSON.stringify({ agents: custom }));
  // The daemon's worktrees folder: $XDG_DATA_HOME/baton/worktrees (in the temp folder, inside the stack's roots).
  const dataDir = realpathSync(mkdtempSync(join(tmpdir(), "baton-agents-wt-data-")));
  stack = await startTestStack({ ...FAST_DEMO, BATON_CONFIG: config, XDG_DATA_HOME: dataDir });
}, 900_000);

afterAll(async () => {
  await stack?.stop();
  for (const m of models) await m.close();
  repo?.cleanup();
  try {
    if (base) rmSync(base, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (err) {
    console.warn(`could not remove ${base}: ${(err as Error).message}`);
  }
}, 60_000);

async function api<T>(path: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const r = await fetch(`${stack.url}${path}`, { ...init, headers: { "content-type": "application/json", ...init?.headers } });
  return { status: r.status, body: (await r.json()) as T };
}

/** Answers every permission request (allow once) until stopped: claude asks before Write, codex (read-only) before a patch. */
function approveAll(v: NodeViewer): () => void {
  const answered = new Set<string>();
  let on = true;
  void (async () => {
    while (on) {
      for (const p of v.ofKind("permission_request")) {
        if (answered.has(p.requestId) || v.ofKind("permission_resolved").some((r) => r.requestId === p.requestId)) continue;
        answered.add(p.requestId);
        const allow = p.options.find((o) => o.kind === "allow_once") ?? p.options.find((o) => o.kind.startsWith("allow"));
        await v.op({ op: "permission.respond", requestId: p.requestId, optionId: allow?.optionId ?? null });
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return () => (on = false);
}

describe.each(AGENTS)("%s in a worktree session", (id) => {
  it(
    "edits a file in its worktree: the git diff lists it (whole session and the turn), the checkout is untouched",
    async () => {
      const { machines } = (await api<{ machines: { id: string; online: boolean }[] }>("/api/machines")).body;
      const machine = machines.find((m) => m.online)!;
      const created = await api<{ session: { id: string; worktree: SessionWorktree } }>("/api/sessions", {
        method: "POST",
        body: JSON.stringify({ machineId: machine.id, agentId: id, cwd: repo.repo, worktree: { base: "main", branch: `baton/${id}-edit` } }),
      });
      expect(created.status).toBe(201);
      const { id: sessionId, worktree } = created.body.session;
      expect(worktree.worktreePath).not.toBe(repo.repo);
      const v = await new NodeViewer(stack.url, sessionId).open();
      await waitFor(() => v.status() === "idle", `${id} ready`, START_MS);
      const stop = approveAll(v);
      const file = `agent-${id}.txt`;
      await v.op({ op: "message.send", id: `edit-${id}`, blocks: [{ type: "text", text: `please ${TRIGGERS.edit} ${join(worktree.path, file)}` }] });
      await waitFor(() => v.ofKind("session_status").some((s) => s.state === "idle" && s.stopReason), `${id}'s turn ended`, TURN_MS);
      stop();
      expect(v.ofKind("session_status").filter((s) => s.stopReason).at(-1)?.stopReason).toBe("end_turn");
      expect(readFileSync(join(worktree.path, file), "utf8")).toBe(EDIT_TEXT);

      // The changes view's data from git: the worktree against its base.
      const diff = await api<WorktreeDiff>(`/api/sessions/${sessionId}/git/diff`);
      expect(diff.status).toBe(200);
      const listed = diff.body.files.find((f) => f.path === file);
      expect(listed).toMatchObject({ status: "untracked", binary: false, truncated: false });
      expect(listed!.patch).toContain(`+${EDIT_TEXT.trimEnd()}`);
      // One turn from git: between the turn's snapshots.
      const changes = await waitFor(async () => {
        const c = (await api<LoggedChanges>(`/api/sessions/${sessionId}/changes`)).body;
        return c.turns[0]?.trees ? c : null;
      }, "the turn's snapshots", 20_000);
      const trees = changes.turns[0]!.trees!;
      const turn = await api<WorktreeDiff>(`/api/sessions/${sessionId}/git/diff?from=${trees.from}&to=${trees.to}`);
      expect(turn.body.files.map((f) => [f.path, f.status])).toEqual([[file, "added"]]);
      expect(turn.body.files[0]!.patch).toContain(`+${EDIT_TEXT.trimEnd()}`);

      // The original checkout: no such file, nothing changed, still on main.
      expect(existsSync(join(repo.repo, file))).toBe(false);
      expect(git(repo.repo, "status", "--porcelain")).toBe("");
      expect(git(repo.repo, "symbolic-ref", "--short", "HEAD").trim()).toBe("main");
      v.close();
      done.push({ id, sessionId, worktree, file });
    },
    START_MS + TURN_MS + 60_000,
  );
});

describe("with the daemon stopped", () => {
  it("each session's change comes from the room's log", async () => {
    expect(done.map((d) => d.id)).toEqual(AGENTS);
    const exited = new Promise((r) => stack.daemon.once("exit", r));
    stack.daemon.kill("SIGTERM");
    await exited;
    for (const d of done) {
      // Offline now: git is out of reach.
      await waitFor(async () => (await api(`/api/sessions/${d.sessionId}/git/diff`)).status === 409, `${d.id}: the machine offline`, 30_000);
      const logged = await api<LoggedChanges>(`/api/sessions/${d.sessionId}/changes`);
      expect(logged.status).toBe(200);
      const f = logged.body.files.find((x) => x.path === d.file);
      expect(f, `${d.id}: ${JSON.stringify(logged.body.files)}`).toBeDefined();
      expect(f).toMatchObject({ hasDiff: true, newText: EDIT_TEXT });
      expect(logged.body.turns[0]!.files.map((x) => x.path)).toContain(d.file);
      // Nothing reached the checkout meanwhile.
      expect(existsSync(join(repo.repo, d.file))).toBe(false);
    }
    expect(execFileSync("git", ["worktree", "list"], { cwd: repo.repo, encoding: "utf8" }).trim().split("\n")).toHaveLength(1 + done.length);
  }, 120_000);
});
