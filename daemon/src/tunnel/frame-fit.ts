/**
 * Keeps every event frame under the tunnel's size limit: the Machine DO refuses larger frames outright,
 * so an oversized agent update is trimmed here (with a visible marker) instead of vanishing there.
 */
import { MAX_TUNNEL_FRAME_BYTES } from "../../../shared/limits";
import type { DaemonEvent } from "../../../shared/tunnel-protocol";

/** Room for the frame envelope ({"type":"event","n":…,"event":…}) and the trim marker. */
const ENVELOPE_SLACK = 256;
export const MAX_EVENT_CHARS = MAX_TUNNEL_FRAME_BYTES - ENVELOPE_SLACK;

type Update = Extract<DaemonEvent, { t: "session.update" }>["update"];

function trimUpdate(update: Update, size: number): Update {
  const kind = update.sessionUpdate;
  const content = update.content as { type?: unknown; text?: unknown } | undefined;
  if ((kind === "agent_message_chunk" || kind === "agent_thought_chunk" || kind === "user_message_chunk") && content?.type === "text" && typeof content.text === "string") {
    const keep = Math.max(0, content.text.length - (size - MAX_EVENT_CHARS) - 64);
    return { ...update, content: { ...content, text: `${content.text.slice(0, keep)}\n…[truncated by baton: too large to relay]` } };
  }
  if (kind === "tool_call" || kind === "tool_call_update") {
    const { content: _c, rawInput: _i, rawOutput: _o, ...rest } = update;
    return { ...rest, content: [{ type: "content", content: { type: "text", text: `[tool output too large to relay: ${size} bytes]` } }] };
  }
  return { sessionUpdate: "_baton_truncated", originalSessionUpdate: kind, bytes: size };
}

/** The event itself when it fits, else a trimmed stand-in that does. */
export function fitEvent(e: DaemonEvent): DaemonEvent {
  const size = JSON.stringify(e).length;
  if (size <= MAX_EVENT_CHARS) return e;
  switch (e.t) {
    case "session.update": {
      const trimmed: DaemonEvent = { ...e, update: trimUpdate(e.update, size) };
      return JSON.stringify(trimmed).length <= MAX_EVENT_CHARS
        ? trimmed
        : { ...e, update: { sessionUpdate: "_baton_truncated", originalSessionUpdate: e.update.sessionUpdate, bytes: size } };
    }
    case "permission.request": {
      const tc = e.toolCall as Record<string, unknown>;
      return { ...e, toolCall: { toolCallId: tc.toolCallId, title: tc.title, kind: tc.kind }, options: e.options.slice(0, 16) };
    }
    default:
      return e; // the remaining events carry only ids, short strings and config
  }
}
