/**
 * Issue 26, daemon side, against the real demo agent (a real process over stdio): the agent's own sessions
 * listed with a cursor, an import that relays the agent's history ONCE (while a reattach still drops it),
 * delete, fork, and the asks' bad input (unknown kind, cwd outside the roots, unknown agent / session).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAskHandler } from "../../daemon/src/agent/agent-asks";
import { silentLogger } from "../../daemon/src/log";
import type { AskAnswer } from "../../daemon/src/tunnel/tunnel-client";
import { type AskKind, type AskOutcome, outcomeOf } from "../../shared/tunnel-ask";
import { agentText, demoAgent, FAST_DEMO_ENV, type HostFixture, makeHostFixture } from "./host-harness";

let f: HostFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

function asker(fx: HostFixture, env: Record<string, string> = {}) {
  const ask = createAskHandler({ agents: [demoAgent({ ...FAST_DEMO_ENV, DEMO_STATE_DIR: fx.stateDir, ...env })], roots: [fx.root], log: silentLogger });
  // What the Machine will check: the answer fits the kind's schema (BAD_REPLY otherwise).
  return async <K extends AskKind>(request: { kind: K } & Record<string, unknown>): Promise<AskOutcome<K>> => {
    const a: AskAnswer = await ask(request);
    return outcomeOf(request.kind, a);
  };
}

/** A session made by "an earlier daemon run": opened, prompted, closed. */
async function pastSession(fx: HostFixture, id: string, prompt: string): Promise<string> {
  const ready = await fx.open(id);
  await fx.turn(id, `t-${id}`, prompt);
  fx.send({ t: "session.close", sessionId: id });
  return ready.agentSessionId;
}

describe("the agent's own sessions (issue 26)", () => {
  it("session/list pages with the agent's cursor; titles and updated times, most recent first; find pages for one id", async () => {
    f = makeHostFixture({ env: { DEMO_LIST_PAGE_SIZE: "2" } });
    const ids = [];
    for (const n of [1, 2, 3]) ids.push(await pastSession(f, `p${n}`, `question number ${n}`));
    const ask = asker(f, { DEMO_LIST_PAGE_SIZE: "2" });
    const first = await ask({ kind: "agent.sessions.list", agentId: "demo", cwd: f.root });
    if (!first.ok) throw new Error(first.message);
    expect(first.result.sessions).toHaveLength(2);
    expect(first.result.nextCursor).toBeTruthy();
    const second = await ask({ kind: "agent.sessions.list", agentId: "demo", cwd: f.root, cursor: first.result.nextCursor });
    if (!second.ok) throw new Error(second.message);
    expect(second.result.nextCursor).toBeNull();
    const all = [...first.result.sessions, ...second.result.sessions];
    expect(all.map((s) => s.agentSessionId).sort()).toEqual([...ids].sort());
    // Most recent first, each with its first prompt as the title and an ISO time.
    expect(all[0]).toMatchObject({ agentSessionId: ids[2], title: "question number 3", cwd: f.root });
    expect(Number.isNaN(Date.parse(all[0]!.updatedAt!))).toBe(false);
    // find pages through the list for one id.
    expect(await ask({ kind: "agent.sessions.find", agentId: "demo", cwd: f.root, agentSessionId: ids[0]! })).toMatchObject({
      ok: true,
      result: { session: { agentSessionId: ids[0], title: "question number 1" } },
    });
    expect(await ask({ kind: "agent.sessions.find", agentId: "demo", cwd: f.root, agentSessionId: "no-such-id" })).toEqual({ ok: true, result: { session: null } });
  });

  it("bad asks get a clear error: unknown kind, malformed, cwd outside the roots, unknown agent, unknown cursor", async () => {
    f = makeHostFixture();
    const ask = createAskHandler({ agents: [demoAgent({ ...FAST_DEMO_ENV, DEMO_STATE_DIR: f.stateDir })], roots: [f.root], log: silentLogger });
    expect(await ask({ kind: "files.list", path: "/" })).toMatchObject({ ok: false, code: "UNKNOWN_ASK" });
    expect(await ask("junk")).toMatchObject({ ok: false, code: "UNKNOWN_ASK" });
    expect(await ask({ kind: "agent.sessions.list", agentId: "demo" })).toMatchObject({ ok: false, code: "BAD_REQUEST" });
    expect(await ask({ kind: "agent.sessions.list", agentId: "demo", cwd: "/" })).toMatchObject({ ok: false, code: "BAD_REQUEST", message: expect.stringContaining("outside the allowed roots") });
    expect(await ask({ kind: "agent.sessions.list", agentId: "nope", cwd: f.root })).toMatchObject({ ok: false, code: "AGENT_REFUSED", message: expect.stringContaining("not available") });
    expect(await ask({ kind: "agent.sessions.list", agentId: "demo", cwd: f.root, cursor: "forged" })).toMatchObject({ ok: false, code: "AGENT_REFUSED" });
  });

  it("an import relays the agent's history once as user rows and answers; the next prompt continues; a reattach still drops it", async () => {
    f = makeHostFixture();
    const agentSessionId = await pastSession(f, "old", "remember the word pineapple");
    const mark = f.rec.events.length;
    const ready = await f.open("imp", { agentSessionId, history: "relay" });
    expect(ready).toMatchObject({ resumed: true, agentSessionId });
    const relayed = f.rec.events.slice(mark).filter((e) => e.sessionId === "imp");
    const users = relayed.filter((e) => e.t === "history.user");
    expect(users).toEqual([{ t: "history.user", sessionId: "imp", blocks: [{ type: "text", text: "remember the word pineapple" }] }]);
    // The user row comes before the answer, and the answer is relayed as ordinary updates (before ready).
    const userAt = relayed.findIndex((e) => e.t === "history.user");
    const answerAt = relayed.findIndex((e) => e.t === "session.update" && e.update.sessionUpdate === "agent_message_chunk");
    const readyAt = relayed.findIndex((e) => e.t === "session.ready");
    expect(userAt).toBeGreaterThanOrEqual(0);
    expect(answerAt).toBeGreaterThan(userAt);
    expect(readyAt).toBeGreaterThan(answerAt);
    expect(agentText(f.rec, "imp", mark)).toContain("pineapple");
    expect(relayed.some((e) => e.t === "session.update" && e.update.sessionUpdate === "user_message_chunk")).toBe(false);

    // The next prompt continues the same agent session; nothing of the history comes again.
    const before = f.rec.events.length;
    await f.turn("imp", "t-imp", "and now something new");
    expect(f.rec.of("history.user", "imp")).toHaveLength(1);
    expect(agentText(f.rec, "imp", before)).not.toContain("pineapple");
    f.send({ t: "session.close", sessionId: "imp" });

    // A reattach (daemon restart) of the same agent session drops the replay: no user rows, no old answers.
    const mark2 = f.rec.events.length;
    await f.open("re", { agentSessionId });
    const again = f.rec.events.slice(mark2).filter((e) => e.sessionId === "re");
    expect(again.filter((e) => e.t === "history.user")).toEqual([]);
    expect(again.filter((e) => e.t === "session.update").map((e) => e.t === "session.update" && e.update.sessionUpdate)).toEqual(["available_commands_update"]);
  });

  it("importing an id the agent does not know fails the open with a clear message (no fresh session passed off as the import)", async () => {
    f = makeHostFixture();
    f.send({ t: "session.open", sessionId: "bad", agentId: "demo", cwd: f.root, agentSessionId: "never-existed", history: "relay" });
    const e = await f.rec.waitFor((x) => (x.t === "session.failed" || x.t === "session.ready") && x.sessionId === "bad");
    expect(e).toMatchObject({ t: "session.failed", message: expect.stringContaining("could not open its session never-existed") });
  });

  it("delete removes the agent's session (listed before, gone after); again is the same end state (ACP: not found = deleted)", async () => {
    f = makeHostFixture();
    const id = await pastSession(f, "d1", "to be deleted");
    const ask = asker(f);
    expect(await ask({ kind: "agent.sessions.delete", agentId: "demo", cwd: f.root, agentSessionId: id })).toEqual({ ok: true, result: { deleted: true } });
    const listed = await ask({ kind: "agent.sessions.list", agentId: "demo", cwd: f.root });
    expect(listed.ok && listed.result.sessions.map((s) => s.agentSessionId)).toEqual([]);
    expect(await ask({ kind: "agent.sessions.delete", agentId: "demo", cwd: f.root, agentSessionId: id })).toEqual({ ok: true, result: { deleted: true } });
    // An agent without session/delete: not deleted, and why.
    const noDelete = createAskHandler({ agents: [{ ...demoAgent({ ...FAST_DEMO_ENV, DEMO_STATE_DIR: f.stateDir, DEMO_NO_DELETE: "1" }) }], roots: [f.root], log: silentLogger });
    expect(await noDelete({ kind: "agent.sessions.delete", agentId: "demo", cwd: f.root, agentSessionId: id })).toMatchObject({
      ok: true,
      result: { deleted: false, message: expect.stringContaining("does not delete its sessions") },
    });
  });

  it("fork makes a new agent session with the history; the original stays; loading the fork continues from it", async () => {
    f = makeHostFixture();
    const id = await pastSession(f, "f1", "the secret is mango");
    const ask = asker(f);
    const forked = await ask({ kind: "agent.sessions.fork", agentId: "demo", cwd: f.root, agentSessionId: id });
    if (!forked.ok) throw new Error(forked.message);
    expect(forked.result.agentSessionId).not.toBe(id);
    const listed = await ask({ kind: "agent.sessions.list", agentId: "demo", cwd: f.root });
    expect(listed.ok && listed.result.sessions.map((s) => s.agentSessionId).sort()).toEqual([id, forked.result.agentSessionId].sort());
    // The fork is bound like a reattach (the room copied its rows): loaded, history dropped, then live.
    const ready = await f.open("fk", { agentSessionId: forked.result.agentSessionId });
    expect(ready).toMatchObject({ resumed: true, agentSessionId: forked.result.agentSessionId });
    await f.turn("fk", "t-fk", "continue the fork");
    expect(await ask({ kind: "agent.sessions.fork", agentId: "demo", cwd: f.root, agentSessionId: "nope" })).toMatchObject({ ok: false, code: "AGENT_REFUSED" });
  });
});
