/** The demo agent's ACP handlers (agent side of the SDK). The script it plays is documented in main.ts. */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import * as acp from "@agentclientprotocol/sdk";
import { z } from "zod";
import { receivedLines } from "./demo-received";
import { chunkText, markdownReply, parseDemoScript, type DemoScript } from "./demo-script";
import {
  DEFAULT_CONFIG_VALUES,
  DEMO_AUTH_METHOD,
  DEMO_COMMANDS,
  FAST_CONFIG_ID,
  DEFAULT_MODE_ID,
  DEMO_EFFORTS,
  DEMO_MODELS,
  DEMO_MODES,
  EFFORT_CONFIG_ID,
  MODEL_CONFIG_ID,
  configOptionsFor,
  legacyModelsFor,
  modeStateFor,
  type DemoConfigValues,
  type DemoSettings,
} from "./demo-settings";
import { appendHistory, deleteStoredSession, listStoredSessions, loadSession, saveSession, type StoredSession } from "./demo-store";
import { DemoTurn } from "./demo-turn";

export const DEMO_AGENT_VERSION = "0.1.0";
export const STEERING_METHOD = "_session/steering";
export const LEGACY_SET_MODEL_METHOD = "session/set_model";
/** claude-agent-acp's and codex-acp's connection-scoped login report (an `_meta`-style extension). */
export const AUTH_STATUS_UPDATE_METHOD = "_auth/status_update";

type DemoSession = StoredSession & { turn: DemoTurn | null };

const SteeringParams = z.object({ sessionId: z.string(), prompt: z.array(z.object({ type: z.string() }).passthrough()) });
const SetModelParams = z.object({ sessionId: z.string(), modelId: z.string() });
/** ACP `session/fork` (unstable in the SDK's stable export, so registered like an extension method). */
export const FORK_METHOD = "session/fork";
const ForkParams = z.object({ sessionId: z.string(), cwd: z.string() }).passthrough();
/** The demo's `session/list` cursor: an offset into the cwd's sessions, most recent first. */
const CURSOR_PREFIX = "demo-offset:";

function promptText(blocks: readonly { type: string; text?: unknown }[]): string {
  return blocks
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join("\n");
}

/** What the history keeps of a user prompt: text and links verbatim, images as a placeholder (no blobs on disk). */
function historyBlock(block: acp.ContentBlock): acp.ContentBlock {
  return block.type === "image" ? { type: "text", text: "[image]" } : block;
}

export function buildDemoAgent(settings: DemoSettings): acp.AgentApp {
  const sessions = new Map<string, DemoSession>();
  /** What the client said it can do (`initialize`): the `ask` script needs form elicitation. */
  let clientCapabilities: acp.ClientCapabilities = {};

  const getSession = (sessionId: string): DemoSession => {
    const s = sessions.get(sessionId);
    if (!s) throw acp.RequestError.sessionNotFound(sessionId);
    return s;
  };
  const persist = (s: DemoSession) => {
    try {
      const { turn: _turn, ...stored } = s;
      saveSession(settings.stateDir, stored);
    } catch (err) {
      process.stderr.write(`[demo-agent] could not save session ${s.sessionId}: ${String(err)}\n`);
    }
  };
  const sessionConfig = (s: DemoSession) => ({
    modes: modeStateFor(s.modeId),
    configOptions: configOptionsFor(s.config, settings.extraOptions),
    ...(settings.legacyModels ? { models: legacyModelsFor(s.config.model) } : {}),
  });

  const app = acp
    .agent({ name: "baton-demo-agent" })
    .onRequest(acp.methods.agent.initialize, ({ params, client }) => {
      clientCapabilities = params.clientCapabilities ?? {};
      const steering = settings.steering ? { steering: { supported: true } } : {};
      if (settings.authRequired) {
        // Like claude / codex: the login report is pushed after the answer, never before it.
        setImmediate(() => {
          client.notify(AUTH_STATUS_UPDATE_METHOD, { authStatus: { kind: "none", label: "Not logged in" } }).catch(() => {});
        });
      }
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentInfo: { name: "baton-demo-agent", title: "Baton demo agent", version: DEMO_AGENT_VERSION },
        authMethods: settings.authRequired ? [DEMO_AUTH_METHOD] : [],
        agentCapabilities: {
          loadSession: settings.loadSession,
          // Its own sessions, on disk (demo-store.ts): listed with a cursor, forked, deleted.
          sessionCapabilities: { list: {}, fork: {}, ...(settings.noDelete ? {} : { delete: {} }) },
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: false, sse: false },
          _meta: settings.steeringAt === "capabilities" ? steering : {},
        },
        // claude and codex put it here, beside agentCapabilities.
        _meta: settings.steeringAt === "top" ? steering : {},
      };
    })
    .onRequest(acp.methods.agent.session.new, ({ params, client }) => {
      if (settings.authRequired) throw acp.RequestError.authRequired(undefined, "log in with `baton-demo-agent login`");
      const s: DemoSession = {
        sessionId: randomUUID(),
        cwd: params.cwd,
        modeId: DEFAULT_MODE_ID,
        config: { ...DEFAULT_CONFIG_VALUES },
        history: [],
        turn: null,
      };
      sessions.set(s.sessionId, s);
      persist(s);
      announceCommands(client, s.sessionId);
      return { sessionId: s.sessionId, ...sessionConfig(s) };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
      if (!settings.loadSession) throw acp.RequestError.methodNotFound(acp.methods.agent.session.load);
      if (settings.authRequired) throw acp.RequestError.authRequired(undefined, "log in with `baton-demo-agent login`");
      const stored = loadSession(settings.stateDir, params.sessionId);
      if (!stored) throw acp.RequestError.sessionNotFound(params.sessionId);
      const s: DemoSession = { ...stored, cwd: params.cwd, turn: null };
      // Real agents come back from a restart with their defaults, not the session's settings.
      if (settings.loadDefaults) Object.assign(s, { modeId: DEFAULT_MODE_ID, config: { ...DEFAULT_CONFIG_VALUES } });
      sessions.set(s.sessionId, s);
      for (const update of s.history) await client.notify(acp.methods.client.session.update, { sessionId: s.sessionId, update });
      announceCommands(client, s.sessionId);
      return sessionConfig(s);
    })
    .onRequest(acp.methods.agent.session.list, ({ params }) => {
      const all = listStoredSessions(settings.stateDir, params.cwd ?? "");
      const from = params.cursor ? Number.parseInt(params.cursor.startsWith(CURSOR_PREFIX) ? params.cursor.slice(CURSOR_PREFIX.length) : "", 10) : 0;
      if (!(Number.isInteger(from) && from >= 0)) throw acp.RequestError.invalidParams({ cursor: params.cursor }, "unknown cursor");
      const page = all.slice(from, from + settings.listPageSize);
      const next = from + page.length < all.length ? `${CURSOR_PREFIX}${from + page.length}` : null;
      return {
        sessions: page.map((s) => ({ sessionId: s.sessionId, cwd: s.cwd, title: s.title ?? null, updatedAt: s.updatedAt ?? null })),
        nextCursor: next,
      };
    })
    .onRequest(acp.methods.agent.session.delete, ({ params }) => {
      if (!loadSession(settings.stateDir, params.sessionId)) throw acp.RequestError.sessionNotFound(params.sessionId);
      sessions.delete(params.sessionId);
      deleteStoredSession(settings.stateDir, params.sessionId);
      return {};
    })
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      const s = getSession(params.sessionId);
      if (!DEMO_MODES.some((m) => m.id === params.modeId)) throw acp.RequestError.invalidParams({ modeId: params.modeId }, "unknown mode");
      if (settings.refuseModes.includes(params.modeId)) throw acp.RequestError.invalidParams({ modeId: params.modeId }, "this mode cannot be chosen now");
      s.modeId = params.modeId;
      persist(s);
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
      const s = getSession(params.sessionId);
      const value = params.value;
      const next: DemoConfigValues = { ...s.config };
      if (settings.extraOptions && params.configId === FAST_CONFIG_ID && typeof value === "boolean") {
        s.config = { ...next, fast: value };
        persist(s);
        return { configOptions: configOptionsFor(s.config, true) };
      }
      if (typeof value !== "string") throw acp.RequestError.invalidParams({ configId: params.configId }, "expected a select value");
      if (params.configId === MODEL_CONFIG_ID && DEMO_MODELS.some((m) => m.value === value)) next.model = value;
      else if (params.configId === EFFORT_CONFIG_ID && DEMO_EFFORTS.some((e) => e.value === value)) next.effort = value;
      else throw acp.RequestError.invalidParams({ configId: params.configId, value }, "unknown config option or value");
      s.config = next;
      persist(s);
      return { configOptions: configOptionsFor(s.config, settings.extraOptions) };
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
      const s = getSession(params.sessionId);
      if (s.turn) throw new acp.RequestError(-32000, "a turn is already running in this session");
      const turn = new DemoTurn();
      s.turn = turn;
      for (const block of params.prompt) appendHistory(s.history, { sessionUpdate: "user_message_chunk", content: historyBlock(block) });
      try {
        const script = parseDemoScript(promptText(params.prompt));
        const received = receivedLines(params.prompt);
        await playScript({ settings, session: s, turn, client, script, text: promptText(params.prompt), received, clientCapabilities });
        return { stopReason: turn.cancelled ? "cancelled" : "end_turn" };
      } finally {
        s.turn = null;
        persist(s);
      }
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.turn?.cancel();
    });

  app.onRequest(FORK_METHOD, ForkParams, ({ params }) => {
    const source = sessions.get(params.sessionId) ?? loadSession(settings.stateDir, params.sessionId);
    if (!source) throw acp.RequestError.sessionNotFound(params.sessionId);
    const fork: DemoSession = {
      sessionId: randomUUID(),
      cwd: params.cwd,
      modeId: source.modeId,
      config: { ...source.config },
      history: source.history.map((u) => ({ ...u })),
      turn: null,
    };
    sessions.set(fork.sessionId, fork);
    persist(fork);
    return { sessionId: fork.sessionId, ...sessionConfig(fork) };
  });

  if (settings.steering) {
    app.onRequest(STEERING_METHOD, SteeringParams, ({ params }) => {
      const s = getSession(params.sessionId);
      if (!s.turn || s.turn.cancelled) return { outcome: "promptRequired" };
      s.turn.steer(promptText(params.prompt as { type: string; text?: unknown }[]) || "(empty)");
      return { outcome: "injected" };
    });
  }
  if (settings.legacyModels) {
    app.onRequest(LEGACY_SET_MODEL_METHOD, SetModelParams, ({ params }) => {
      const s = getSession(params.sessionId);
      if (!DEMO_MODELS.some((m) => m.value === params.modelId)) throw acp.RequestError.invalidParams({ modelId: params.modelId }, "unknown model");
      s.config = { ...s.config, model: params.modelId };
      persist(s);
      return {};
    });
  }
  return app;
}

/** Like the real agents: the command list follows the session's answer (claude 40, codex 16, …). */
function announceCommands(client: acp.AgentContext, sessionId: string): void {
  setImmediate(() => {
    client
      .notify(acp.methods.client.session.update, {
        sessionId,
        update: { sessionUpdate: "available_commands_update", availableCommands: DEMO_COMMANDS.map((c) => ({ ...c })) },
      })
      .catch(() => {});
  });
}

type PlayContext = {
  settings: DemoSettings;
  session: DemoSession;
  turn: DemoTurn;
  client: acp.AgentContext;
  script: DemoScript;
  text: string;
  /** What came besides text ("I received 1 image (image/png, 640×480)."), said in the reply. */
  received: string[];
  clientCapabilities: acp.ClientCapabilities;
};

async function playScript(p: PlayContext): Promise<void> {
  const { settings, session, turn, client, script } = p;
  const sessionId = session.sessionId;
  /** Config pinned at the start of this turn: a change mid-turn applies from the next one. */
  const pinned = { ...session.config, mode: session.modeId };
  const pinnedLine = `model: ${pinned.model}, mode: ${pinned.mode}, thought_level: ${pinned.effort}`;

  const update = async (u: acp.SessionUpdate) => {
    appendHistory(session.history, u);
    await client.notify(acp.methods.client.session.update, { sessionId, update: u });
  };
  const say = (text: string) => update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
  const think = (text: string) => update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text } });
  const flushSteers = async () => {
    for (const t of turn.takeSteers()) await say(`\n\n↪ steered: ${t}\n\n`);
  };
  const stream = async (text: string, emit: (t: string) => Promise<void> = say) => {
    for (const chunk of chunkText(text)) {
      if (turn.cancelled) return;
      await emit(chunk);
      await turn.pause(settings.paceMs);
      await flushSteers();
    }
  };
  const sleepUnits = async (units: number) => {
    for (let i = 1; i <= units && !turn.cancelled; i++) {
      await say(`… ${i}/${units}\n`);
      await turn.sleep(settings.sleepUnitMs, flushSteers);
    }
  };

  switch (script.kind) {
    case "markdown":
      await stream(markdownReply(p.text, p.received));
      break;
    case "sleep":
      await say(`Sleeping for ${script.units} unit${script.units === 1 ? "" : "s"}…\n`);
      await sleepUnits(script.units);
      if (!turn.cancelled) await say(`Done sleeping (${pinnedLine}).\n`);
      break;
    case "config":
      if (script.units > 0) await sleepUnits(script.units);
      if (!turn.cancelled) await say(`Config for this turn: ${pinnedLine}\n`);
      break;
    case "think":
      await stream("Let me think about this. The user wants a demo of thoughts; I will reason briefly, then answer.", think);
      await stream("**Answer:** thinking is shown collapsed above this line.");
      break;
    case "write":
      await playWrite(p, script.file, script.text, { update, stream });
      break;
    case "plan":
    case "tool":
    case "permission":
    case "terminal":
    case "warning":
    case "fence":
    case "blind":
    case "elicit":
      await PLAYERS[script.kind](p, { update, stream });
      break;
    case "error":
      await say("About to fail on purpose…\n");
      throw new acp.RequestError(-32603, "Demo agent error: this turn failed on purpose");
    case "unknown":
      // Not a SessionUpdate kind the SDK schema knows: clients must still relay it.
      await client.notify("session/update" as string, {
        sessionId,
        update: { sessionUpdate: "_demo_custom", payload: { answer: 42, note: "a kind the schema does not know" } },
      });
      await say("Sent a `_demo_custom` session update.\n");
      break;
    case "burst":
      for (let i = 0; i < script.count && !turn.cancelled; i++) await say(i % 50 === 49 ? ".\n" : ".");
      break;
    default:
      assertNeverScript(script);
  }
  if (!turn.cancelled) await flushSteers();
}

function assertNeverScript(x: never): never {
  throw new Error(`unexpected script ${JSON.stringify(x)}`);
}

type UpdateFn = (u: acp.SessionUpdate) => Promise<void>;
type StreamFn = (text: string) => Promise<void>;
/** What a scripted turn sends through: raw session updates, and text streamed in chunks. */
type PlayIo = { update: UpdateFn; stream: StreamFn };

async function playPlan(p: PlayContext, { update, stream }: PlayIo): Promise<void> {
  const steps = ["Read the code", "Write the change", "Run the tests"];
  const statuses: acp.PlanEntryStatus[] = steps.map(() => "pending");
  const sendPlan = () =>
    update({
      sessionUpdate: "plan",
      entries: steps.map((content, i) => ({ content, priority: i === 0 ? "high" : "medium", status: statuses[i]! })),
    });
  await sendPlan();
  for (let i = 0; i < steps.length && !p.turn.cancelled; i++) {
    statuses[i] = "in_progress";
    await sendPlan();
    await p.turn.pause(p.settings.paceMs * 3);
    statuses[i] = "completed";
    await sendPlan();
  }
  await stream("All plan steps are done.");
}

async function playTool(p: PlayContext, { update, stream }: PlayIo): Promise<void> {
  const toolCallId = `tool-${randomUUID()}`;
  const path = `${p.session.cwd.replace(/\/$/, "")}/demo.txt`;
  await update({
    sessionUpdate: "tool_call",
    toolCallId,
    title: "Edit demo.txt",
    kind: "edit",
    status: "pending",
    locations: [{ path }],
    rawInput: { path },
  });
  await p.turn.pause(p.settings.paceMs * 3);
  if (p.turn.cancelled) return;
  await update({
    sessionUpdate: "tool_call_update",
    toolCallId,
    status: "in_progress",
    content: [{ type: "content", content: { type: "text", text: "Editing demo.txt…" } }],
  });
  await p.turn.pause(p.settings.paceMs * 3);
  if (p.turn.cancelled) {
    await update({ sessionUpdate: "tool_call_update", toolCallId, status: "failed" });
    return;
  }
  await update({
    sessionUpdate: "tool_call_update",
    toolCallId,
    status: "completed",
    content: [
      { type: "content", content: { type: "text", text: "Replaced one line." } },
      { type: "diff", path, oldText: "hello world\n", newText: "hello baton\n" },
    ],
    rawOutput: { ok: true },
  });
  await stream("I edited `demo.txt` (nothing was written to disk: this is a demo).");
}

/** `write FILE TEXT`: a real edit in the session's directory, reported as an edit tool call with its diff. */
async function playWrite(p: PlayContext, file: string, text: string, { update, stream }: PlayIo): Promise<void> {
  const toolCallId = `write-${randomUUID()}`;
  const path = `${p.session.cwd.replace(/\/$/, "")}/${file}`;
  await update({ sessionUpdate: "tool_call", toolCallId, title: `Write ${file}`, kind: "edit", status: "pending", locations: [{ path }], rawInput: { path } });
  let oldText: string | null = null;
  try {
    oldText = fs.readFileSync(path, "utf8");
  } catch {
    // a new file
  }
  const newText = `${text}\n`;
  try {
    fs.writeFileSync(path, newText);
  } catch (err) {
    await update({ sessionUpdate: "tool_call_update", toolCallId, status: "failed", content: [{ type: "content", content: { type: "text", text: String(err) } }] });
    return;
  }
  await update({ sessionUpdate: "tool_call_update", toolCallId, status: "completed", content: [{ type: "diff", path, oldText, newText }] });
  await stream(`I wrote \`${file}\`.`);
}

async function playPermission(p: PlayContext, { update, stream }: PlayIo): Promise<void> {
  const toolCallId = `perm-${randomUUID()}`;
  const toolCall = { toolCallId, title: "Run `rm -rf build/`", kind: "execute" as const, status: "pending" as const };
  await update({ sessionUpdate: "tool_call", ...toolCall, rawInput: { command: "rm -rf build/" } });
  const options: acp.PermissionOption[] = [
    { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
    { optionId: "allow_always", name: "Always allow", kind: "allow_always" },
    { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  ];
  const reply: acp.RequestPermissionResponse = await p.client.request(acp.methods.client.session.requestPermission, {
    sessionId: p.session.sessionId,
    toolCall,
    options,
  });
  if (reply.outcome.outcome === "cancelled" || p.turn.cancelled) {
    p.turn.cancelled = true;
    await update({ sessionUpdate: "tool_call_update", toolCallId, status: "failed" });
    return;
  }
  const chosen = reply.outcome.optionId;
  const option = options.find((o) => o.optionId === chosen);
  const allowed = option?.kind === "allow_once" || option?.kind === "allow_always";
  await update({ sessionUpdate: "tool_call_update", toolCallId, status: allowed ? "completed" : "failed" });
  await stream(`You chose **${chosen}** (${option?.name ?? "unknown option"}). ${allowed ? "Pretending to run it." : "Not running it."}`);
}

/** Codex-style command output: `terminal` content (no client terminal asked for) and the output in `_meta`. */
async function playTerminal(p: PlayContext, { update, stream }: PlayIo): Promise<void> {
  const toolCallId = `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
  const meta = (extra: Record<string, unknown>) => ({ _meta: extra });
  await update({
    sessionUpdate: "tool_call",
    toolCallId,
    title: "Run npm test",
    kind: "execute",
    status: "in_progress",
    rawInput: { command: ["bash", "-lc", "npm test"], cwd: p.session.cwd },
    content: [{ type: "terminal", terminalId: toolCallId }],
    ...meta({ terminal_info: { cwd: p.session.cwd, terminal_id: toolCallId } }),
  });
  const chunks = [
    "\u001b[1m> demo@1.0.0 test\u001b[22m\n",
    "\u001b[32m✓\u001b[39m adds numbers \u001b[2m(2 ms)\u001b[22m\n",
    "\u001b[32m✓\u001b[39m streams output\n",
    "\u001b[31m✗\u001b[39m \u001b[1mflaky one\u001b[22m skipped\n",
    "\n\u001b[1mTests:\u001b[22m \u001b[32m2 passed\u001b[39m, 1 skipped\n",
  ];
  for (const data of chunks) {
    await p.turn.pause(p.settings.paceMs * 2);
    if (p.turn.cancelled) break;
    await update({ sessionUpdate: "tool_call_update", toolCallId, ...meta({ terminal_output_delta: { data, terminal_id: toolCallId } }) });
  }
  if (p.turn.cancelled) {
    await update({ sessionUpdate: "tool_call_update", toolCallId, status: "failed" });
    return;
  }
  await update({
    sessionUpdate: "tool_call_update",
    toolCallId,
    status: "completed",
    ...meta({ terminal_exit: { exit_code: 0, signal: null, terminal_id: toolCallId } }),
  });
  await stream("The tests ran (this was a demo: nothing ran).");
}

/**
 * Claude's first turn: a "**Warning:**" chunk without a `messageId` around the answer, whose chunks all carry
 * one. A client must not glue them into one row.
 */
async function playWarning(p: PlayContext, { update }: PlayIo): Promise<void> {
  const messageId = `msg_${randomUUID()}`;
  const chunk = (text: string, id?: string) =>
    update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text }, ...(id ? { messageId: id } : {}) });
  await chunk("**Warning:** the demo agent's config could not be read; using defaults.\n");
  for (const text of ["Here is ", "the answer, ", "in its own message."]) {
    await p.turn.pause(p.settings.paceMs);
    if (p.turn.cancelled) return;
    await chunk(text, messageId);
  }
  await chunk("**Warning:** one more note without a message id.");
}

/** Claude-style tool output: the result is a markdown ```console fence in the tool call's content. */
async function playFence(p: PlayContext, { update, stream }: PlayIo): Promise<void> {
  const toolCallId = `toolu_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
  await update({
    sessionUpdate: "tool_call",
    toolCallId,
    title: "`ls -la`",
    kind: "execute",
    status: "pending",
    rawInput: { command: "ls -la", description: "List files" },
  });
  await p.turn.pause(p.settings.paceMs * 3);
  if (p.turn.cancelled) return;
  const output = "total 8\ndrwxr-xr-x 2 demo demo 4096 .\n-rw-r--r-- 1 demo demo   12 demo.txt";
  await update({
    sessionUpdate: "tool_call_update",
    toolCallId,
    status: "completed",
    content: [{ type: "content", content: { type: "text", text: "```console\n" + output + "\n```" } }],
    rawOutput: output,
  });
  await stream("Listed the files.");
}

/** Copilot-style permission: the title is the model's description; the command is only in `rawInput`. */
async function playBlindPermission(p: PlayContext, { update, stream }: PlayIo): Promise<void> {
  const toolCallId = `blind-${randomUUID()}`;
  const toolCall = {
    toolCallId,
    title: "print a greeting",
    kind: "execute" as const,
    status: "pending" as const,
    rawInput: { command: "echo hello from baton", description: "print a greeting" },
  };
  await update({ sessionUpdate: "tool_call", ...toolCall });
  const options: acp.PermissionOption[] = [
    { optionId: "allow_once", name: "Allow", kind: "allow_once" },
    { optionId: "reject_once", name: "Deny", kind: "reject_once" },
  ];
  const reply: acp.RequestPermissionResponse = await p.client.request(acp.methods.client.session.requestPermission, {
    sessionId: p.session.sessionId,
    toolCall,
    options,
  });
  const allowed = reply.outcome.outcome === "selected" && reply.outcome.optionId === "allow_once" && !p.turn.cancelled;
  if (reply.outcome.outcome === "cancelled") p.turn.cancelled = true;
  await update({ sessionUpdate: "tool_call_update", toolCallId, status: allowed ? "completed" : "failed" });
  if (!p.turn.cancelled) await stream(allowed ? "hello from baton" : "Not running it.");
}

/** The form `ask` sends: one field of each kind the ACP elicitation schema has. */
export const DEMO_ELICITATION_SCHEMA = {
  type: "object" as const,
  properties: {
    name: { type: "string" as const, title: "Project name", minLength: 1, maxLength: 40 },
    language: { type: "string" as const, title: "Language", oneOf: [
      { const: "ts", title: "TypeScript" },
      { const: "py", title: "Python" },
    ] },
    size: { type: "string" as const, title: "Size", enum: ["small", "large"] },
    workers: { type: "integer" as const, title: "Workers", minimum: 1, maximum: 8, default: 2 },
    tests: { type: "boolean" as const, title: "Add tests", default: true },
    extras: { type: "array" as const, title: "Extras", items: { anyOf: [
      { const: "lint", title: "Linting" },
      { const: "ci", title: "CI" },
    ] } },
  },
  required: ["name", "language"],
};

/** Claude's AskUserQuestion as an ACP form elicitation (only for a client that advertises `elicitation.form`). */
async function playElicitation(p: PlayContext, { stream }: PlayIo): Promise<void> {
  if (!p.clientCapabilities.elicitation?.form) {
    await stream("This client does not support form elicitation, so I will not ask.");
    return;
  }
  const reply: acp.CreateElicitationResponse = await p.client.request(acp.methods.client.elicitation.create, {
    mode: "form",
    sessionId: p.session.sessionId,
    message: "A few questions before I scaffold the project",
    requestedSchema: DEMO_ELICITATION_SCHEMA,
  });
  if (p.turn.cancelled) return;
  if (reply.action === "accept") {
    const content = "content" in reply && reply.content ? reply.content : {};
    await stream(`You answered: ${JSON.stringify(content)}`);
  } else if (reply.action === "cancel") {
    p.turn.cancelled = true;
  } else {
    await stream(`You chose **${reply.action}**; carrying on without answers.`);
  }
}

/** The scripts played by a function of their own. */
const PLAYERS = {
  plan: playPlan,
  tool: playTool,
  permission: playPermission,
  terminal: playTerminal,
  warning: playWarning,
  fence: playFence,
  blind: playBlindPermission,
  elicit: playElicitation,
} satisfies Partial<Record<DemoScript["kind"], (p: PlayContext, io: PlayIo) => Promise<void>>>;
