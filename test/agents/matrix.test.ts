// Real ACP agents through the real SessionHost, offline, against the fake model server (test/fake-model):
// per agent, what it advertises, an answer, a tool call with its output, a permission answered, a mid-turn
// config write the next model request carries, a second prompt only after the first, cancel, and a
// restart that reattaches with session/load. Agents: env BATON_AGENTS (default claude,codex; "all").
// BATON_CAPTURE=1 also rewrites test/fixtures/acp-captures/<agent>.jsonl from the run.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DaemonEvent, MachineCommand } from "../../shared/tunnel-protocol";
import { startFakeModel, type FakeModel, type RecordedRequest } from "../fake-model/server";
import { ECHO_COMMAND, TOUCH_FILE, TRIGGERS, findShellTool, promptCall } from "../fake-model/script";
import { writeCapture } from "./capture";
import { agentHost, START_MS, TURN_MS, tmpDir, updates, type AgentHost, type Ready, type WireLine } from "./harness";
import { ensureInstalled, selectedAgents, type AgentId } from "./launch";
import { settingsFromConfig } from "../../shared/session-settings";
import { AGENT_PROFILES, pickConfigWrite } from "./profiles";

const AGENTS = selectedAgents();
const CAPTURE = process.env.BATON_CAPTURE === "1";
const timings: Record<string, number> = {};

afterAll(() => {
  if (Object.keys(timings).length) console.log(`[agents] seconds per agent: ${JSON.stringify(timings)}`);
});

type Ev<K extends DaemonEvent["t"]> = Extract<DaemonEvent, { t: K }>;

/** Model calls that offer a shell tool: the main loop's, and claude's prompt suggestions (which carry the turn before's settings: to find a prompt's own call, use promptCall). */
const mainCalls = (m: FakeModel, from = 0): RecordedRequest[] => m.requests.slice(from).filter((r) => r.view !== null && findShellTool(r.view.tools) !== null);

/** Sends a setting write and gives the agent `settleMs` to refuse it: accepted = no command.failed since. */
async function sendAccepted(host: AgentHost, command: MachineCommand, settleMs: number): Promise<void> {
  const mark = host.rec.events.length;
  host.send(command);
  await new Promise((r) => setTimeout(r, settleMs));
  expect(host.rec.events.slice(mark).filter((e) => e.t === "command.failed")).toEqual([]);
}

describe.each(AGENTS)("%s: real agent through the SessionHost", (id: AgentId) => {
  const profile = AGENT_PROFILES[id];
  let model: FakeModel;
  let base: string;
  let a: AgentHost;
  let ready: Ready;
  const wire: WireLine[] = [];
  let started = 0;

  beforeAll(async () => {
    started = Date.now();
    await ensureInstalled([id]);
    model = await startFakeModel();
    base = tmpDir(`baton-agent-${id}-`);
    a = agentHost(id, base, model);
    ready = await a.open("s1");
  }, START_MS + 600_000);

  afterAll(async () => {
    await a?.close();
    wire.push(...(a ? a.wire() : []));
    if (CAPTURE && wire.length) {
      const home = a.run.home;
      writeCapture(id, wire, [
        [a.run.workspace, "<workspace>"],
        [home, "<home>"],
        [base, "<base>"],
        [path.dirname(base), "<tmp>"],
      ]);
    }
    await model?.close();
    // An agent may still be writing its state as it exits: retry the removal.
    if (base) fs.rmSync(base, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    timings[id] = Math.round((Date.now() - started) / 1000);
  }, 60_000);

  it("session.ready: records what the agent advertises (modes, config options, auth, steering)", () => {
    expect(ready.resumed).toBe(false);
    expect(ready.agentSessionId).toBeTruthy();
    const init = a.wire().find((l) => l.dir === "fromAgent" && l.msg.id !== undefined && typeof (l.msg.result as { protocolVersion?: unknown } | undefined)?.protocolVersion === "number");
    expect(init, "initialize result on the wire").toBeTruthy();
    const result = init!.msg.result as Record<string, unknown>;
    const advertised = {
      loadSession: (result.agentCapabilities as { loadSession?: unknown } | undefined)?.loadSession === true,
      authMethods: Array.isArray(result.authMethods) ? result.authMethods.length : 0,
      steeringAtTop: JSON.stringify(result._meta ?? {}).includes("steering"),
      modes: ready.config.modes?.availableModes.map((m) => m.id) ?? null,
      configOptions: ready.config.configOptions.map((o) => `${String(o.id)}:${String(o.type)}`),
    };
    console.log(`[agents] ${id} advertises ${JSON.stringify(advertised)}`);
    expect(advertised.loadSession).toBe(profile.loadSession);
    expect(advertised.authMethods > 0).toBe(profile.authMethods);
    expect(advertised.steeringAtTop).toBe(profile.steering);
  });

  it("an answer streams in as agent_message_chunk, from the fake model", async () => {
    const mark = a.prompt("s1", "t-hello", "hello");
    expect(await a.ended("t-hello", TURN_MS, mark)).toMatchObject({ stopReason: "end_turn" });
    const chunks = updates(a.rec, "s1", "agent_message_chunk", mark);
    const text = chunks.map((u) => (u.content as { text?: string } | undefined)?.text ?? "").join("");
    expect(text).toContain(profile.helloAnswer);
  });

  // Only where it applies to this agent (not defined otherwise: nothing skipped).
  if (profile.fakeModel) it("a shell tool call runs and its output reaches the room and the model", async () => {
    const mark = a.prompt("s1", "t-tool", `please ${TRIGGERS.tool}`);
    const reqMark = model.requests.length;
    // Copilot asks before any command (unless allow_all): approved here, the permission test checks asking.
    expect((await a.endedApproving("t-tool", mark)).ended).toMatchObject({ stopReason: "end_turn" });
    const tools = [...updates(a.rec, "s1", "tool_call", mark), ...updates(a.rec, "s1", "tool_call_update", mark)];
    expect(tools.length).toBeGreaterThan(0);
    // The command is somewhere in what the agent told the room about the call (title, rawInput, content).
    expect(JSON.stringify(tools)).toContain(ECHO_COMMAND.split(" ")[1]);
    // The output: in content (claude, qwen, opencode, copilot) or in _meta terminal_output(_delta) (codex, pi).
    expect(JSON.stringify(tools)).toContain("baton-tool-ok");
    // The tool really ran: its result went back to the model, and the model's last answer came through.
    const withResult = model.requests.slice(reqMark).find((r) => r.view?.toolResult?.includes("baton-tool-ok"));
    expect(withResult, "a model request carrying the tool result").toBeTruthy();
    const text = updates(a.rec, "s1", "agent_message_chunk", mark).map((u) => (u.content as { text?: string } | undefined)?.text ?? "").join("");
    expect(text).toContain("Tool said:");
  });

  // Only where it applies to this agent (not defined otherwise: nothing skipped).
  if (profile.fakeModel) it("a command that needs permission: asked where the agent asks, answered, then it runs", async () => {
    if (profile.askSetup) {
      const m0 = a.rec.events.length;
      a.send({ t: "config.set", sessionId: "s1", ...profile.askSetup });
      await a.rec.waitFor((e) => (e.t === "config.state" && JSON.stringify(e.config).includes(`"currentValue":"${profile.askSetup!.value}"`)) || e.t === "command.failed", TURN_MS, m0);
    }
    const mark = a.prompt("s1", "t-touch", `please ${TRIGGERS.touch}`);
    if (profile.asksPermission) {
      const req = (await a.rec.waitFor((e) => e.t === "permission.request" && e.sessionId === "s1", TURN_MS, mark)) as Ev<"permission.request">;
      expect(JSON.stringify(req.toolCall)).toContain("touch");
      const allow = req.options.find((o) => o.kind === "allow_once") ?? req.options.find((o) => o.kind.startsWith("allow"));
      expect(allow, `an allow option in ${JSON.stringify(req.options)}`).toBeTruthy();
      a.send({ t: "permission.respond", sessionId: "s1", requestId: req.requestId, optionId: allow!.optionId });
    }
    expect(await a.ended("t-touch", TURN_MS, mark)).toMatchObject({ stopReason: "end_turn" });
    if (!profile.asksPermission) expect(a.rec.events.slice(mark).filter((e) => e.t === "permission.request")).toEqual([]);
    expect(fs.existsSync(path.join(a.run.workspace, TOUCH_FILE))).toBe(true);
  });

  // Only where it applies to this agent (not defined otherwise: nothing skipped).
  if (profile.fakeModel) it("a config write mid-turn: the turn finishes, the NEXT model request carries the new setting", async () => {
    const write = pickConfigWrite(id, a.rec.of("config.state", "s1").at(-1)?.config ?? ready.config);
    expect(write, "a config option to change").toBeTruthy();
    const mark = a.prompt("s1", "t-slow", `${TRIGGERS.slow} please`);
    const reqMark = model.requests.length;
    await a.rec.waitFor((e) => e.t === "session.update" && e.sessionId === "s1" && e.update.sessionUpdate === "agent_message_chunk" && JSON.stringify(e.update).includes("slow-"), TURN_MS, mark);
    const before = promptCall(model.requests, `${TRIGGERS.slow} please`, reqMark)!;
    a.send(write!.command);
    // Accepted: no command.failed for it (a config.state with the new value follows for most agents).
    await new Promise((r) => setTimeout(r, 1500));
    expect(a.rec.events.slice(mark).filter((e) => e.t === "command.failed")).toEqual([]);
    a.send({ t: "cancel", sessionId: "s1" });
    expect(await a.ended("t-slow", TURN_MS, mark)).toMatchObject({ stopReason: "cancelled" });
    const mark2 = a.prompt("s1", "t-settings", `${TRIGGERS.settings} please`);
    const reqMark2 = model.requests.length;
    expect(await a.ended("t-settings", TURN_MS, mark2)).toMatchObject({ stopReason: "end_turn" });
    const after = promptCall(model.requests, `${TRIGGERS.settings} please`, reqMark2);
    expect(after, "a main-loop model request for the next turn").toBeTruthy();
    write!.check(before, after!);
    // Back to what it was, so the next checks run in the agent's usual setting.
    await sendAccepted(a, write!.revert, 1000);
  });

  if (profile.fakeModel) it("a prompt while a turn runs is refused by the host (the room queues it); sent after the end, it runs exactly once", async () => {
    const mark = a.prompt("s1", "t-q1", profile.fakeModel ? `${TRIGGERS.slow} first` : "first");
    await a.rec.waitFor((e) => e.t === "turn.started" && e.turnId === "t-q1", TURN_MS, mark);
    a.prompt("s1", "t-q2", "queued second");
    expect(await a.rec.waitFor((e) => e.t === "command.failed" && e.sessionId === "s1", TURN_MS, mark)).toMatchObject({ command: "prompt", message: expect.stringContaining("already running") });
    if (profile.fakeModel) a.send({ t: "cancel", sessionId: "s1" });
    await a.ended("t-q1", TURN_MS, mark);
    expect(a.rec.events.slice(mark).some((e) => e.t === "turn.started" && e.turnId === "t-q2")).toBe(false);
    const reqMark = model.requests.length;
    const mark2 = a.prompt("s1", "t-q2", "queued second");
    expect(await a.ended("t-q2", TURN_MS, mark2)).toMatchObject({ stopReason: "end_turn" });
    const prompts = a.wire().filter((l) => l.dir === "toAgent" && l.msg.method === "session/prompt" && JSON.stringify(l.msg.params).includes("queued second"));
    expect(prompts).toHaveLength(1);
    if (profile.fakeModel) expect(mainCalls(model, reqMark).filter((r) => r.view?.lastUserText.includes("queued second")).length).toBeGreaterThanOrEqual(1);
  });

  // Only where it applies to this agent (not defined otherwise: nothing skipped).
  if (profile.fakeModel) it("cancel mid-stream → the turn ends cancelled", async () => {
    const mark = a.prompt("s1", "t-cancel", `${TRIGGERS.slow} to cancel`);
    await a.rec.waitFor((e) => e.t === "session.update" && e.sessionId === "s1" && JSON.stringify(e.update).includes("slow-"), TURN_MS, mark);
    a.send({ t: "cancel", sessionId: "s1" });
    expect(await a.ended("t-cancel", 30_000, mark)).toMatchObject({ stopReason: "cancelled" });
  });

  // Only where it applies to this agent (not defined otherwise: nothing skipped).
  if (profile.loadSession && profile.fakeModel) it("process restart with the session's changed setting (the room's restore) → the next model request still carries it", async () => {
    const write = pickConfigWrite(id, a.rec.of("config.state", "s1").at(-1)?.config ?? ready.config);
    expect(write, "a config option to change").toBeTruthy();
    const settingsTurn = async (host: AgentHost, turnId: string) => {
      const reqMark = model.requests.length;
      const { ended } = await host.endedApproving(turnId, host.prompt("s1", turnId, `${TRIGGERS.settings} ${turnId}`));
      expect(ended).toMatchObject({ stopReason: "end_turn" });
      const call = promptCall(model.requests, `${TRIGGERS.settings} ${turnId}`, reqMark);
      expect(call, `the model call for ${turnId}`).toBeTruthy();
      return call!;
    };
    const before = await settingsTurn(a, "t-set-before");
    await sendAccepted(a, write!.command, 1500);
    const config = a.rec.of("config.state", "s1").at(-1)?.config ?? ready.config;
    write!.check(before, await settingsTurn(a, "t-set-changed"));
    await a.close();
    wire.push(...a.wire());
    const b = agentHost(id, base, model, { home: a.run.home });
    a = b;
    const again = await b.open("s1", { agentSessionId: ready.agentSessionId, restore: settingsFromConfig(config) });
    expect(again).toMatchObject({ resumed: true });
    expect(b.rec.of("session.notice", "s1")).toEqual([]);
    write!.check(before, await settingsTurn(b, "t-set-restarted"));
    // Back to what it was: agents that save the setting with the session (copilot's plan mode) would
    // otherwise carry it into the next check's session/load.
    await sendAccepted(b, write!.revert, 1000);
  }, START_MS + 4 * TURN_MS);

  // Only where it applies to this agent (not defined otherwise: nothing skipped).
  if (profile.loadSession && profile.fakeModel) it("process restart → session/load reattaches the same agent session, which answers", async () => {
    await a.close();
    wire.push(...a.wire());
    // A new host (the daemon restarted), the same HOME (the agent's saved sessions).
    const b = agentHost(id, base, model, { home: a.run.home });
    a = b;
    const again = await b.open("s1", { agentSessionId: ready.agentSessionId });
    expect(again).toMatchObject({ resumed: true, agentSessionId: ready.agentSessionId });
    const mark = b.prompt("s1", "t-after", "hello after restart");
    expect(await b.ended("t-after", TURN_MS, mark)).toMatchObject({ stopReason: "end_turn" });
    expect(updates(b.rec, "s1", "agent_message_chunk", mark).map((u) => (u.content as { text?: string } | undefined)?.text ?? "").join("")).toContain(profile.afterRestartAnswer);
  }, START_MS + TURN_MS);
});
