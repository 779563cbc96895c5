/**
 * What tells sessions apart in the list: the first prompt (one line) and the agent's own title
 * (ACP `session_info_update`, which claude-agent-acp sends). The room writes each to the directory
 * when it changes; the list shows the agent's title, else the first prompt.
 */
import { z } from "zod";
import type { PromptBlock } from "../../shared/blocks";
import { promptPreview } from "../../shared/prompt-preview";
import type { AcpUpdate } from "../../shared/viewer-protocol";

/** Long enough to tell sessions apart on one line, short enough for the directory row. */
export const TITLE_MAX_CHARS = 120;

/** The first prompt as one line (whitespace collapsed), or null when it has no text worth showing. */
export function firstPromptLine(blocks: readonly PromptBlock[]): string | null {
  const line = promptPreview(blocks, TITLE_MAX_CHARS).replace(/\s+/g, " ").trim();
  return line || null;
}

const SessionInfoUpdate = z.object({ sessionUpdate: z.literal("session_info_update"), title: z.string().nullish() });

/** The agent's title when `update` is a `session_info_update` carrying one; else null. */
export function agentTitleOf(update: AcpUpdate): string | null {
  // Every streamed chunk passes here: its kind (validated at the tunnel) rules it out before any parse.
  if (update.sessionUpdate !== "session_info_update") return null;
  const parsed = SessionInfoUpdate.safeParse(update);
  if (!parsed.success || !parsed.data.title) return null;
  const line = parsed.data.title.replace(/\s+/g, " ").trim();
  return line ? line.slice(0, TITLE_MAX_CHARS) : null;
}

/** What people call the session: the agent's title, else the first prompt, else the title it was created with. */
export function sessionTitleOf(t: { agentTitle: string | null; firstPrompt: string | null; created: string | null }): string {
  return t.agentTitle ?? t.firstPrompt ?? t.created ?? "";
}
