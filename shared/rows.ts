/** The transcript's rows as the reducer (fold.ts) builds them and every view renders them: types only. */
import type { PromptBlock } from "./blocks";
import type { Author, ElicitationAction, ElicitationContent, PermissionOption } from "./viewer-protocol";

export type ToolContent =
  | { type: "text"; text: string }
  | { type: "diff"; path: string; oldText: string | null; newText: string }
  | { type: "terminal"; terminalId: string };

export type PlanEntry = { content: string; status: string; priority: string };

/** What a tool's terminal printed (the bounded tail, see MAX_TERMINAL_OUTPUT_CHARS) and how it ended. */
export type TerminalOutput = {
  terminalId: string;
  output: string;
  /** Older output was cut to keep the bound. */
  truncated: boolean;
  exit: { exitCode: number | null; signal: string | null } | null;
};

export type UserRow = {
  kind: "user";
  id: string;
  messageId: string;
  blocks: PromptBlock[];
  author: Author;
  at: number;
  /** Delivered from the queue by steering: into the running turn, or the agent started a new one. */
  steered?: "injected" | "startedNewTurn";
};
/**
 * `streaming`: the row is still receiving chunks (the turn that produced it has not ended).
 * `messageId`: the agent's id for the message, when its chunks carry one (they all do, or none).
 */
export type AgentRow = { kind: "agent"; id: string; text: string; streaming: boolean; messageId?: string };
export type ThoughtRow = { kind: "thought"; id: string; text: string; streaming: boolean; messageId?: string };
export type ToolRow = {
  kind: "tool";
  id: string;
  toolCallId: string;
  title: string;
  toolKind: string;
  status: string;
  content: ToolContent[];
  locations: string[];
  /** False once the turn ended: a tool still pending / in progress then was interrupted. */
  live: boolean;
  /** Output of the tool's terminals, from `_meta` (see shared/terminal-output.ts); absent until some arrives. */
  terminals?: TerminalOutput[];
};
export type PlanRow = { kind: "plan"; id: string; entries: PlanEntry[] };
/** What a permission request would do, read from its tool call whatever the title says. */
export type PermissionSubject = {
  /** The command line (`rawInput.command` / `cmd`, an argv array joined shell-style). */
  command: string | null;
  /** Files it touches (`rawInput.file_path` / `path` …, the tool call's locations) not already shown by a diff. */
  paths: string[];
  /** The tool call's own content: diffs of an edit, text. */
  content: ToolContent[];
};
export type PermissionRow = {
  kind: "permission";
  id: string;
  requestId: string;
  title: string;
  toolKind: string | null;
  subject: PermissionSubject;
  options: PermissionOption[];
  resolved: null | { outcome: "selected" | "cancelled"; optionId: string | null; by: Author | null };
};
/** The agent's form (ACP elicitation): rendered from `requestedSchema`; `resolved` once answered or cancelled. */
export type ElicitationRow = {
  kind: "elicitation";
  id: string;
  requestId: string;
  message: string;
  requestedSchema: Record<string, unknown>;
  toolCallId: string | null;
  resolved: null | { action: ElicitationAction; content: ElicitationContent | null; by: Author | null };
};
export type ErrorRow = { kind: "error"; id: string; message: string; code: string | null };
export type NoticeRow = { kind: "notice"; id: string; level: "info" | "warn"; text: string };
/** A turn that ended other than normally (cancelled, refused, ran out of tokens…). */
export type TurnEndRow = { kind: "turn_end"; id: string; stopReason: string };

export type Row = UserRow | AgentRow | ThoughtRow | ToolRow | PlanRow | PermissionRow | ElicitationRow | ErrorRow | NoticeRow | TurnEndRow;
export type RowKind = Row["kind"];

export type Usage = { used: number; size: number; cost: { amount: number; currency: string } | null };
/** A slash command the agent offers (`available_commands_update`); `hint`: what to type after it. */
export type Command = { name: string; description: string; hint?: string };
