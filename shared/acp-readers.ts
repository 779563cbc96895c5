/** Readers of the agent's ACP content (tool content, diffs, terminals, locations, a permission's subject): unknown JSON in, row fields out. */
import type { PermissionSubject, ToolContent } from "./rows";

export function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

export function contentText(content: unknown): string {
  if (!content || typeof content !== "object") return "";
  const c = content as Record<string, unknown>;
  switch (c["type"]) {
    case "text":
      return str(c["text"]) ?? "";
    case "resource_link":
      return `[${str(c["name"]) ?? str(c["uri"]) ?? "link"}](${str(c["uri"]) ?? ""})`;
    case "resource": {
      const r = c["resource"] as Record<string, unknown> | undefined;
      return str(r?.["text"]) ?? `[${str(r?.["uri"]) ?? "resource"}]`;
    }
    case "image":
      return "[image]";
    case "audio":
      return "[audio]";
    default:
      return "";
  }
}

export function toolContent(content: unknown): ToolContent[] {
  if (!Array.isArray(content)) return [];
  const out: ToolContent[] = [];
  for (const item of content as Record<string, unknown>[]) {
    if (!item || typeof item !== "object") continue;
    if (item["type"] === "content") {
      const text = contentText(item["content"]);
      if (text) out.push({ type: "text", text });
    } else if (item["type"] === "diff") {
      out.push({ type: "diff", path: str(item["path"]) ?? "", oldText: str(item["oldText"]), newText: str(item["newText"]) ?? "" });
    } else if (item["type"] === "terminal") {
      out.push({ type: "terminal", terminalId: str(item["terminalId"]) ?? "" });
    }
  }
  return out;
}

/** An argv as one shell line: words that need it single-quoted. */
function shellLine(argv: unknown[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(String(a)) ? String(a) : `'${String(a).replace(/'/g, "'\\''")}'`)).join(" ");
}

const PATH_KEYS = ["file_path", "filePath", "path", "notebook_path", "abs_path", "filename"] as const;

export function permissionSubject(toolCall: Record<string, unknown>): PermissionSubject {
  const raw = toolCall["rawInput"] && typeof toolCall["rawInput"] === "object" ? (toolCall["rawInput"] as Record<string, unknown>) : {};
  const cmd = raw["command"] ?? raw["cmd"];
  const command = typeof cmd === "string" && cmd.trim() ? cmd : Array.isArray(cmd) && cmd.length ? shellLine(cmd) : null;
  const content = toolContent(toolCall["content"]);
  const shown = new Set(content.flatMap((c) => (c.type === "diff" ? [c.path] : [])));
  const paths: string[] = [];
  const add = (p: string | null) => {
    if (p && !shown.has(p) && !paths.includes(p)) paths.push(p);
  };
  for (const k of PATH_KEYS) add(str(raw[k]));
  for (const l of locations(toolCall["locations"]) ?? []) {
    const file = l.replace(/:\d+$/, "");
    if (!shown.has(file) && !paths.includes(file)) add(l);
  }
  return { command, paths, content };
}

export function locations(v: unknown): string[] | null {
  if (!Array.isArray(v)) return null;
  return v
    .map((l: Record<string, unknown>) => {
      const path = str(l?.["path"]);
      if (!path) return null;
      return typeof l["line"] === "number" ? `${path}:${l["line"]}` : path;
    })
    .filter((x): x is string => x !== null);
}
