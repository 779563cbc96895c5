// The fake model's script and encoders, on requests shaped like the real agents' (seen in their traffic).
import { describe, expect, it } from "vitest";
import { anthropicStream, chatStream, responsesStream, type Step } from "./encoders";
import { decide, promptCall, shellArguments, viewRequest, ECHO_COMMAND, EDIT_TEXT, TOUCH_COMMAND } from "./script";

const events = (steps: Step[]) =>
  steps.flatMap((s) => ("sse" in s ? [s.sse] : [])).map((sse) => {
    const data = /^data: (.*)$/m.exec(sse)![1]!;
    return data === "[DONE]" ? "[DONE]" : (JSON.parse(data) as { type?: string; choices?: { delta?: Record<string, unknown>; finish_reason?: string | null }[] });
  });

const bash = { name: "Bash", input_schema: { type: "object", properties: { command: { type: "string" }, description: { type: "string" } }, required: ["command"] } };
const execCommand = {
  type: "function",
  name: "exec_command",
  parameters: { type: "object", properties: { cmd: { type: "string" }, sandbox_permissions: { type: "string" }, justification: { type: "string" } }, required: ["cmd"] },
};

describe("viewRequest", () => {
  it("anthropic: the user's words without the agent's <system-reminder> parts; Bash offered; effort from output_config", () => {
    const v = viewRequest("anthropic", {
      model: "claude-x",
      stream: true,
      tools: [bash],
      output_config: { effort: "high" },
      messages: [{ role: "user", content: [{ type: "text", text: "<system-reminder>x</system-reminder>" }, { type: "text", text: "please baton-tool" }] }],
    });
    expect(v).toMatchObject({ model: "claude-x", stream: true, lastUserText: "please baton-tool", toolResult: null, effort: "high" });
    expect(decide(v)).toMatchObject({ kind: "tool", name: "Bash", input: { command: ECHO_COMMAND, description: "print a greeting" } });
  });

  it("anthropic: a trailing tool_result ends the loop with its output", () => {
    const v = viewRequest("anthropic", {
      messages: [
        { role: "user", content: "please baton-tool" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "baton-tool-ok" }] }] },
      ],
      tools: [bash],
    });
    expect(decide(v)).toMatchObject({ kind: "text", text: "Tool said: baton-tool-ok" });
  });

  it("responses (codex): environment_context messages skipped, reasoning.effort read, function_call_output is a tool result", () => {
    const base = { model: "gpt-5.5", reasoning: { effort: "low" }, tools: [execCommand] };
    const input = [
      { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>cwd</environment_context>" }] },
      { type: "message", role: "user", content: [{ type: "input_text", text: "please baton-touch" }] },
    ];
    const v = viewRequest("responses", { ...base, input });
    expect(v).toMatchObject({ lastUserText: "please baton-touch", effort: "low" });
    // The call asks to escalate (codex in read-only then asks the client).
    expect(decide(v)).toMatchObject({ kind: "tool", name: "exec_command", input: { cmd: TOUCH_COMMAND, sandbox_permissions: "require_escalated", justification: expect.any(String) } });
    const done = viewRequest("responses", { ...base, input: [...input, { type: "function_call_output", call_id: "c", output: "ok" }] });
    expect(done.toolResult).toBe("ok");
  });

  it("chat (copilot): a <current_datetime> prefix is not the user's words; role tool is a result", () => {
    const tools = [{ type: "function", function: { name: "bash", parameters: { type: "object", properties: { command: { type: "string" }, mode: { type: "string", enum: ["sync", "async"] } }, required: ["command", "mode"] } } }];
    const v = viewRequest("chat", { model: "m", tools, reasoning_effort: "medium", messages: [{ role: "user", content: "<current_datetime>now</current_datetime>\n\nhello" }] });
    expect(v).toMatchObject({ lastUserText: "hello", effort: "medium" });
    expect(decide(v)).toMatchObject({ kind: "text", text: "Fake reply to: hello" });
    expect(shellArguments(v.tools[0]!, ECHO_COMMAND, "d", false)).toEqual({ command: ECHO_COMMAND, mode: "sync" });
    const r = viewRequest("chat", { tools, messages: [{ role: "user", content: "x" }, { role: "assistant", tool_calls: [] }, { role: "tool", content: "out" }] });
    expect(r.toolResult).toBe("out");
  });

  it("no justification without an escalation (codex rejects it); array commands get bash -lc", () => {
    expect(shellArguments({ name: "exec_command", schema: execCommand.parameters }, ECHO_COMMAND, "d", false)).toEqual({ cmd: ECHO_COMMAND });
    const shell = { name: "shell", schema: { type: "object", properties: { command: { type: "array" } }, required: ["command"] } };
    expect(shellArguments(shell, ECHO_COMMAND, "d", false)).toEqual({ command: ["bash", "-lc", ECHO_COMMAND] });
  });

  it("side requests without a shell tool get text; baton-settings names the model and effort", () => {
    expect(decide(viewRequest("anthropic", { messages: [{ role: "user", content: "please baton-tool" }] }))).toMatchObject({ kind: "text" });
    expect(decide(viewRequest("responses", { model: "gpt-5.5", reasoning: { effort: "high" }, input: "baton-settings" }))).toMatchObject({ text: "Settings seen: model=gpt-5.5 effort=high" });
  });
});

describe("promptCall", () => {
  // The order the fake server saw in a claude run (trimmed bodies, same shapes): the turn before, its title, its
  // prompt suggestion (the main loop's tools, that turn's effort) arriving after the next prompt was sent, then
  // the next prompt's title and its own call with the new effort.
  const user = (text: string) => ({ role: "user", content: [{ type: "text", text }] });
  const said = (text: string) => ({ role: "assistant", content: [{ type: "text", text }] });
  const call = (effort: string, tools: unknown[], messages: unknown[]) => ({ view: viewRequest("anthropic", { model: "claude-x", output_config: { effort }, tools, messages }) });
  const before = [user("baton-settings before the change")];
  const recorded = [
    call("medium", [bash], before),
    call("medium", [], [user("<session>\nbaton-settings before the change\n</session>\n\nWrite the title in the predominant language of the session.")]),
    { view: null }, // count_tokens
    call("medium", [bash], [...before, said("Settings seen"), user("[SUGGESTION MODE: Suggest what the user might naturally type next into Claude Code.]")]),
    call("medium", [], [user("<session>\nbaton-settings after the change\n</session>\n\nWrite the title in the predominant language of the session.")]),
    call("low", [bash], [...before, said("Settings seen"), user("baton-settings after the change")]),
    call("low", [bash], [...before, said("Settings seen"), user("baton-settings after the change"), { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: {} }] }, { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] }]),
  ];

  it("the prompt's own main-loop call, not the turn before's suggestion (same tools, old effort) nor a title request", () => {
    expect(recorded.slice(1).find((r) => r.view && r.view.tools.length > 0)?.view?.effort).toBe("medium"); // the first call offering tools is the suggestion
    expect(promptCall(recorded, "baton-settings after the change", 1)).toBe(recorded[5]);
    expect(promptCall(recorded, "baton-settings after the change", 1)?.view?.effort).toBe("low");
  });

  it("from bounds the search; none for a prompt the agent has not asked about yet", () => {
    expect(promptCall(recorded, "baton-settings before the change")).toBe(recorded[0]);
    expect(promptCall(recorded, "baton-settings before the change", 1)).toBeUndefined();
    expect(promptCall(recorded, "baton-settings after the restart")).toBeUndefined();
  });
});

describe("encoders", () => {
  const tool = { kind: "tool" as const, name: "Bash", input: { command: "echo hi" }, preamble: "Running." };
  it("anthropic: message_start … tool_use with input_json_delta that joins to the input … message_stop", () => {
    const ev = events(anthropicStream(tool, "m")) as { type: string; delta?: { partial_json?: string; stop_reason?: string } }[];
    expect(ev[0]!.type).toBe("message_start");
    expect(ev.at(-1)!.type).toBe("message_stop");
    const json = ev.filter((e) => e.type === "content_block_delta" && e.delta?.partial_json !== undefined).map((e) => e.delta!.partial_json).join("");
    expect(JSON.parse(json)).toEqual({ command: "echo hi" });
    expect(ev.find((e) => e.type === "message_delta")!.delta!.stop_reason).toBe("tool_use");
  });
  it("responses: created first, completed last, the function_call item done with its arguments", () => {
    const ev = events(responsesStream(tool, "m")) as { type: string; item?: { type: string; arguments?: string } }[];
    expect(ev[0]!.type).toBe("response.created");
    expect(ev.at(-1)!.type).toBe("response.completed");
    const fc = ev.find((e) => e.type === "response.output_item.done" && e.item?.type === "function_call")!;
    expect(JSON.parse(fc.item!.arguments!)).toEqual({ command: "echo hi" });
  });
  it("chat: tool_calls deltas join to the arguments, finish_reason tool_calls, then [DONE]", () => {
    const ev = events(chatStream(tool, "m", true));
    expect(ev.at(-1)).toBe("[DONE]");
    const chunks = ev.filter((e): e is Exclude<typeof e, string> => e !== "[DONE]");
    const args = chunks.flatMap((c) => c.choices ?? []).flatMap((ch) => (ch.delta?.tool_calls as { function?: { arguments?: string } }[] | undefined) ?? []).map((t) => t.function?.arguments ?? "").join("");
    expect(JSON.parse(args)).toEqual({ command: "echo hi" });
    expect(chunks.flatMap((c) => c.choices ?? []).some((ch) => ch.finish_reason === "tool_calls")).toBe(true);
  });
});

describe("baton-edit: a new file through the agent's own file tool", () => {
  const user = (t: string) => [{ role: "user", content: [{ type: "input_text", text: t }] }];
  it("claude's Write gets the path and EDIT_TEXT; codex's freeform apply_patch an Add File patch, streamed as a custom_tool_call", () => {
    const write = { name: "Write", input_schema: { type: "object", properties: { file_path: { type: "string" }, content: { type: "string" } } } };
    const claude = decide(viewRequest("anthropic", { model: "m", messages: [{ role: "user", content: "baton-edit /w/x/new.txt" }], tools: [bash, write] }));
    expect(claude).toMatchObject({ kind: "tool", name: "Write", input: { file_path: "/w/x/new.txt", content: EDIT_TEXT } });
    const patchTool = { type: "custom", name: "apply_patch", format: { type: "grammar" } };
    const codex = decide(viewRequest("responses", { model: "m", input: user("please baton-edit /w/x/new.txt"), tools: [execCommand, patchTool] }));
    expect(codex).toMatchObject({ kind: "tool", name: "apply_patch", freeform: "*** Begin Patch\n*** Add File: /w/x/new.txt\n+edited by the agent\n*** End Patch\n" });
    const ev = events(responsesStream(codex, "m")) as { type: string; item?: { type: string; input?: string; name?: string } }[];
    const done = ev.find((e) => e.type === "response.output_item.done" && e.item?.type === "custom_tool_call")!;
    expect(done.item).toMatchObject({ name: "apply_patch", input: expect.stringContaining("*** Add File: /w/x/new.txt") });
    expect(ev.some((e) => e.item?.type === "function_call")).toBe(false);
    // Without a path, or without a file tool: no edit.
    expect(decide(viewRequest("responses", { model: "m", input: user("baton-edit"), tools: [execCommand, patchTool] })).kind).toBe("text");
    expect(decide(viewRequest("responses", { model: "m", input: user("baton-edit /a"), tools: [] })).kind).toBe("text");
  });
});
