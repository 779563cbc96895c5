/**
 * Compaction for catch-up: a viewer with nothing (or far behind) gets the log with streamed text
 * chunks merged and tool-call updates folded into their tool call, so catch-up costs O(rows), not
 * O(tokens). Pure; the folded result renders the same transcript as the raw log.
 */
import { canMergeToolMeta, mergeToolMeta } from "../../shared/terminal-output";
import type { SessionEvent } from "../../shared/viewer-protocol";

export type Seqd = { seq: number; event: SessionEvent };

const CHUNK_KINDS = new Set(["agent_message_chunk", "agent_thought_chunk", "user_message_chunk"]);

type AcpEvent = Extract<SessionEvent, { kind: "acp" }>;

function chunkText(e: AcpEvent): string | null {
  const content = e.update["content"] as { type?: string; text?: unknown } | undefined;
  return content?.type === "text" && typeof content.text === "string" ? content.text : null;
}

function sameStream(a: AcpEvent, b: AcpEvent): boolean {
  return (
    a.update.sessionUpdate === b.update.sessionUpdate &&
    CHUNK_KINDS.has(a.update.sessionUpdate) &&
    (a.update["messageId"] ?? null) === (b.update["messageId"] ?? null)
  );
}

export function compactEvents(events: Iterable<Seqd>): Seqd[] {
  const out: Seqd[] = [];
  /** Index in `out` of each tool call, so later updates merge into it. */
  const toolIndex = new Map<string, number>();
  /** Text pieces of the chunk run at the end of `out`, joined once when the run ends. */
  let run: { index: number; parts: string[] } | null = null;

  const closeRun = () => {
    if (!run) return;
    const item = out[run.index]!;
    const e = item.event as AcpEvent;
    const content = e.update["content"] as Record<string, unknown>;
    out[run.index] = {
      seq: item.seq,
      event: { kind: "acp", update: { ...e.update, content: { ...content, text: run.parts.join("") } } },
    };
    run = null;
  };

  for (const item of events) {
    const e = item.event;
    if (e.kind === "acp") {
      const kind = e.update.sessionUpdate;
      if (CHUNK_KINDS.has(kind)) {
        const text = chunkText(e);
        const last = out[out.length - 1];
        if (text !== null && run && last && last.event.kind === "acp" && sameStream(last.event, e)) {
          run.parts.push(text);
          last.seq = item.seq;
          continue;
        }
        closeRun();
        out.push({ seq: item.seq, event: e });
        if (text !== null) run = { index: out.length - 1, parts: [text] };
        continue;
      }
      closeRun();
      if (kind === "tool_call_update" && typeof e.update["toolCallId"] === "string") {
        const at = toolIndex.get(e.update["toolCallId"]);
        const base = at === undefined ? undefined : (out[at]!.event as AcpEvent);
        if (at !== undefined && base && !canMergeToolMeta(base.update["_meta"], e.update["_meta"])) {
          // Output of another terminal of the same tool: kept as its own event; later updates merge into it.
          out.push({ seq: item.seq, event: e });
          toolIndex.set(e.update["toolCallId"], out.length - 1);
          continue;
        }
        if (at !== undefined && base) {
          const merged: Record<string, unknown> = { ...base.update };
          for (const [k, v] of Object.entries(e.update)) {
            if (k === "sessionUpdate" || v === null || v === undefined) continue;
            // Terminal output pieces in `_meta` add up (codex / pi stream a command's output that way).
            merged[k] = k === "_meta" ? mergeToolMeta(merged[k], v) : v;
          }
          out[at] = { seq: item.seq, event: { kind: "acp", update: merged as AcpEvent["update"] } };
          continue;
        }
      }
      out.push({ seq: item.seq, event: e });
      if (kind === "tool_call" && typeof e.update["toolCallId"] === "string") toolIndex.set(e.update["toolCallId"], out.length - 1);
      continue;
    }
    closeRun();
    out.push({ seq: item.seq, event: e });
  }
  closeRun();
  return out;
}
