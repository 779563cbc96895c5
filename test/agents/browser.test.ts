// Real agents end to end: the local stack (worker + daemon) with the agent as a custom agent of the daemon's
// config file (the preset's id), offline against the fake model server, driven from Chromium with a second
// viewer (a Node socket) answering permissions. Agents: env BATON_AGENTS (default claude,codex; "all").
// The last describe checks what issue 16 fixed: tool output (terminal `_meta`, fenced markdown), the
// permission card's command, the slash picker, steer into the running turn, settings re-applied after a
// daemon restart.
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { DESKTOP, launch, shot } from "../e2e/browser";
import { FAST_DEMO, NodeViewer, type Stack, startTestStack, waitFor } from "../e2e/support";
import { startFakeModel, type FakeModel } from "../fake-model/server";
import { ECHO_COMMAND, TOUCH_FILE, TRIGGERS, findShellTool, promptCall } from "../fake-model/script";
import { readWire, START_MS, STDIO_RECORDER, TURN_MS, tmpDir, type WireLine } from "./harness";
import { agentRun, ensureInstalled, selectedAgents, type AgentId, type AgentRun } from "./launch";
import { AGENT_PROFILES, pickConfigWrite } from "./profiles";

const AGENTS = selectedAgents().filter((id) => AGENT_PROFILES[id].fakeModel); // gemini: test/e2e/gemini-agent.test.ts

type Agent = { id: AgentId; model: FakeModel; run: AgentRun; logDir: string };
type Ctx = Agent & { stack: Stack; sessionId: string; page: Page; v: NodeViewer };

const tid = (page: Page, id: string) => page.getByTestId(id);

// One stack for every agent of the run (its start, with the client's first compile, is the slow part);
// each agent has its own fake model server and ACP log.
let browser: Browser;
let stack: Stack;
let base: string;
const agents = new Map<AgentId, Agent>();

beforeAll(async () => {
  await ensureInstalled(AGENTS);
  base = tmpDir("baton-e2e-agents-");
  const custom = [];
  for (const id of AGENTS) {
    const model = await startFakeModel();
    const run = agentRun(id, join(base, id), model.url);
    const logDir = join(base, id, "acp-log");
    agents.set(id, { id, model, run, logDir });
    // A custom agent with the preset's id: the daemon runs it instead of looking for the preset.
    custom.push({ id, command: process.execPath, args: [STDIO_RECORDER, logDir, "--", run.launch.command, ...run.launch.args], env: run.launch.env ?? {} });
  }
  const config = join(base, "baton-config.json");
  writeFileSync(config, JSON.stringify({ agents: custom }));
  [stack, browser] = await Promise.all([startTestStack({ ...FAST_DEMO, BATON_CONFIG: config }), launch()]);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  for (const a of agents.values()) await a.model.close();
  // An agent may still be writing its state as it exits: retry the removal.
  try {
    if (base) rmSync(base, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (err) {
    // An agent's own helper process (opencode's server) may outlive the stack for a moment: leave its temp folder.
    console.warn(`could not remove ${base}: ${(err as Error).message}`);
  }
}, 60_000);

async function createSession(url: string, agentId: string, cwd: string): Promise<string> {
  const { machines } = (await (await fetch(`${url}/api/machines`)).json()) as { machines: { id: string; online: boolean }[] };
  const machine = machines.find((m) => m.online)!;
  const r = await fetch(`${url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ machineId: machine.id, agentId, cwd }) });
  if (r.status !== 201) throw new Error(`create session: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { session: { id: string } }).session.id;
}

async function send(page: Page, text: string): Promise<void> {
  await tid(page, "composer-input").fill(text);
  await tid(page, "send-button").click();
}

/** The newest permission request the viewer has seen that is not resolved yet. */
const openRequest = (v: NodeViewer) => v.ofKind("permission_request").filter((p) => !v.ofKind("permission_resolved").some((r) => r.requestId === p.requestId)).at(-1);

const stops = (v: NodeViewer) => v.ofKind("session_status").filter((s) => s.state === "idle" && s.stopReason).map((s) => s.stopReason);

async function turnEnded(v: NodeViewer, n: number, what: string): Promise<void> {
  await waitFor(() => stops(v).length >= n, what, TURN_MS);
}

/** Answers every permission request the second viewer sees (allow once), until stopped. */
function approveAll(v: NodeViewer): () => void {
  const done = new Set<string>();
  let on = true;
  void (async () => {
    while (on) {
      for (const p of v.ofKind("permission_request")) {
        if (done.has(p.requestId) || v.ofKind("permission_resolved").some((r) => r.requestId === p.requestId)) continue;
        done.add(p.requestId);
        const allow = p.options.find((o) => o.kind === "allow_once") ?? p.options.find((o) => o.kind.startsWith("allow"));
        await v.op({ op: "permission.respond", requestId: p.requestId, optionId: allow?.optionId ?? null });
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return () => (on = false);
}

function sessionNewId(wire: WireLine[]): string {
  const req = wire.find((l) => l.dir === "toAgent" && l.msg.method === "session/new");
  const res = wire.find((l) => l.dir === "fromAgent" && req && l.msg.id === req.msg.id && l.msg.result);
  return String((res?.msg.result as { sessionId?: unknown } | undefined)?.sessionId);
}

async function openSession(id: AgentId): Promise<Ctx> {
  const c = { ...agents.get(id)!, stack };
  const sessionId = await createSession(stack.url, id, c.run.workspace);
  const v = await new NodeViewer(stack.url, sessionId).open();
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  await page.goto(`${stack.url}/s/${sessionId}`);
  await waitFor(() => v.status() === "idle", `${c.id} session ready`, START_MS);
  await tid(page, "session-status").filter({ hasText: /idle/i }).waitFor({ timeout: START_MS });
  return { ...c, sessionId, page, v };
}

async function closeCtx(c: Partial<Ctx> | undefined): Promise<void> {
  c?.v?.close();
  await c?.page?.context().close();
}

describe.each(AGENTS)("%s end to end through Chromium", (id: AgentId) => {
  const profile = AGENT_PROFILES[id];
  let c: Ctx;
  let started = 0;

  beforeAll(async () => {
    started = Date.now();
    c = await openSession(id);
  }, START_MS + 600_000);
  afterAll(async () => {
    await closeCtx(c);
    console.log(`[agents] ${id} e2e: ${Math.round((Date.now() - started) / 1000)} s`);
  }, 60_000);

  it("answer streams; a tool row; a permission card approved from a second viewer", async () => {
    const { page, v } = c;
    onTestFailed(() => shot(page, `agents-${id}-failure`).catch(() => {}));
    await send(page, "hello");
    await tid(page, "row-agent").filter({ hasText: "Fake reply to: hello" }).waitFor({ timeout: TURN_MS });
    await turnEnded(v, 1, "hello answered");

    // The tool row (any asks on the way approved by the second viewer: copilot asks before every command).
    const stopApproving = approveAll(v);
    await send(page, `please ${TRIGGERS.tool}`);
    await tid(page, "row-tool").first().waitFor({ timeout: TURN_MS });
    await tid(page, "row-agent").filter({ hasText: "Tool said:" }).waitFor({ timeout: TURN_MS });
    await turnEnded(v, 2, "tool turn ended");
    stopApproving();
    expect(c.model.requests.some((r) => r.view?.toolResult?.includes("baton-tool-ok"))).toBe(true);

    if (profile.askSetup) {
      await v.op({ op: "config.set", configId: profile.askSetup.configId, value: profile.askSetup.value });
      await waitFor(() => JSON.stringify(v.ofKind("config_state").at(-1)?.config ?? {}).includes(`"currentValue":"${profile.askSetup!.value}"`), "ask mode set");
    }
    await send(page, `please ${TRIGGERS.touch}`);
    if (profile.asksPermission) {
      const card = tid(page, "permission-card").last();
      await card.waitFor({ timeout: TURN_MS });
      expect(existsSync(join(c.run.workspace, TOUCH_FILE))).toBe(false);
      await shot(page, `agents-${id}-permission`);
      const req = await waitFor(() => openRequest(v), "permission request at the second viewer");
      const allow = req.options.find((o) => o.kind === "allow_once") ?? req.options.find((o) => o.kind.startsWith("allow"));
      await v.op({ op: "permission.respond", requestId: req.requestId, optionId: allow!.optionId });
      await card.getByTestId("permission-resolved").waitFor({ timeout: TURN_MS });
    }
    await turnEnded(v, 3, "touch turn ended");
    expect(stops(v).slice(0, 3)).toEqual(["end_turn", "end_turn", "end_turn"]);
    expect(existsSync(join(c.run.workspace, TOUCH_FILE))).toBe(true);
  });

  it("a message sent while a turn runs is queued and runs exactly once, after it", async () => {
    const { page, v } = c;
    onTestFailed(() => shot(page, `agents-${id}-failure`).catch(() => {}));
    const n = stops(v).length;
    await send(page, `${TRIGGERS.wait} first`);
    await page.getByText("wait-2", { exact: false }).first().waitFor({ timeout: TURN_MS });
    await send(page, "queued while busy");
    await tid(page, "queue-chip").filter({ hasText: "queued while busy" }).waitFor();
    await tid(page, "row-agent").filter({ hasText: "Fake reply to: queued while busy" }).waitFor({ timeout: TURN_MS });
    await turnEnded(v, n + 2, "both turns ended");
    expect(stops(v).slice(n)).toEqual(["end_turn", "end_turn"]);
    const asked = c.model.requests.filter((r) => r.view && findShellTool(r.view.tools) && r.view.lastUserText.includes("queued while busy") && !r.view.toolResult);
    expect(asked).toHaveLength(1);
    const prompts = readWire(c.logDir).filter((l) => l.dir === "toAgent" && l.msg.method === "session/prompt" && JSON.stringify(l.msg.params).includes("queued while busy"));
    expect(prompts).toHaveLength(1);
  });

  it("reload mid-turn shows the running turn; Stop ends it cancelled", async () => {
    const { page, v } = c;
    onTestFailed(() => shot(page, `agents-${id}-failure`).catch(() => {}));
    const n = stops(v).length;
    await send(page, `${TRIGGERS.slow} then stop`);
    await page.getByText("slow-3", { exact: false }).first().waitFor({ timeout: TURN_MS });
    await page.reload();
    await page.getByText("slow-", { exact: false }).first().waitFor({ timeout: TURN_MS });
    // Still streaming after the reload: a later chunk arrives.
    const seen = await page.getByText(/slow-\d+/).last().textContent();
    const last = Math.max(...[...(seen ?? "").matchAll(/slow-(\d+)/g)].map((m) => Number(m[1])));
    await page.getByText(`slow-${last + 2}`, { exact: false }).first().waitFor({ timeout: TURN_MS });
    await tid(page, "stop-button").click();
    await turnEnded(v, n + 1, "stopped turn ended");
    expect(stops(v)[n]).toBe("cancelled");
    await tid(page, "session-status").filter({ hasText: /idle/i }).waitFor({ timeout: TURN_MS });
  });

  // Only where it applies to this agent (not defined otherwise: nothing skipped).
  if (profile.loadSession) it("daemon restart: the same agent session is reattached (session/load) and answers", async () => {
    const { page, v, stack } = c;
    onTestFailed(() => shot(page, `agents-${id}-failure`).catch(() => {}));
    const agentSessionId = sessionNewId(readWire(c.logDir));
    const n = stops(v).length;
    await stack.restartDaemon();
    await waitFor(() => readWire(c.logDir).some((l) => l.dir === "toAgent" && l.msg.method === "session/load"), "session/load after the restart", START_MS);
    const load = readWire(c.logDir).find((l) => l.dir === "toAgent" && l.msg.method === "session/load")!;
    expect((load.msg.params as { sessionId?: unknown }).sessionId).toBe(agentSessionId);
    await tid(page, "session-status").filter({ hasText: /idle/i }).waitFor({ timeout: START_MS });
    await send(page, "hello after restart");
    await tid(page, "row-agent").filter({ hasText: "Fake reply to: hello after restart" }).waitFor({ timeout: TURN_MS });
    await turnEnded(v, n + 1, "turn after restart");
    expect(stops(v)[n]).toBe("end_turn");
    // No second session/new: the agent session is the same one.
    expect(readWire(c.logDir).filter((l) => l.dir === "toAgent" && l.msg.method === "session/new")).toHaveLength(1);
    await shot(page, `agents-${id}-after-restart`);
  });
});

// What issue 16 fixed, per agent. Each `it` says what it asserts.
describe.each(AGENTS)("%s end to end: what issue 16 fixed", (id: AgentId) => {
  const profile = AGENT_PROFILES[id];
  let c: Ctx;
  beforeAll(async () => {
    c = await openSession(id);
  }, START_MS + 600_000);
  afterAll(() => closeCtx(c), 60_000);

  it("the tool row shows the command's output (codex/pi: terminal content with _meta output; claude: its fenced output rendered, no ``` shown)", async () => {
    const { page, v } = c;
    const stopApproving = approveAll(v);
    await send(page, `please ${TRIGGERS.tool}`);
    await turnEnded(v, 1, "tool turn ended");
    stopApproving();
    const row = tid(page, "row-tool").filter({ hasText: ECHO_COMMAND.split(" ")[1]! }).first();
    const head = row.getByRole("button").first();
    if ((await head.getAttribute("aria-expanded")) !== "true") await head.click();
    // The output, not the title (which names the command too): the row's text beyond its head.
    await waitFor(async () => (await row.innerText()).replace(await head.innerText(), "").includes("baton-tool-ok"), "tool output in the row", TURN_MS);
    expect(await row.innerText()).not.toContain("```");
  });

  it("the permission card shows what will run (the command), whatever the title", async () => {
    const { page, v } = c;
    if (profile.askSetup) await v.op({ op: "config.set", configId: profile.askSetup.configId, value: profile.askSetup.value });
    const n = stops(v).length;
    await send(page, `please ${TRIGGERS.touch}`);
    if (!profile.asksPermission) return void (await turnEnded(v, n + 1, "touch turn"));
    const card = tid(page, "permission-card").last();
    await card.filter({ hasText: "touch baton-was-here.txt" }).waitFor({ timeout: TURN_MS });
    const req = await waitFor(() => openRequest(v), "permission request");
    await v.op({ op: "permission.respond", requestId: req.requestId, optionId: req.options.find((o) => o.kind.startsWith("allow"))!.optionId });
    await turnEnded(v, n + 1, "touch turn");
  });

  it("the slash picker lists the agent's commands (from available_commands_update) when '/' is typed", async () => {
    const { page } = c;
    const update = readWire(c.logDir).findLast((l) => l.dir === "fromAgent" && JSON.stringify(l.msg).includes('"available_commands_update"'));
    const names = ((update?.msg.params as { update?: { availableCommands?: { name: string }[] } } | undefined)?.update?.availableCommands ?? []).map((x) => x.name);
    expect(names.length).toBeGreaterThan(0);
    await tid(page, "composer-input").fill("/");
    const listbox = page.getByRole("listbox");
    await listbox.getByRole("option").first().waitFor({ timeout: TURN_MS });
    await listbox.getByRole("option").filter({ hasText: names[0]! }).first().waitFor();
    await tid(page, "composer-input").fill("");
  });

  if (profile.steering) it("steer mid-turn lands in the running turn (the next model request carries the steered text) and the row says so", async () => {
    const { page, v } = c;
    const n = stops(v).length;
    await send(page, `${TRIGGERS.slow} to steer`);
    await page.getByText("slow-3", { exact: false }).first().waitFor({ timeout: TURN_MS });
    await send(page, "steered words");
    const chip = tid(page, "queue-chip").filter({ hasText: "steered words" });
    await chip.getByTestId("chip-steer").click({ timeout: TURN_MS });
    await c.model.waitFor((r) => !!r.view?.lastUserText.includes("steered words"), TURN_MS);
    await tid(page, "row-user").filter({ hasText: "steered words" }).waitFor({ timeout: TURN_MS });
    // The steered request gets a short answer, so the turn ends by itself (no Stop to race it).
    await turnEnded(v, n + 1, "steered turn ended");
    // Exactly one turn: the steered text did not start a turn of its own.
    expect(readWire(c.logDir).filter((l) => l.dir === "toAgent" && l.msg.method === "session/prompt" && JSON.stringify(l.msg.params).includes("steered words"))).toHaveLength(0);
  });

  // Only where it applies to this agent (not defined otherwise: nothing skipped). qwen: the daemon re-applies the
  // model option only, not qwen's stale legacy model id (which put it back on its default model).
  if (profile.loadSession) it("after a daemon restart the user's settings are re-applied: the next model request still carries the changed setting", async () => {
    const { page, v, stack } = c;
    const write = pickConfigWrite(id, v.ofKind("config_state").at(-1)!.config);
    expect(write, "a config option to change").toBeTruthy();
    if (write!.command.t !== "config.set") throw new Error(`${id}: expected a config option write, got ${write!.command.t}`);
    // The turn's own model call, found by its prompt: claude's suggestion request for the turn before (the same
    // tools, the old effort) may reach the model after this prompt went out.
    const settingsTurn = async (what: string) => {
      const n = stops(v).length;
      const mark = c.model.requests.length;
      const text = `${TRIGGERS.settings} ${what}`;
      await send(page, text);
      await turnEnded(v, n + 1, what);
      const call = promptCall(c.model.requests, text, mark);
      expect(call, `the model call for "${text}"`).toBeTruthy();
      return call!;
    };
    const before = await settingsTurn("before the change");
    await v.op({ op: "config.set", configId: write!.command.configId, value: write!.command.value });
    // Applied by the agent (its config update) before the next prompt goes.
    await waitFor(() => JSON.stringify(v.ofKind("config_state").at(-1)?.config ?? {}).includes(`"currentValue":${JSON.stringify(write!.command.t === "config.set" ? write!.command.value : "")}`), "setting applied", TURN_MS);
    const changed = await settingsTurn("after the change");
    write!.check(before, changed); // the write works at all

    await stack.restartDaemon();
    await tid(page, "session-status").filter({ hasText: /idle/i }).waitFor({ timeout: START_MS });
    const afterRestart = await settingsTurn("after the restart");
    // Today the agents report (and use) their defaults after session/load: this fails until the daemon re-applies.
    write!.check(before, afterRestart);
  });
});
