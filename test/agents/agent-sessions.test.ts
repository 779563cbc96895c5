// Issue 26 with real agents (claude, codex) against the fake model: a session made by one daemon run is listed
// (ACP session/list through the daemon's ask handler), imported (its history relayed once: the earlier prompt and
// answer), and the next prompt continues it — the fake model's recorded request carries the earlier turn. Then a
// fork (ACP session/fork) loads and continues with the same history. Agents: env BATON_AGENTS (default claude,codex).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAskHandler } from "../../daemon/src/agent/agent-asks";
import { silentLogger } from "../../daemon/src/log";
import { AskResults } from "../../shared/tunnel-ask";
import { startFakeModel, type FakeModel } from "../fake-model/server";
import { agentHost, agentInfo, START_MS, TURN_MS, tmpDir, updates, type AgentHost } from "./harness";
import { ensureInstalled, selectedAgents, type AgentId } from "./launch";
import { AGENT_PROFILES } from "./profiles";

const AGENTS = selectedAgents().filter((id) => id === "claude" || id === "codex");
const FIRST = "hello, remember the word pineapple";

const answerText = (host: AgentHost, sessionId: string, from = 0) =>
  updates(host.rec, sessionId, "agent_message_chunk", from)
    .map((u) => (u.content as { text?: string } | undefined)?.text ?? "")
    .join("");
/** Did this model request carry `text` (the agent sent the earlier turn to the model)? */
const carries = (body: unknown, text: string) => JSON.stringify(body).includes(text);

describe.each(AGENTS)("%s: the agent's own sessions", (id: AgentId) => {
  const profile = AGENT_PROFILES[id];
  let model: FakeModel;
  let base: string;
  let first: AgentHost;
  let next: AgentHost;
  let agentSessionId: string;
  let firstAnswer: string;

  beforeAll(async () => {
    await ensureInstalled([id]);
    model = await startFakeModel();
    base = tmpDir(`baton-agent-sessions-${id}-`);
    // "One daemon run": a session, one prompt answered, then the daemon goes away.
    first = agentHost(id, base, model);
    agentSessionId = (await first.open("past")).agentSessionId;
    const mark = first.prompt("past", "t-past", FIRST);
    expect(await first.ended("t-past", TURN_MS, mark)).toMatchObject({ stopReason: "end_turn" });
    firstAnswer = answerText(first, "past", mark).trim();
    await first.close();
    next = agentHost(id, base, model, { home: first.run.home });
  }, START_MS + TURN_MS + 600_000);

  afterAll(async () => {
    await next?.close();
    await model?.close();
  });

  const ask = (request: Record<string, unknown>) =>
    createAskHandler({ agents: [{ info: agentInfo(id), launch: next.run.launch }], roots: [base], log: silentLogger, timeoutMs: START_MS })(request);

  it("a session of an earlier run is listed, imported with its prompt and answer once, and the next prompt continues it", async () => {
    expect(profile.fakeModel).toBe(true);
    const listed = await ask({ kind: "agent.sessions.list", agentId: id, cwd: next.run.workspace });
    if (!listed.ok) throw new Error(listed.message);
    const page = AskResults["agent.sessions.list"].parse(listed.result);
    expect(page.sessions.map((s) => s.agentSessionId)).toContain(agentSessionId);

    const mark = next.rec.events.length;
    const ready = await next.open("imp", { agentSessionId, history: "relay" });
    expect(ready).toMatchObject({ resumed: true, agentSessionId });
    const users = next.rec.of("history.user", "imp");
    expect(users).toHaveLength(1);
    expect(JSON.stringify(users[0]!.blocks)).toContain("remember the word pineapple");
    expect(firstAnswer.length).toBeGreaterThan(0);
    expect(answerText(next, "imp", mark)).toContain(firstAnswer.slice(0, 40));

    const reqMark = model.requests.length;
    const turn = next.prompt("imp", "t-imp", "hello after the import");
    expect(await next.ended("t-imp", TURN_MS, turn)).toMatchObject({ stopReason: "end_turn" });
    const calls = model.requests.slice(reqMark).filter((r) => r.view !== null && carries(r.body, "hello after the import"));
    expect(calls.length).toBeGreaterThan(0);
    expect(carries(calls.at(-1)!.body, "remember the word pineapple")).toBe(true);
    // The history came once: no more user rows relayed after the import.
    expect(next.rec.of("history.user", "imp")).toHaveLength(1);
  }, START_MS * 2 + TURN_MS);

  it("a fork is a new agent session with the history; loaded, its next prompt carries the earlier turn", async () => {
    const forked = await ask({ kind: "agent.sessions.fork", agentId: id, cwd: next.run.workspace, agentSessionId });
    if (!forked.ok) throw new Error(forked.message);
    const forkId = AskResults["agent.sessions.fork"].parse(forked.result).agentSessionId;
    expect(forkId).not.toBe(agentSessionId);
    const ready = await next.open("fork", { agentSessionId: forkId });
    expect(ready).toMatchObject({ resumed: true, agentSessionId: forkId });
    const reqMark = model.requests.length;
    const turn = next.prompt("fork", "t-fork", "hello from the fork");
    expect(await next.ended("t-fork", TURN_MS, turn)).toMatchObject({ stopReason: "end_turn" });
    const calls = model.requests.slice(reqMark).filter((r) => r.view !== null && carries(r.body, "hello from the fork"));
    expect(calls.length).toBeGreaterThan(0);
    expect(carries(calls.at(-1)!.body, "remember the word pineapple")).toBe(true);
  }, START_MS * 2 + TURN_MS);
});
