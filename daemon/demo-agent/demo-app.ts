/** The demo agent's ACP handlers (agent side of the SDK). The script it plays is documented in main.ts. */
import { randomUUID } from "node:crypto";
import * as acp from "@agentclientprotocol/sdk";
import { z } from "zod";
import { chunkText, markdownReply, parseDemoScript, type DemoScript } from "./demo-script";
import {
  DEFAULT_CONFIG_VALUES,
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
import { appendHistory, loadSession, saveSession, type StoredSession } from "./demo-store";
import { DemoTurn } from "./demo-turn";

export const DEMO_AGENT_VERSION = "0.1.0";
export const STEERING_METHOD = "_session/steering";
export const LEGACY_SET_MODEL_METHOD = "session/set_model";

type DemoSession = StoredSession & { turn: DemoTurn | null };

const SteeringParams = z.object({ sessionId: z.string(), prompt: z.array(z.object({ type: z.string() }).passthrough()) });
const SetModelParams = z.object({ sessionId: z.string(), modelId: z.string() });

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
    configOptions: configOptionsFor(s.config),
    ...(settings.legacyModels ? { models: legacyModelsFor(s.config.model) } : {}),
  });

  const app = acp
    .agent({ name: "baton-demo-agent" })
    .onRequest(acp.methods.agent.initialize, () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentInfo: { name: "baton-demo-agent", title: "Baton demo agent", version: DEMO_AGENT_VERSION },
      authMethods: [],
      agentCapabilities: {
        loadSession: settings.loadSession,
        promptCapabilities: { image: true, audio: false, embeddedContext: false },
        mcpCapabilities: { http: false, sse: false },
        _meta: settings.steering ? { steering: { supported: true, idleBehavior: "promptRequired" } } : {},
      },
    }))
    .onRequest(acp.methods.agent.session.new, ({ params }) => {
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
      return { sessionId: s.sessionId, ...sessionConfig(s) };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
      if (!settings.loadSession) throw acp.RequestError.methodNotFound(acp.methods.agent.session.load);
      const stored = loadSession(settings.stateDir, params.sessionId);
      if (!stored) throw acp.RequestError.sessionNotFound(params.sessionId);
      const s: DemoSession = { ...stored, cwd: params.cwd, turn: null };
      sessions.set(s.sessionId, s);
      for (const update of s.history) await client.notify(acp.methods.client.session.update, { sessionId: s.sessionId, update });
      return sessionConfig(s);
    })
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      const s = getSession(params.sessionId);
      if (!DEMO_MODES.some((m) => m.id === params.modeId)) throw acp.RequestError.invalidParams({ modeId: params.modeId }, "unknown mode");
      s.modeId = params.modeId;
      persist(s);
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
      const s = getSession(params.sessionId);
      const value = params.value;
      if (typeof value !== "string") throw acp.RequestError.invalidParams({ configId: params.configId }, "expected a select value");
      const next: DemoConfigValues = { ...s.config };
      if (params.configId === MODEL_CONFIG_ID && DEMO_MODELS.some((m) => m.value === value)) next.model = value;
      else if (params.configId === EFFORT_CONFIG_ID && DEMO_EFFORTS.some((e) => e.value === value)) next.effort = value;
      else throw acp.RequestError.invalidParams({ configId: params.configId, value }, "unknown config option or value");
      s.config = next;
      persist(s);
      return { configOptions: configOptionsFor(s.config) };
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
      const s = getSession(params.sessionId);
      if (s.turn) throw new acp.RequestError(-32000, "a turn is already running in this session");
      const turn = new DemoTurn();
      s.turn = turn;
      for (const block of params.prompt) appendHistory(s.history, { sessionUpdate: "user_message_chunk", content: historyBlock(block) });
      try {
        const script = parseDemoScript(promptText(params.prompt));
        const imageCount = params.prompt.filter((b) => b.type === "image").length;
        await playScript({ settings, session: s, turn, client, script, text: promptText(params.prompt), imageCount });
        return { stopReason: turn.cancelled ? "cancelled" : "end_turn" };
      } finally {
        s.turn = null;
        persist(s);
      }
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.turn?.cancel();
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

type PlayContext = {
  settings: DemoSettings;
  session: DemoSession;
  turn: DemoTurn;
  client: acp.AgentContext;
  script: DemoScript;
  text: string;
  imageCount: number;
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
      await say(`⏳ ${i}/${units}\n`);
      await turn.sleep(settings.sleepUnitMs, flushSteers);
    }
  };

  switch (script.kind) {
    case "markdown":
      await stream(markdownReply(p.text, p.imageCount));
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
    case "plan":
      await playPlan(p, update, stream);
      break;
    case "tool":
      await playTool(p, update, stream);
      break;
    case "permission":
      await playPermission(p, update, stream);
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

async function playPlan(p: PlayContext, update: UpdateFn, stream: StreamFn): Promise<void> {
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

async function playTool(p: PlayContext, update: UpdateFn, stream: StreamFn): Promise<void> {
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

async function playPermission(p: PlayContext, update: UpdateFn, stream: StreamFn): Promise<void> {
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
