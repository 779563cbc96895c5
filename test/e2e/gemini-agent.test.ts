// The daemon against an ACP agent nobody here wrote: the pinned Gemini CLI (`gemini --acp`), offline.
// Its model is a scripted fake (`--fake-responses-non-strict`, test/fixtures/gemini/script.jsonl); everything
// else — ACP server, tools, permission policy, shell, cancel, model switch — is the real CLI.
// The agent runs behind stdio-recorder.mjs so the test can check what Gemini itself received, and, where
// user namespaces allow it, inside `unshare -rn` (no network interface at all).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { DESKTOP, shot } from "./browser";
import { canUnshareNet, ensureGemini, GEMINI_INSTALL_MS, geminiArgv, geminiEnv, geminiHome } from "../fixtures/gemini/gemini-launch";
import { useStackAndBrowser } from "./file-stack";
import { tid } from "./session-page";
import { FAST_DEMO, NodeViewer, waitFor } from "./support";

const RECORDER = join(import.meta.dirname, "stdio-recorder.mjs");
/** Gemini's first start (config, tool registry, policy) takes seconds, longer on a loaded machine. */
const AGENT_START_MS = 60_000;
/** One scripted model step plus real tool execution. */
const STEP_MS = 30_000;

type Logged = { dir: "toAgent" | "fromAgent"; t: number; msg: Record<string, any> };

let base: string;
let workspace: string;
let logDir: string;

// Before the stack's hooks (registered next): the daemon must find the CLI in the agents' cache.
beforeAll(ensureGemini, GEMINI_INSTALL_MS);

const e2e = useStackAndBrowser({
  daemonEnv: () => {
    base = mkdtempSync(join(tmpdir(), "baton-gemini-"));
    workspace = join(base, "workspace");
    mkdirSync(workspace);
    logDir = join(base, "acp-log");
    const agent = { id: "gemini", command: process.execPath, args: [RECORDER, logDir, "--", ...geminiArgv()], env: geminiEnv(geminiHome(base)) };
    const config = join(base, "baton-config.json");
    writeFileSync(config, JSON.stringify({ agents: [agent] }));
    return { ...FAST_DEMO, BATON_CONFIG: config };
  },
  cleanup: () => {
    if (base) rmSync(base, { recursive: true, force: true });
  },
});

async function createGeminiSession(): Promise<string> {
  const { machines } = (await (await fetch(`${e2e.stack.url}/api/machines`)).json()) as {
    machines: { id: string; online: boolean; agents: { id: string; label: string; capabilities: Record<string, boolean> }[] }[];
  };
  const machine = machines.find((m) => m.online)!;
  const gemini = machine.agents.find((a) => a.id === "gemini");
  expect(gemini).toMatchObject({ label: "Gemini CLI", capabilities: { modes: true, configOptions: false, steering: false } });
  const r = await fetch(`${e2e.stack.url}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ machineId: machine.id, agentId: "gemini", cwd: workspace }),
  });
  if (r.status !== 201) throw new Error(`create session: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { session: { id: string } }).session.id;
}

async function send(page: Page, text: string) {
  await tid(page, "composer-input").fill(text);
  await tid(page, "send-button").click();
}

function stops(v: NodeViewer): (string | null | undefined)[] {
  return v.ofKind("session_status").filter((s) => s.state === "idle" && s.stopReason).map((s) => s.stopReason);
}

async function turnEnded(v: NodeViewer, n: number, what: string) {
  await waitFor(() => stops(v).length >= n, what, STEP_MS);
}

/** The recorded ACP traffic of the agent process that opened a session in `cwd`. */
function agentLog(cwd: string): Logged[] {
  for (const f of existsSync(logDir) ? readdirSync(logDir) : []) {
    const lines = readFileSync(join(logDir, f), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Logged);
    if (lines.some((l) => l.dir === "toAgent" && l.msg.method === "session/new" && l.msg.params?.cwd === cwd)) return lines;
  }
  throw new Error(`no recorded agent process for ${cwd}`);
}

describe("the real Gemini CLI (0.61, offline) through the tunnel", () => {
  it("text, tool calls, a permission answered in Chromium, a held mid-turn message, session/set_model, Stop", async () => {
    const sessionId = await createGeminiSession();
    const v = await new NodeViewer(e2e.stack.url, sessionId).open();
    const ctx = await e2e.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    // On a failure, keep a picture of what the browser showed.
    onTestFailed(() => shot(page, "gemini-failure").catch(() => {}));
    await page.goto(`${e2e.stack.url}/s/${sessionId}`);
    await waitFor(() => v.status() === "idle", "Gemini session ready", AGENT_START_MS);
    // The first page load compiles the client in vite's dev server: slow on a loaded machine.
    await tid(page, "session-status").filter({ hasText: /idle/i }).waitFor({ timeout: AGENT_START_MS });

    // What Gemini 0.61 advertises: legacy models + modes, no config options, no steering, images.
    const cfg = v.ofKind("config_state").at(-1)!.config;
    expect(cfg.configOptions).toEqual([]);
    expect(cfg.steering).toBe(false);
    expect(cfg.images).toBe(true);
    expect(cfg.modes?.availableModes.map((m) => m.id)).toEqual(expect.arrayContaining(["default", "autoEdit", "yolo"]));
    expect(cfg.models?.availableModels.map((m) => m.modelId)).toContain("gemini-2.5-pro");
    // …so the Sender shows a model select (legacy API) and a mode select, and no effort select.
    await tid(page, "mode-select").waitFor();
    expect(await tid(page, "effort-select").count()).toBe(0);

    // The model select drives Gemini's legacy `session/set_model`; the CLI's own /about reports the switch.
    await tid(page, "model-select").selectOption("gemini-2.5-pro");
    await waitFor(() => v.ofKind("config_state").at(-1)?.config.models?.currentModelId === "gemini-2.5-pro", "model switched");
    await send(page, "/about");
    await tid(page, "row-agent").filter({ hasText: "Model: gemini-2.5-pro" }).waitFor({ timeout: STEP_MS });
    await turnEnded(v, 1, "/about answered");

    // A plain text reply, rendered as markdown.
    await send(page, "hello");
    await tid(page, "row-agent").locator("h2", { hasText: "Hello from Gemini" }).waitFor({ timeout: STEP_MS });
    await turnEnded(v, 2, "hello answered");

    // Tools: a read-only command Gemini runs on its own, then one it asks permission for.
    await send(page, "use the tools");
    await tid(page, "row-tool").filter({ hasText: "echo baton-gemini-tool-ok" }).and(page.locator("[data-status=completed]")).waitFor({ timeout: STEP_MS });
    const card = tid(page, "permission-card").filter({ hasText: "touch baton-gemini-was-here.txt" });
    await card.waitFor({ timeout: STEP_MS });

    // A message sent while the turn waits is held in the room (Gemini would preempt the running turn).
    await send(page, "a message held while the tool turn runs");
    await tid(page, "queue-chip").filter({ hasText: "held while the tool turn runs" }).waitFor();
    expect(await tid(page, "chip-steer").count()).toBe(0); // no steering advertised
    await shot(page, "gemini-permission-and-held-message");
    expect(existsSync(join(workspace, "baton-gemini-was-here.txt"))).toBe(false);

    // Allow from the browser: the command really runs, the turn ends normally, then the held message goes.
    await card.getByTestId("permission-option").filter({ hasText: /^Allow$/ }).click();
    await tid(page, "row-agent").filter({ hasText: "Both commands ran" }).waitFor({ timeout: STEP_MS });
    expect(existsSync(join(workspace, "baton-gemini-was-here.txt"))).toBe(true);
    await tid(page, "row-user").filter({ hasText: "held while the tool turn runs" }).waitFor({ timeout: STEP_MS });
    await tid(page, "row-agent").filter({ hasText: "Your held message arrived" }).waitFor({ timeout: STEP_MS });
    await turnEnded(v, 4, "held message answered");
    expect(stops(v).slice(0, 4)).toEqual(["end_turn", "end_turn", "end_turn", "end_turn"]);
    await shot(page, "gemini-tools-done");

    // Stop while a long shell command runs.
    await send(page, "long");
    const sleepCard = tid(page, "permission-card").filter({ hasText: "sleep 30" });
    await sleepCard.getByTestId("permission-option").filter({ hasText: /^Allow$/ }).click({ timeout: STEP_MS });
    await sleepCard.getByTestId("permission-resolved").waitFor();
    await tid(page, "stop-button").click();
    await turnEnded(v, 5, "cancelled turn ended");
    expect(stops(v)[4]).toBe("cancelled");
    await tid(page, "session-status").filter({ hasText: /idle/i }).waitFor({ timeout: STEP_MS });
    // Gemini kills the command and reports the tool call "completed" with this text (its wording, relayed as is).
    await tid(page, "row-tool").filter({ hasText: "sleep 30" }).filter({ hasText: "Command cancelled by user." }).waitFor({ timeout: STEP_MS });
    const jump = page.getByRole("button", { name: "Jump to latest" });
    if (await jump.isVisible()) await jump.click();
    await shot(page, "gemini-cancelled");

    // The session carries on after the cancel.
    await send(page, "after");
    await tid(page, "row-agent").filter({ hasText: "Still here after the cancel." }).waitFor({ timeout: STEP_MS });
    await turnEnded(v, 6, "turn after cancel");

    // What Gemini itself received, from the recorder between the daemon and the agent.
    const log = agentLog(workspace);
    const init = log.find((l) => l.dir === "toAgent" && l.msg.method === "initialize")!;
    // Forms, boolean options and login hints; no fs / terminal offered (the agent works on the machine itself).
    expect(init.msg.params.clientCapabilities).toEqual({ elicitation: { form: {} }, session: { configOptions: { boolean: {} } }, _meta: { "terminal-auth": true } });
    const setModel = log.find((l) => l.dir === "toAgent" && l.msg.method === "session/set_model")!;
    expect(setModel.msg.params.modelId).toBe("gemini-2.5-pro");
    expect(log.some((l) => l.dir === "fromAgent" && l.msg.id === setModel.msg.id && l.msg.result)).toBe(true);
    expect(log.filter((l) => l.dir === "toAgent" && l.msg.method === "session/cancel")).toHaveLength(1);
    // Never a second session/prompt while one is unanswered.
    const open = new Set<unknown>();
    const prompts: string[] = [];
    for (const l of log) {
      if (l.dir === "toAgent" && l.msg.method === "session/prompt") {
        expect(open.size, `prompt "${l.msg.params.prompt[0]?.text}" sent while another turn ran`).toBe(0);
        open.add(l.msg.id);
        prompts.push(l.msg.params.prompt.map((b: { text?: string }) => b.text ?? "").join(""));
      } else if (l.dir === "fromAgent" && open.has(l.msg.id) && !l.msg.method) open.delete(l.msg.id);
    }
    expect(prompts).toEqual(["/about", "hello", "use the tools", "a message held while the tool turn runs", "long", "after"]);
    if (!canUnshareNet()) console.warn("unshare -rn unavailable: Gemini ran with the network present (settings still disable telemetry)");

    v.close();
    await ctx.close();
  });
});
