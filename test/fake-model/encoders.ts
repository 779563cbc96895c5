/**
 * A Reply in each vendor's wire format: a list of steps (an SSE event, or a pause) for streaming requests,
 * one JSON body for non-streaming ones. Shapes follow the Anthropic Messages, OpenAI Responses and OpenAI
 * Chat Completions streaming references (the events each agent's client parses).
 */
import { chunksOf, type Reply } from "./script";

export type Step = { sse: string } | { pauseMs: number };

let counter = 0;
const nextId = (prefix: string) => `${prefix}_fake${Date.now().toString(36)}${(++counter).toString(36)}`;

const USAGE_IN = 12;

function anthropicEvent(type: string, data: Record<string, unknown>): Step {
  return { sse: `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n` };
}

function withPauses(deltas: string[], ms: number, each: (d: string) => Step): Step[] {
  return deltas.flatMap((d, i) => (i === 0 || ms <= 0 ? [each(d)] : [{ pauseMs: ms }, each(d)]));
}

// ------------------------------------------------------------------ Anthropic Messages

export function anthropicStream(r: Reply, model: string): Step[] {
  const id = nextId("msg");
  const steps: Step[] = [
    anthropicEvent("message_start", {
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: USAGE_IN, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    }),
    anthropicEvent("ping", {}),
  ];
  const text = r.kind === "text" ? chunksOf(r) : [r.preamble];
  const ms = r.kind === "text" ? r.chunkMs : 5;
  steps.push(anthropicEvent("content_block_start", { index: 0, content_block: { type: "text", text: "" } }));
  steps.push(...withPauses(text, ms, (d) => anthropicEvent("content_block_delta", { index: 0, delta: { type: "text_delta", text: d } })));
  steps.push(anthropicEvent("content_block_stop", { index: 0 }));
  if (r.kind === "tool") {
    const json = JSON.stringify(r.input);
    const half = Math.ceil(json.length / 2);
    steps.push(anthropicEvent("content_block_start", { index: 1, content_block: { type: "tool_use", id: nextId("toolu"), name: r.name, input: {} } }));
    for (const part of [json.slice(0, half), json.slice(half)]) {
      steps.push(anthropicEvent("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: part } }));
    }
    steps.push(anthropicEvent("content_block_stop", { index: 1 }));
  }
  steps.push(
    anthropicEvent("message_delta", {
      delta: { stop_reason: r.kind === "tool" ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { output_tokens: 20 },
    }),
  );
  steps.push(anthropicEvent("message_stop", {}));
  return steps;
}

export function anthropicJson(r: Reply, model: string): Record<string, unknown> {
  const content: Record<string, unknown>[] = [{ type: "text", text: r.kind === "text" ? r.text : r.preamble }];
  if (r.kind === "tool") content.push({ type: "tool_use", id: nextId("toolu"), name: r.name, input: r.input });
  return {
    id: nextId("msg"),
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: r.kind === "tool" ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: USAGE_IN, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

// ------------------------------------------------------------------ OpenAI Responses

export function responsesStream(r: Reply, model: string): Step[] {
  let seq = 0;
  const ev = (type: string, data: Record<string, unknown>): Step => ({ sse: `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n` });
  const respId = nextId("resp");
  const created = Math.floor(Date.now() / 1000);
  const base = { id: respId, object: "response", created_at: created, model, output: [] as unknown[] };
  const steps: Step[] = [ev("response.created", { response: { ...base, status: "in_progress" } }), ev("response.in_progress", { response: { ...base, status: "in_progress" } })];
  const output: unknown[] = [];
  const msgId = nextId("msg");
  const texts = r.kind === "text" ? chunksOf(r) : [r.preamble];
  const full = texts.join("");
  steps.push(ev("response.output_item.added", { output_index: 0, item: { id: msgId, type: "message", status: "in_progress", role: "assistant", content: [] } }));
  steps.push(ev("response.content_part.added", { item_id: msgId, output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }));
  steps.push(
    ...withPauses(texts, r.kind === "text" ? r.chunkMs : 5, (d) => ev("response.output_text.delta", { item_id: msgId, output_index: 0, content_index: 0, delta: d, logprobs: [] })),
  );
  steps.push(ev("response.output_text.done", { item_id: msgId, output_index: 0, content_index: 0, text: full, logprobs: [] }));
  const part = { type: "output_text", text: full, annotations: [] };
  steps.push(ev("response.content_part.done", { item_id: msgId, output_index: 0, content_index: 0, part }));
  const msgItem = { id: msgId, type: "message", status: "completed", role: "assistant", content: [part] };
  steps.push(ev("response.output_item.done", { output_index: 0, item: msgItem }));
  output.push(msgItem);
  if (r.kind === "tool" && r.freeform !== undefined) {
    const ctcId = nextId("ctc");
    const item = { id: ctcId, type: "custom_tool_call", status: "completed", call_id: nextId("call"), name: r.name, input: r.freeform };
    steps.push(ev("response.output_item.added", { output_index: 1, item: { ...item, status: "in_progress", input: "" } }));
    steps.push(ev("response.custom_tool_call_input.delta", { item_id: ctcId, output_index: 1, delta: r.freeform }));
    steps.push(ev("response.custom_tool_call_input.done", { item_id: ctcId, output_index: 1, input: r.freeform }));
    steps.push(ev("response.output_item.done", { output_index: 1, item }));
    output.push(item);
  } else if (r.kind === "tool") {
    const fcId = nextId("fc");
    const callId = nextId("call");
    const args = JSON.stringify(r.input);
    steps.push(ev("response.output_item.added", { output_index: 1, item: { id: fcId, type: "function_call", status: "in_progress", call_id: callId, name: r.name, arguments: "" } }));
    steps.push(ev("response.function_call_arguments.delta", { item_id: fcId, output_index: 1, delta: args }));
    steps.push(ev("response.function_call_arguments.done", { item_id: fcId, output_index: 1, arguments: args }));
    const fcItem = { id: fcId, type: "function_call", status: "completed", call_id: callId, name: r.name, arguments: args };
    steps.push(ev("response.output_item.done", { output_index: 1, item: fcItem }));
    output.push(fcItem);
  }
  const usage = { input_tokens: USAGE_IN, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: USAGE_IN + 20 };
  steps.push(ev("response.completed", { response: { ...base, status: "completed", output, usage } }));
  return steps;
}

export function responsesJson(r: Reply, model: string): Record<string, unknown> {
  const output: unknown[] = [{ id: nextId("msg"), type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: r.kind === "text" ? r.text : r.preamble, annotations: [] }] }];
  if (r.kind === "tool") output.push({ id: nextId("fc"), type: "function_call", status: "completed", call_id: nextId("call"), name: r.name, arguments: JSON.stringify(r.input) });
  return { id: nextId("resp"), object: "response", created_at: Math.floor(Date.now() / 1000), model, status: "completed", output, usage: { input_tokens: USAGE_IN, output_tokens: 20, total_tokens: USAGE_IN + 20 } };
}

// ------------------------------------------------------------------ OpenAI Chat Completions

export function chatStream(r: Reply, model: string, includeUsage: boolean): Step[] {
  const id = nextId("chatcmpl");
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choice: Record<string, unknown> | null, extra: Record<string, unknown> = {}): Step => ({
    sse: `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: choice ? [{ index: 0, logprobs: null, ...choice }] : [], ...extra })}\n\n`,
  });
  const steps: Step[] = [chunk({ delta: { role: "assistant", content: "" }, finish_reason: null })];
  const texts = r.kind === "text" ? chunksOf(r) : [r.preamble];
  steps.push(...withPauses(texts, r.kind === "text" ? r.chunkMs : 5, (d) => chunk({ delta: { content: d }, finish_reason: null })));
  if (r.kind === "tool") {
    const args = JSON.stringify(r.input);
    const half = Math.ceil(args.length / 2);
    steps.push(chunk({ delta: { tool_calls: [{ index: 0, id: nextId("call"), type: "function", function: { name: r.name, arguments: "" } }] }, finish_reason: null }));
    for (const part of [args.slice(0, half), args.slice(half)]) steps.push(chunk({ delta: { tool_calls: [{ index: 0, function: { arguments: part } }] }, finish_reason: null }));
  }
  steps.push(chunk({ delta: {}, finish_reason: r.kind === "tool" ? "tool_calls" : "stop" }));
  const usage = { prompt_tokens: USAGE_IN, completion_tokens: 20, total_tokens: USAGE_IN + 20 };
  if (includeUsage) steps.push(chunk(null, { usage }));
  steps.push({ sse: "data: [DONE]\n\n" });
  return steps;
}

export function chatJson(r: Reply, model: string): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "assistant", content: r.kind === "text" ? r.text : r.preamble };
  if (r.kind === "tool") message.tool_calls = [{ id: nextId("call"), type: "function", function: { name: r.name, arguments: JSON.stringify(r.input) } }];
  return {
    id: nextId("chatcmpl"),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: r.kind === "tool" ? "tool_calls" : "stop", logprobs: null }],
    usage: { prompt_tokens: USAGE_IN, completion_tokens: 20, total_tokens: USAGE_IN + 20 },
  };
}
