/**
 * An import's history (issue 26): what the agent replays on `session/load` is relayed ONCE into the room as
 * ordinary events. The room's fold ignores `user_message_chunk`, so consecutive user chunks are grouped into one
 * `history.user` event per user message (logged by the room as a `user_message`); everything else passes as a
 * `session.update`. Contrast history-replay.ts: a reattach after a restart drops the replay (the room has it).
 * The command's `history` flag picks one; never both.
 */
import type { PromptBlock } from "../../../shared/blocks";
import { blockTextChars } from "../../../shared/prompt-size";
import { MAX_PROMPT_BLOCKS, MAX_PROMPT_BYTES } from "../../../shared/limits";
import type { DaemonEvent } from "../../../shared/tunnel-protocol";
import { isRecord } from "./acp-tap";
import { untilQuiet } from "../timing";

/** Room for the marker appended to a clipped user message. */
const CLIP_SLACK = 64;

/** One replayed user chunk's content as a prompt block (what a viewer could have sent); null: nothing to show. */
export function userBlock(content: unknown): PromptBlock | null {
  if (!isRecord(content)) return null;
  switch (content.type) {
    case "text":
      return typeof content.text === "string" ? { type: "text", text: content.text } : null;
    case "resource_link":
      return typeof content.uri === "string" ? { type: "resource_link", uri: content.uri.slice(0, 4096), name: String(content.name ?? content.uri).slice(0, 1024) } : null;
    case "image":
      return { type: "text", text: "[image]" }; // no blobs relayed from history
    case "resource": {
      const r = isRecord(content.resource) ? content.resource : {};
      return typeof r.text === "string" ? { type: "text", text: r.text } : typeof r.uri === "string" ? { type: "text", text: `[${r.uri}]` } : null;
    }
    default:
      return null;
  }
}

/** A user message's blocks as they fit a prompt: adjacent texts joined, bounded by count and bytes; null when empty. */
export function fitUserBlocks(blocks: readonly PromptBlock[]): PromptBlock[] | null {
  const out: PromptBlock[] = [];
  for (const b of blocks) {
    const last = out[out.length - 1];
    if (b.type === "text" && last?.type === "text") out[out.length - 1] = { type: "text", text: last.text + b.text };
    else out.push(b);
  }
  const kept = out.slice(0, MAX_PROMPT_BLOCKS);
  let budget = MAX_PROMPT_BYTES - CLIP_SLACK;
  const fitted: PromptBlock[] = [];
  for (const b of kept) {
    const size = blockTextChars(b) + (b.type === "image" ? b.data.length : 0);
    if (size <= budget) {
      fitted.push(b);
      budget -= size;
    } else {
      if (b.type === "text" && budget > 0) fitted.push({ type: "text", text: `${b.text.slice(0, budget)}\n…[truncated by baton]` });
      break;
    }
  }
  return fitted.some((b) => b.type !== "text" || b.text.trim()) ? fitted : null;
}

const HISTORY_KINDS: ReadonlySet<string> = new Set(["user_message_chunk", "agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "plan"]);

export class HistoryRelay {
  private active = false;
  private user: PromptBlock[] = [];
  private lastAt = 0;
  private relayed = 0;

  constructor(
    private readonly sessionId: string,
    private readonly emit: (e: DaemonEvent) => void,
  ) {}

  start(): void {
    this.active = true;
  }

  /**
   * A replayed update: true when the relay took it (a user chunk, held until its message is complete). Any other
   * update first completes the held user message, then the caller relays it as usual.
   */
  take(update: { sessionUpdate: string; content?: unknown }): boolean {
    if (!this.active) return false;
    if (HISTORY_KINDS.has(update.sessionUpdate)) {
      this.lastAt = Date.now();
      this.relayed++;
    }
    if (update.sessionUpdate === "user_message_chunk") {
      const b = userBlock(update.content);
      if (b) this.user.push(b);
      return true;
    }
    this.flushUser();
    return false;
  }

  /** Resolves once the replay has been quiet for `quietMs` (bounded by `maxMs`, or sooner when `live()` turns false). */
  settled(quietMs: number, maxMs: number, live: () => boolean): Promise<void> {
    return untilQuiet(() => this.lastAt, quietMs, maxMs, live);
  }

  /** The replay is over: a trailing user message is relayed; later updates are live ones. */
  end(): number {
    if (!this.active) return 0;
    this.flushUser();
    this.active = false;
    return this.relayed;
  }

  private flushUser(): void {
    if (!this.user.length) return;
    const blocks = fitUserBlocks(this.user);
    this.user = [];
    if (blocks) this.emit({ t: "history.user", sessionId: this.sessionId, blocks });
  }
}
