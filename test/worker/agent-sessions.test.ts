/**
 * Issue 26 in workerd: the Machine's ask / reply on a real tunnel socket (offline, timeout, oversized and
 * malformed replies, late replies), and the routes on top — list, import (history relayed once into the room),
 * fork (rows copied, original untouched), the agent-side delete — each with its bad input changing nothing.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deleteAgentSession } from "../../worker/agent-session-routes";
import { MAX_ASK_REPLY_BYTES } from "../../shared/limits";
import type { MachineFrame } from "../../shared/tunnel-protocol";
import { api, setupSession, type TestDaemon, TestViewer, text, waitFor } from "./harness";

const machine = (id: string) => env.MACHINE.get(env.MACHINE.idFromName(id));
const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

type Ask = Extract<MachineFrame, { type: "ask" }>;
/** Answers the Machine's asks on the test daemon's socket with `answer` (undefined: stay silent). */
function answerAsks(daemon: TestDaemon, answer: (ask: Ask) => unknown): Ask[] {
  const seen: Ask[] = [];
  daemon.ws.addEventListener("message", (e) => {
    const f = JSON.parse(e.data as string) as MachineFrame;
    if (f.type !== "ask") return;
    seen.push(f);
    const reply = answer(f);
    if (reply !== undefined) daemon.ws.send(typeof reply === "string" ? reply : JSON.stringify({ type: "reply", id: f.id, ...(reply as object) }));
  });
  return seen;
}

/** The test daemon's agent as one that lists, forks and deletes its sessions. */
async function advertiseSessions(daemon: TestDaemon, machineId: string): Promise<void> {
  const caps = { loadSession: true, resume: false, modes: true, configOptions: true, steering: true, images: false, list: true, fork: true, delete: true };
  daemon.ws.send(JSON.stringify({ type: "agents", agents: [{ id: "demo", label: "Demo", capabilities: caps }] }));
  for (let i = 0; i < 100; i++) {
    const m = await api<{ machines: { id: string; agents: { capabilities: { list?: boolean } }[] }[] }>("/api/machines");
    if (m.body.machines.find((x) => x.id === machineId)?.agents[0]?.capabilities.list) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("capabilities not recorded");
}

const page = { sessions: [{ agentSessionId: "agent-old", title: "Fix the flaky test", updatedAt: "2026-12-01T10:00:00Z", cwd: "/work" }], nextCursor: "c2" };

describe("Machine ask / reply", () => {
  it("offline: MACHINE_OFFLINE at once; no reply: ASK_TIMEOUT; the daemon's error reply is passed on", async () => {
    const { daemon, machineId } = await setupSession();
    const silent = answerAsks(daemon, () => undefined);
    expect(await machine(machineId).ask({ kind: "agent.sessions.list", agentId: "demo", cwd: "/work" }, 150)).toMatchObject({ ok: false, code: "ASK_TIMEOUT" });
    expect(silent).toHaveLength(1);
    daemon.close();
    await waitFor(async () => !(await machine(machineId).status()).online, "offline").catch(() => {});
    expect(await machine(machineId).ask({ kind: "agent.sessions.list", agentId: "demo", cwd: "/work" }, 60_000)).toMatchObject({ ok: false, code: "MACHINE_OFFLINE" });
    await daemon.connect();
    answerAsks(daemon, () => ({ ok: false, code: "UNKNOWN_ASK", message: "this daemon does not answer that" }));
    expect(await machine(machineId).ask({ kind: "agent.sessions.list", agentId: "demo", cwd: "/work" }, 5000)).toEqual({ ok: false, code: "UNKNOWN_ASK", message: "this daemon does not answer that" });
  });

  it("a reply over the limit, one that does not fit its kind, and junk frames are refused; the tunnel keeps working", async () => {
    const { daemon, machineId, sessionId } = await setupSession();
    let mode: "big" | "misfit" | "junk" | "good" = "big";
    answerAsks(daemon, (a) => {
      if (mode === "big") return { ok: true, result: { sessions: [], nextCursor: "x".repeat(MAX_ASK_REPLY_BYTES) } };
      if (mode === "misfit") return { ok: true, result: { sessions: "many" } };
      if (mode === "junk") return `{"type":"reply","id":${JSON.stringify(a.id)},"ok":"yes"}`;
      return { ok: true, result: page };
    });
    const ask = (ms = 5000) => machine(machineId).ask({ kind: "agent.sessions.list", agentId: "demo", cwd: "/work" }, ms);
    expect(await ask()).toMatchObject({ ok: false, code: "REPLY_TOO_LARGE" });
    mode = "misfit";
    expect(await ask()).toMatchObject({ ok: false, code: "BAD_REPLY" });
    mode = "junk";
    const errors = daemon.frames.filter((f) => f.type === "error").length;
    expect(await ask(300)).toMatchObject({ ok: false, code: "ASK_TIMEOUT" });
    expect(daemon.frames.filter((f) => f.type === "error").length).toBe(errors + 1);
    // A reply nobody waits for is ignored.
    daemon.ws.send(JSON.stringify({ type: "reply", id: "made-up", ok: true, result: page }));
    mode = "good";
    expect(await ask()).toEqual({ ok: true, result: JSON.stringify(page) });
    // The tunnel still carries the session's events.
    const v = await TestViewer.open(sessionId);
    daemon.chunk(sessionId, "still here");
    await waitFor(() => v.chunkTexts().includes("still here"), "event after the bad replies");
  });
});

describe("the agent's own sessions over HTTP", () => {
  it("list: the daemon's page through the route; an agent without session/list is refused with the reason", async () => {
    const { daemon, machineId } = await setupSession();
    const path = `/api/machines/${machineId}/agents/demo/sessions?cwd=%2Fwork`;
    expect(await api(path)).toMatchObject({ status: 422, body: { error: { code: "NOT_SUPPORTED", message: expect.stringContaining("does not list") } } });
    await advertiseSessions(daemon, machineId);
    const asks = answerAsks(daemon, () => ({ ok: true, result: page }));
    expect(await api(`${path}&cursor=c1`)).toEqual({ status: 200, body: page });
    expect(asks[0]!.request).toEqual({ kind: "agent.sessions.list", agentId: "demo", cwd: "/work", cursor: "c1" });
    expect(await api(`/api/machines/${machineId}/agents/demo/sessions?cwd=%2Fetc`)).toMatchObject({ status: 400, body: { error: { code: "CWD_OUTSIDE_ROOTS" } } });
    expect(await api(`/api/machines/nope/agents/demo/sessions?cwd=%2Fwork`)).toMatchObject({ status: 404 });
  });

  it("import: the room is bound to the agent session, its history arrives once as user rows and answers, titled by the agent", async () => {
    const { daemon, machineId } = await setupSession();
    await advertiseSessions(daemon, machineId);
    answerAsks(daemon, (a) =>
      a.request.agentSessionId === "agent-old" ? { ok: true, result: { session: page.sessions[0] } } : { ok: true, result: { session: null } },
    );
    const before = (await api<{ sessions: unknown[] }>("/api/sessions")).body.sessions.length;
    // Unknown to the agent: nothing is created.
    const unknown = await api("/api/sessions/import", json({ machineId, agentId: "demo", cwd: "/work", agentSessionId: "agent-nope" }));
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: "NO_AGENT_SESSION" } } });
    expect((await api<{ sessions: unknown[] }>("/api/sessions")).body.sessions).toHaveLength(before);
    expect(await api("/api/sessions/import", json({ machineId, agentId: "demo", cwd: "/work" }))).toMatchObject({ status: 400 });

    daemon.autoReady = false;
    const res = await api<{ session: { id: string; title: string } }>("/api/sessions/import", json({ machineId, agentId: "demo", cwd: "/work", agentSessionId: "agent-old" }));
    expect(res.status).toBe(201);
    expect(res.body.session.title).toBe("Fix the flaky test");
    const id = res.body.session.id;
    const open = await waitFor(() => daemon.of("session.open").find((c) => c.sessionId === id), "open");
    expect(open).toMatchObject({ agentSessionId: "agent-old", history: "relay", restore: null });
    daemon.emit({ t: "history.user", sessionId: id, blocks: text("why is the test flaky?") });
    daemon.chunk(id, "Because of a race.");
    daemon.emit({ t: "session.ready", sessionId: id, agentSessionId: "agent-old", config: daemon.config, resumed: true });
    await daemon.settle();
    const v = await TestViewer.open(id);
    await waitFor(() => v.lastStatus()?.state === "idle", "idle");
    expect(v.ofKind("user_message")).toMatchObject([{ blocks: text("why is the test flaky?"), author: { name: "imported" } }]);
    expect(v.chunkTexts()).toEqual(["Because of a race."]);
    expect(v.ofKind("notice").map((n) => n.text)).toEqual([expect.stringContaining("Imported")]);
    // The next prompt goes to the same agent session; a reopen after a daemon restart drops the history.
    await v.op({ op: "message.send", id: "next", blocks: text("continue") });
    await waitFor(() => daemon.prompts(id).length === 1, "prompt");
    daemon.close();
    const restarted = new (daemon.constructor as typeof TestDaemon)(daemon.token);
    restarted.autoReady = false;
    await restarted.connect();
    const reopen = await waitFor(() => restarted.of("session.open").find((c) => c.sessionId === id), "reopen");
    expect(reopen.agentSessionId).toBe("agent-old");
    expect(reopen.history).toBeUndefined();
  });

  it("fork: machine offline → 409 and nothing created; online → a new room with the rows, bound to the agent's fork; the original untouched", async () => {
    const { daemon, machineId, sessionId } = await setupSession();
    await advertiseSessions(daemon, machineId);
    const v = await TestViewer.open(sessionId);
    await v.op({ op: "message.send", id: "m1", blocks: text("first question") });
    await waitFor(() => daemon.prompts(sessionId).length === 1, "prompt");
    await daemon.finishTurn(sessionId, "first answer");
    await waitFor(() => v.lastStatus()?.state === "idle", "idle");
    const asks = answerAsks(daemon, (a) => ({ ok: true, result: { agentSessionId: `fork-of-${String(a.request.agentSessionId)}` } }));

    const before = (await api<{ sessions: unknown[] }>("/api/sessions")).body.sessions.length;
    daemon.close();
    await waitFor(async () => !(await machine(machineId).status()).online, "offline").catch(() => {});
    for (let i = 0; i < 100 && (await api<{ machines: { id: string; online: boolean }[] }>("/api/machines")).body.machines.find((m) => m.id === machineId)?.online; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await api(`/api/sessions/${sessionId}/fork`, json({}))).toMatchObject({ status: 409, body: { error: { code: "MACHINE_OFFLINE" } } });
    expect((await api<{ sessions: unknown[] }>("/api/sessions")).body.sessions).toHaveLength(before);

    await daemon.connect([{ sessionId, busy: false }]);
    await advertiseSessions(daemon, machineId); // the hello carried the test daemon's plain capabilities again
    const asks2 = answerAsks(daemon, (a) => ({ ok: true, result: { agentSessionId: `fork-of-${String(a.request.agentSessionId)}` } }));
    await daemon.settle();
    await waitFor(() => v.lastStatus()?.state === "idle", "idle again");
    const originalHead = (await env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(sessionId)).info()).headSeq;
    const res = await api<{ session: { id: string; title: string }; truncated: boolean }>(`/api/sessions/${sessionId}/fork`, json({}));
    expect(res.status).toBe(201);
    expect(asks.length + asks2.length).toBe(1);
    expect(asks2[0]!.request).toMatchObject({ kind: "agent.sessions.fork", agentSessionId: `agent-${sessionId}` });
    const forkId = res.body.session.id;
    expect(res.body.session.title).toMatch(/^Fork of /);
    const open = await waitFor(() => daemon.of("session.open").find((c) => c.sessionId === forkId), "fork open");
    expect(open).toMatchObject({ agentSessionId: `fork-of-agent-${sessionId}`, restore: null });
    expect(open.history).toBeUndefined();
    await daemon.settle();
    const fv = await TestViewer.open(forkId);
    await waitFor(() => fv.lastStatus()?.state === "idle", "fork idle");
    expect(fv.ofKind("user_message").map((m) => m.blocks)).toEqual([text("first question")]);
    expect(fv.chunkTexts()).toEqual(["first answer"]);
    expect(fv.ofKind("notice").map((n) => n.text)).toEqual([expect.stringContaining("Forked")]);
    // The original: same log, still its own agent session.
    expect((await env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(sessionId)).info()).headSeq).toBe(originalHead);
    // Someone else's session, or an unknown one: 404.
    expect(await api(`/api/sessions/nope/fork`, json({}))).toMatchObject({ status: 404 });
  });

  it("deleteAgentSession: the daemon deletes; offline → not deleted, and the message says so", async () => {
    const { daemon, machineId } = await setupSession();
    const asks = answerAsks(daemon, () => ({ ok: true, result: { deleted: true } }));
    const s = { machineId, agentId: "demo", agentSessionId: "agent-x", cwd: "/work" };
    expect(await deleteAgentSession(env, s)).toEqual({ deleted: true });
    expect(asks[0]!.request).toEqual({ kind: "agent.sessions.delete", agentId: "demo", cwd: "/work", agentSessionId: "agent-x" });
    daemon.close();
    await waitFor(async () => !(await machine(machineId).status()).online, "offline").catch(() => {});
    expect(await deleteAgentSession(env, s)).toEqual({ deleted: false, message: expect.stringContaining("offline") });
  });
});
