/**
 * A session's transcript as Markdown (the "Export as Markdown" download): pure, row by row, so the room
 * can stream it a slice at a time. What is written:
 * - a title block (title, agent, directory, export date);
 * - each user message under "You/<author> · <time>", its text as written (Markdown);
 * - each agent answer as its Markdown; thoughts are OMITTED (the header says so);
 * - each tool call: title, kind and status, its command and output in fenced blocks, diffs as ```diff;
 * - permission requests with their options and who answered what; agent forms likewise;
 * - plans as checklists; errors, notices and unusual turn ends as quoted lines.
 * Text from tools (titles, commands, output) never escapes its place: one-line fields have HTML and
 * Markdown line syntax neutralised, blocks sit in a fence longer than any backtick run inside them.
 */
import type { PromptBlock } from "./blocks";
import type { Row, ToolContent, ToolRow } from "./fold";

export type ExportHeader = { title: string; agent: string; cwd: string; exportedAt: number };

/** `2026-12-04 18:40 UTC`: one zone for every reader of the file. */
export function utcTime(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? "" : `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A one-line field (a title, a name): white space collapsed, HTML and Markdown's active characters escaped. */
export function inline(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\\`*_[\]<>#|]/g, (c) => (c === "<" ? "&lt;" : c === ">" ? "&gt;" : `\\${c}`));
}

/** A fenced block whose fence is longer than any run of backticks in `text` (so nothing inside closes it). */
export function fenced(text: string, lang = ""): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text.endsWith("\n") ? text : `${text}\n`}${fence}\n`;
}

export function markdownHeader(h: ExportHeader): string {
  const lines = [
    `# ${inline(h.title) || "Untitled session"}`,
    "",
    `- **Agent:** ${inline(h.agent)}`,
    `- **Directory:** \`${h.cwd.replace(/`/g, "'")}\``,
    `- **Exported:** ${utcTime(h.exportedAt)}`,
    "",
    "_Exported from Baton. The agent's thoughts are omitted; tool output is shown as the transcript kept it._",
    "",
  ];
  return `${lines.join("\n")}\n`;
}

function blocksText(blocks: readonly PromptBlock[]): string {
  return blocks
    .map((b) => {
      switch (b.type) {
        case "text":
          return b.text;
        case "image":
          return "_[image]_";
        case "resource_link":
          return `[${inline(b.name || b.uri)}](<${b.uri.replace(/[<>\s]/g, encodeURIComponent)}>)`;
        case "resource":
          return `_[file ${inline(b.resource.uri)}]_`;
        default:
          return "";
      }
    })
    .join("\n\n");
}

function diffText(c: Extract<ToolContent, { type: "diff" }>): string {
  const old = c.oldText === null ? [] : c.oldText.split("\n").map((l) => `-${l}`);
  const next = c.newText.split("\n").map((l) => `+${l}`);
  return [`--- ${c.oldText === null ? "/dev/null" : `a/${c.path}`}`, `+++ b/${c.path}`, ...old, ...next].join("\n");
}

function toolMarkdown(row: ToolRow, command: string | null): string {
  const meta = [row.toolKind, row.status].filter(Boolean).map(inline).join(" · ");
  const out = [`### Tool: ${inline(row.title) || "(untitled)"}${meta ? ` — ${meta}` : ""}`, ""];
  if (command) out.push(fenced(command, "sh"));
  if (row.locations.length) out.push(`Files: ${row.locations.map((l) => `\`${l.replace(/`/g, "'")}\``).join(", ")}`, "");
  for (const c of row.content) {
    if (c.type === "text") out.push(fenced(c.text));
    else if (c.type === "diff") out.push(`Edit of \`${c.path.replace(/`/g, "'")}\`:`, "", fenced(diffText(c), "diff"));
  }
  for (const t of row.terminals ?? []) {
    const exit = t.exit ? (t.exit.signal ? `killed by ${inline(t.exit.signal)}` : `exit code ${t.exit.exitCode ?? "?"}`) : null;
    out.push(`Output${t.truncated ? " (the start was cut)" : ""}${exit ? `, ${exit}` : ""}:`, "", fenced(t.output));
  }
  return out.join("\n");
}

/** The Markdown of one row; `command` is a tool row's command line (the row keeps only its title). Thoughts give "". */
export function rowMarkdown(row: Row, opts: { command?: string | null } = {}): string {
  switch (row.kind) {
    case "user": {
      const when = utcTime(row.at);
      const steered = row.steered ? " (sent while the agent worked)" : "";
      return `## ${inline(row.author.name) || "Someone"}${when ? ` · ${when}` : ""}${steered}\n\n${blocksText(row.blocks)}\n`;
    }
    case "agent":
      return `**Agent:**\n\n${row.text}\n`;
    case "thought":
      return "";
    case "tool":
      return `${toolMarkdown(row, opts.command ?? null)}\n`;
    case "plan":
      return `**Plan:**\n\n${row.entries.map((e) => `- [${e.status === "completed" ? "x" : " "}] ${inline(e.content)}${e.status === "in_progress" ? " _(in progress)_" : ""}`).join("\n")}\n`;
    case "permission": {
      const lines = [`**Permission asked:** ${inline(row.title)}`, ""];
      if (row.subject.command) lines.push(fenced(row.subject.command, "sh"));
      lines.push(`Options: ${row.options.map((o) => inline(o.name)).join(" / ")}`, "");
      const r = row.resolved;
      if (!r) lines.push("_Not answered._");
      else if (r.outcome === "cancelled") lines.push("_Cancelled._");
      else {
        const option = row.options.find((o) => o.optionId === r.optionId);
        lines.push(`**Answer:** ${inline(option?.name ?? r.optionId ?? "")}${r.by ? ` — by ${inline(r.by.name)}` : ""}`);
      }
      return `${lines.join("\n")}\n`;
    }
    case "elicitation": {
      const r = row.resolved;
      const answer = !r ? "_Not answered._" : `**Answer:** ${r.action}${r.by ? ` — by ${inline(r.by.name)}` : ""}${r.content ? `\n\n${fenced(JSON.stringify(r.content, null, 2), "json")}` : ""}`;
      return `**The agent asked:** ${inline(row.message)}\n\n${answer}\n`;
    }
    case "error":
      return `> **Error${row.code ? ` (${inline(row.code)})` : ""}:** ${inline(row.message)}\n`;
    case "notice":
      return `> ${row.level === "warn" ? "**Warning:** " : ""}${inline(row.text)}\n`;
    case "turn_end":
      return `> _Turn ended: ${inline(row.stopReason)}._\n`;
    default: {
      const never: never = row;
      return never;
    }
  }
}

/** Rows as Markdown, each followed by a blank line (thoughts omitted). */
export function rowsMarkdown(rows: readonly Row[], commandOf: (row: ToolRow) => string | null = () => null): string {
  let out = "";
  for (const row of rows) {
    const md = rowMarkdown(row, row.kind === "tool" ? { command: commandOf(row) } : {});
    if (md) out += `${md}\n`;
  }
  return out;
}

/** A file name for the download: the title's safe characters, bounded, `.md`. */
export function exportFileName(title: string): string {
  const base = title
    .normalize("NFKD")
    .replace(/[^\w\s.-]/g, "")
    .replace(/\.{2,}/g, ".")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 80)
    .replace(/^\.+/, "")
    .trim();
  return `${base || "session"}.md`;
}
