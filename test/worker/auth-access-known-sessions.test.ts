/**
 * Issue 28 #1 in workerd: `POST /api/tunnel/sessions/known`, asked by `baton doctor` (daemon/src/git/known-sessions.ts,
 * the daemon's own code, against the real Worker) with the machine token — it names only that machine's sessions
 * that still exist (not another machine's, not another user's, not a deleted one), and a bad token or body
 * gets a clear refusal that doctor reports as "not checked".
 */
import { exports } from "cloudflare:workers";
import { afterAll, describe, expect, it } from "vitest";
import { knownSessions } from "../../daemon/src/git/known-sessions";
import { TUNNEL_TOKEN_HEADER } from "../../shared/tunnel-protocol";
import { MAX_DOCTOR_WORKTREES } from "../../shared/worktree";
import { settleTracked, track } from "./access-settle";
import { asUser, call } from "./auth-harness";
import { ORIGIN, TestDaemon, waitFor } from "./harness";

afterAll(settleTracked, 60_000);

/** The Worker as doctor reaches it over the network. */
const worker = ((input: RequestInfo | URL, init?: RequestInit) => exports.default.fetch(new Request(input, init))) as typeof fetch;

async function machineWithSessions(email: string, name: string, count: number) {
  const owner = await asUser(email);
  const pair = await call<{ machine: { id: string }; token: string }>("/api/machines", { method: "POST", headers: owner, body: JSON.stringify({ name }) });
  const daemon = new TestDaemon(pair.body.token);
  await daemon.connect();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await call<{ session: { id: string } }>("/api/sessions", { method: "POST", headers: owner, body: JSON.stringify({ machineId: pair.body.machine.id, agentId: "demo", cwd: "/work" }) });
    expect(r.status).toBe(201);
    ids.push(r.body.session.id);
  }
  await waitFor(() => ids.every((id) => daemon.of("session.open").some((c) => c.sessionId === id)), "sessions open");
  await daemon.settle();
  const watched = [...ids];
  track(daemon, [{ headers: owner, sessionIds: watched }]);
  return { owner, token: pair.body.token, ids, watched };
}

describe("which sessions doctor's worktrees belong to", () => {
  it("names only this machine's live sessions: not another machine's, not another user's, not a deleted one, not made-up ids", async () => {
    const a = await machineWithSessions("known-a@example.com", "laptop", 3);
    const b = await machineWithSessions("known-a@example.com", "desktop", 1);
    const other = await machineWithSessions("known-other@example.com", "theirs", 1);
    expect((await call(`/api/sessions/${a.ids[2]}`, { method: "DELETE", headers: a.owner })).status).toBe(200);
    a.watched.pop();
    const asked = [...a.ids, b.ids[0]!, other.ids[0]!, "no-such-session", a.ids[0]!];
    const r = await knownSessions(worker, ORIGIN, a.token, asked);
    expect(r).toEqual({ ok: true, known: new Set([a.ids[0], a.ids[1]]) });
    expect(await knownSessions(worker, ORIGIN, b.token, asked)).toEqual({ ok: true, known: new Set([b.ids[0]]) });
    expect(await knownSessions(worker, ORIGIN, a.token, [])).toEqual({ ok: true, known: new Set() });
    // More worktrees than one question takes: the first MAX_DOCTOR_WORKTREES are asked, never a refused request.
    const many = [...Array.from({ length: MAX_DOCTOR_WORKTREES + 10 }, (_, i) => `gone-${i}`), a.ids[0]!];
    expect(await knownSessions(worker, ORIGIN, a.token, many)).toEqual({ ok: true, known: new Set() });
  });

  it("a bad or revoked token and a bad body are refused; doctor says why it could not check", async () => {
    const a = await machineWithSessions("known-b@example.com", "laptop", 1);
    expect(await knownSessions(worker, ORIGIN, "bt_not-a-token", a.ids)).toEqual({ ok: false, why: "HTTP 401" });
    const post = (headers: Record<string, string>, body: string) =>
      exports.default.fetch(`${ORIGIN}/api/tunnel/sessions/known`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
    expect((await post({}, JSON.stringify({ ids: a.ids }))).status).toBe(401);
    for (const body of ["{", JSON.stringify({ ids: "all" }), JSON.stringify({ ids: [""] }), JSON.stringify({ ids: Array.from({ length: MAX_DOCTOR_WORKTREES + 1 }, (_, i) => `s${i}`) })]) {
      const r = await post({ [TUNNEL_TOKEN_HEADER]: a.token }, body);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe("BAD_REQUEST");
    }
    const machines = await call<{ machines: { id: string }[] }>("/api/machines", { headers: a.owner });
    expect((await call(`/api/machines/${machines.body.machines[0]!.id}`, { method: "DELETE", headers: a.owner })).status).toBeLessThan(300);
    expect(await knownSessions(worker, ORIGIN, a.token, a.ids)).toEqual({ ok: false, why: "HTTP 401" });
  });
});
