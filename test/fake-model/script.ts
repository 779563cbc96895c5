/**
 * What the fake model answers, decided from a request in any of the three wire formats (pure: no I/O).
 *
 * The script is keyed on the last user message's text:
 * - contains `baton-slow`    → a long answer streamed slowly (cancellable: the server stops when the client goes)
 * - contains `baton-wait`    → an answer streamed over ~5 s (a turn that is still running when the next message comes)
 * - contains `baton-tool`    → a call of the shell tool the request offers running `echo baton-tool-ok`
 * - contains `baton-touch`   → a shell call that needs permission: `touch baton-was-here.txt` (asks to escalate where the tool can)
 * - contains `baton-settings`→ an answer naming the request's model and reasoning effort (proves mid-turn writes)
 * - contains `baton-edit PATH` → a new file PATH holding EDIT_TEXT, through the agent's own file tool (claude's
 *   `Write`, codex's freeform `apply_patch`), so the agent reports it as an edit with its diff
 * - anything else            → "Fake reply to: <text>"
 * When the request's last item is a tool result, the answer is "Tool said: <output>" (ends the tool loop).
 * Without a shell tool offered (side requests: titles, suggestions) the tool scripts answer with text.
 */

export const ECHO_COMMAND = "echo baton-tool-ok";
export const TOUCH_COMMAND = "touch baton-was-here.txt";
export const TOUCH_FILE = "baton-was-here.txt";
/** The model's own description of the echo call (copilot shows it as the tool title). */
export const ECHO_DESCRIPTION = "print a greeting";
export const TOUCH_DESCRIPTION = "create a marker file";

export const TRIGGERS = { wait: "baton-wait", slow: "baton-slow", tool: "baton-tool", touch: "baton-touch", settings: "baton-settings", edit: "baton-edit" } as const;
/** What `baton-edit PATH` writes. */
export const EDIT_TEXT = "edited by the agent\n";
const EDIT_TARGET = /baton-edit (\S+)/;

/** Slow stream pacing: long enough for a test to steer, stop or reload mid-turn; short enough to finish if nobody does. */
export const SLOW_CHUNKS = 150;
export const SLOW_CHUNK_MS = 200;
export const WAIT_CHUNKS = 25;

export type Api = "anthropic" | "responses" | "chat";

/** `freeform`: a Responses API custom tool (its input is text, e.g. codex's `apply_patch` grammar). */
export type ToolSpec = { name: string; schema: JsonSchema | undefined; freeform?: boolean };
type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[]; enum?: unknown[]; default?: unknown; items?: JsonSchema };

/** What a request carried, in a form common to the three APIs. */
export type RequestView = {
  api: Api;
  model: string;
  stream: boolean;
  /** Text of the last user message (its last text part that is not a `<tag>` block the agent added). */
  lastUserText: string;
  /** Output of the tool call, when the request's last item is a tool result. */
  toolResult: string | null;
  tools: ToolSpec[];
  /** Reasoning effort / thinking as sent (anthropic: output_config.effort or thinking; openai: reasoning.effort / reasoning_effort). */
  effort: string | null;
};

export type Reply =
  | { kind: "text"; text: string; chunkMs: number; chunks?: string[] }
  /** `freeform`: the call's text input to a custom tool (Responses API), instead of JSON `input`. */
  | { kind: "tool"; name: string; input: Record<string, unknown>; preamble: string; freeform?: string };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Text parts of a message content (string or array of typed parts). */
function textParts(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.filter(isObj).flatMap((p) => (typeof p.text === "string" && ["text", "input_text", "output_text"].includes(str(p.type) || "text") ? [p.text] : []));
}

/**
 * The user's own words: agents add `<system-reminder>` / `<environment_context>` / `<current_datetime>` blocks,
 * as separate parts or messages or in front of the text.
 */
function userWords(parts: string[]): string | null {
  const own = parts.map((p) => p.replace(/<([A-Za-z_-]+)(\s[^>]*)?>[\s\S]*?<\/\1>/g, "").trim()).filter((p) => p && !p.startsWith("<"));
  return own.length ? own[own.length - 1]! : null;
}

function toolOutputText(v: unknown): string {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return textParts(v).join("\n");
  if (isObj(v)) return textParts(v.content).join("\n") || JSON.stringify(v);
  return "";
}

export function viewRequest(api: Api, body: unknown): RequestView {
  const b = isObj(body) ? body : {};
  const model = str(b.model);
  const stream = b.stream === true;
  let lastUserText = "";
  let toolResult: string | null = null;
  let tools: ToolSpec[] = [];
  let effort: string | null = null;
  switch (api) {
    case "anthropic": {
      const messages = Array.isArray(b.messages) ? b.messages.filter(isObj) : [];
      for (const m of messages) if (m.role === "user") lastUserText = userWords(textParts(m.content)) ?? lastUserText;
      const last = messages[messages.length - 1];
      const results = last && last.role === "user" && Array.isArray(last.content) ? last.content.filter((p) => isObj(p) && p.type === "tool_result") : [];
      if (results.length) toolResult = results.map((r) => toolOutputText(isObj(r) ? r.content : "")).join("\n");
      tools = (Array.isArray(b.tools) ? b.tools.filter(isObj) : []).map((t) => ({ name: str(t.name), schema: t.input_schema as JsonSchema | undefined }));
      const oc = isObj(b.output_config) ? b.output_config : null;
      const th = isObj(b.thinking) ? b.thinking : null;
      effort = str(oc?.effort) || (th ? `thinking:${str(th.type)}${th.budget_tokens ? `/${String(th.budget_tokens)}` : ""}` : "") || null;
      break;
    }
    case "responses": {
      const input = Array.isArray(b.input) ? b.input.filter(isObj) : typeof b.input === "string" ? [{ role: "user", content: b.input }] : [];
      for (const it of input) if (it.role === "user" && (it.type === undefined || it.type === "message")) lastUserText = userWords(textParts(it.content)) ?? lastUserText;
      const last = input[input.length - 1];
      if (last && (last.type === "function_call_output" || last.type === "custom_tool_call_output")) toolResult = toolOutputText(last.output);
      tools = (Array.isArray(b.tools) ? b.tools.filter(isObj) : [])
        .filter((t) => t.type === "function" || t.type === "custom")
        .map((t) => ({ name: str(t.name), schema: t.parameters as JsonSchema | undefined, ...(t.type === "custom" ? { freeform: true } : {}) }));
      const r = isObj(b.reasoning) ? b.reasoning : null;
      effort = str(r?.effort) || null;
      break;
    }
    case "chat": {
      const messages = Array.isArray(b.messages) ? b.messages.filter(isObj) : [];
      for (const m of messages) if (m.role === "user") lastUserText = userWords(textParts(m.content)) ?? lastUserText;
      const last = messages[messages.length - 1];
      if (last?.role === "tool") {
        const trailing: string[] = [];
        for (let i = messages.length - 1; i >= 0 && messages[i]!.role === "tool"; i--) trailing.unshift(toolOutputText(messages[i]!.content));
        toolResult = trailing.join("\n");
      }
      tools = (Array.isArray(b.tools) ? b.tools.filter(isObj) : [])
        .map((t) => (isObj(t.function) ? t.function : t))
        .map((f) => ({ name: str(f.name), schema: f.parameters as JsonSchema | undefined }));
      effort = str(b.reasoning_effort) || (isObj(b.reasoning) ? str(b.reasoning.effort) : "") || null;
      break;
    }
  }
  return { api, model, stream, lastUserText, toolResult, tools, effort };
}

/** Shell tool names the agents use, most specific first (claude, codex, qwen, opencode/pi/copilot). */
const SHELL_TOOLS = ["Bash", "exec_command", "shell", "shell_command", "run_shell_command", "bash"];

export function findShellTool(tools: readonly ToolSpec[]): ToolSpec | null {
  for (const name of SHELL_TOOLS) {
    const t = tools.find((x) => x.name === name);
    if (t) return t;
  }
  return tools.find((t) => /bash|shell/i.test(t.name)) ?? null;
}

/**
 * The agent's first model call for the user prompt `text` (at index ≥ `from`): a main-loop call (it offers the shell
 * tool) whose last user message is that prompt, not a tool result's follow-up. "The first call offering the shell
 * tool" is not it: claude's prompt-suggestion side request after a turn offers the main loop's tools and carries
 * that turn's settings, and it can reach the server after the next prompt was sent (the turn ends at the agent's
 * result; the suggestion is asked for after it).
 */
export function promptCall<R extends { view: RequestView | null }>(requests: readonly R[], text: string, from = 0): R | undefined {
  return requests.slice(from).find((r) => r.view !== null && findShellTool(r.view.tools) !== null && r.view.toolResult === null && r.view.lastUserText.includes(text));
}

/** Arguments for a shell tool from its JSON schema: the command where it goes, the other required fields filled sensibly. */
export function shellArguments(tool: ToolSpec, command: string, description: string, escalate: boolean): Record<string, unknown> {
  const props = tool.schema?.properties ?? {};
  const required = new Set(tool.schema?.required ?? []);
  const out: Record<string, unknown> = {};
  const typeOf = (s: JsonSchema | undefined) => (Array.isArray(s?.type) ? s!.type[0] : s?.type);
  const commandKey = ["command", "cmd"].find((k) => k in props) ?? "command";
  out[commandKey] = typeOf(props[commandKey]) === "array" ? ["bash", "-lc", command] : command;
  for (const [key, s] of Object.entries(props)) {
    if (key === commandKey) continue;
    if (/^description$|^summary$/.test(key)) out[key] = description;
    // codex refuses a justification without an escalation request.
    else if (key === "justification") {
      if (escalate || required.has(key)) out[key] = description;
    }
    else if (key === "sandbox_permissions" && escalate) out[key] = "require_escalated";
    else if (key === "with_escalated_permissions" && escalate) out[key] = true;
    else if (required.has(key)) {
      if (s.default !== undefined) out[key] = s.default;
      else if (s.enum?.length) out[key] = s.enum[0];
      else if (typeOf(s) === "boolean") out[key] = false;
      else if (typeOf(s) === "number" || typeOf(s) === "integer") out[key] = /timeout|wait/i.test(key) ? 30 : 0;
      else if (typeOf(s) === "string") out[key] = /dir|cwd|path/i.test(key) ? "." : key === "mode" ? "sync" : description;
      else if (typeOf(s) === "array") out[key] = [];
      else if (typeOf(s) === "object") out[key] = {};
    }
  }
  return out;
}

/** Side requests (titles, suggestions) and the main loop alike get an answer; a title request offers no tools (claude's prompt suggestion offers the main loop's, so it is told apart by its last user message). */
export function decide(v: RequestView): Reply {
  if (v.toolResult !== null) return { kind: "text", text: `Tool said: ${v.toolResult.trim().slice(0, 400)}`, chunkMs: 5 };
  const text = v.lastUserText;
  const shell = findShellTool(v.tools);
  if (text.includes(TRIGGERS.tool) && shell) {
    return { kind: "tool", name: shell.name, input: shellArguments(shell, ECHO_COMMAND, ECHO_DESCRIPTION, false), preamble: "Running the tool." };
  }
  if (text.includes(TRIGGERS.touch) && shell) {
    return { kind: "tool", name: shell.name, input: shellArguments(shell, TOUCH_COMMAND, TOUCH_DESCRIPTION, true), preamble: "Creating the file." };
  }
  const target = text.includes(TRIGGERS.edit) ? EDIT_TARGET.exec(text)?.[1] : undefined;
  const writeTool = v.tools.find((t) => t.name === "Write");
  const patchTool = v.tools.find((t) => t.name === "apply_patch");
  if (target && writeTool) return { kind: "tool", name: writeTool.name, input: { file_path: target, content: EDIT_TEXT }, preamble: "Writing the file." };
  if (target && patchTool) {
    const patch = `*** Begin Patch\n*** Add File: ${target}\n${EDIT_TEXT.split("\n").slice(0, -1).map((l) => `+${l}\n`).join("")}*** End Patch\n`;
    return patchTool.freeform
      ? { kind: "tool", name: patchTool.name, input: {}, freeform: patch, preamble: "Writing the file." }
      : { kind: "tool", name: patchTool.name, input: { input: patch }, preamble: "Writing the file." };
  }
  if (text.includes(TRIGGERS.slow)) {
    const chunks = Array.from({ length: SLOW_CHUNKS }, (_, i) => `slow-${i + 1} `);
    return { kind: "text", text: chunks.join(""), chunks, chunkMs: SLOW_CHUNK_MS };
  }
  if (text.includes(TRIGGERS.wait)) {
    const chunks = Array.from({ length: WAIT_CHUNKS }, (_, i) => `wait-${i + 1} `);
    return { kind: "text", text: chunks.join(""), chunks, chunkMs: SLOW_CHUNK_MS };
  }
  if (text.includes(TRIGGERS.settings)) return { kind: "text", text: `Settings seen: model=${v.model} effort=${v.effort ?? "none"}`, chunkMs: 5 };
  return { kind: "text", text: `Fake reply to: ${text}`, chunkMs: 5 };
}

/** A streamed text split in a few chunks (so the answer arrives as several deltas). */
export function chunksOf(r: Extract<Reply, { kind: "text" }>): string[] {
  if (r.chunks) return r.chunks;
  const words = r.text.split(/(?<= )/);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 3) out.push(words.slice(i, i + 3).join(""));
  return out.length ? out : [""];
}
