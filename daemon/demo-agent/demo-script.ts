/** Turns a prompt's text into the scripted behaviour the demo agent plays (pure; see main.ts for the list). */

/** A `sleep` without a number: long enough to try Stop / steering, short enough not to annoy. */
const DEFAULT_SLEEP_UNITS = 5;
/** Upper bound for `sleep N`: a typo like "sleep 99999" should not pin a process for a day. */
const MAX_SLEEP_UNITS = 3600;
/** A `burst` without a number. */
const DEFAULT_BURST = 1000;
/** Upper bound for `burst N`: keeps a benchmark from exhausting memory. */
const MAX_BURST = 1_000_000;

export type DemoScript =
  | { kind: "markdown" }
  | { kind: "sleep"; units: number }
  | { kind: "tool" }
  | { kind: "plan" }
  | { kind: "think" }
  | { kind: "permission" }
  | { kind: "terminal" }
  | { kind: "warning" }
  | { kind: "fence" }
  | { kind: "blind" }
  | { kind: "elicit" }
  | { kind: "error" }
  | { kind: "unknown" }
  | { kind: "config"; units: number }
  | { kind: "burst"; count: number }
  /** Writes `text` (and a newline) to `file` in the session's directory: a real edit (worktrees, changes view). */
  | { kind: "write"; file: string; text: string };

/** A `write` file name: one plain segment in the session's directory (no folders, no dot-files, no `..`). */
const WRITE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;

function intArg(word: string | undefined, fallback: number, max: number, min = 0): number {
  if (word === undefined) return fallback;
  const n = Number.parseInt(word, 10);
  if (!Number.isFinite(n) || n < min) return fallback;
  return Math.min(n, max);
}

export function parseDemoScript(text: string): DemoScript {
  const words = text.trim().split(/\s+/);
  const first = (words[0] ?? "").toLowerCase();
  const arg = words[1];
  switch (first) {
    case "sleep":
      return { kind: "sleep", units: intArg(arg, DEFAULT_SLEEP_UNITS, MAX_SLEEP_UNITS) };
    case "tool":
      return { kind: "tool" };
    case "plan":
      return { kind: "plan" };
    case "think":
      return { kind: "think" };
    case "permission":
      return { kind: "permission" };
    case "terminal":
      return { kind: "terminal" };
    case "warning":
      return { kind: "warning" };
    case "fence":
      return { kind: "fence" };
    case "blind":
      return { kind: "blind" };
    case "ask":
      return { kind: "elicit" };
    case "error":
      return { kind: "error" };
    case "unknown":
      return { kind: "unknown" };
    case "config":
      return { kind: "config", units: intArg(arg, 0, MAX_SLEEP_UNITS) };
    case "burst":
      return { kind: "burst", count: intArg(arg, DEFAULT_BURST, MAX_BURST, 1) };
    case "write":
      return arg && WRITE_NAME.test(arg) ? { kind: "write", file: arg, text: words.slice(2).join(" ") } : { kind: "markdown" };
    default:
      return { kind: "markdown" };
  }
}

/** Splits text into small streaming chunks (a few words each, whitespace kept so the join is exact). */
export function chunkText(text: string, wordsPerChunk = 3): string[] {
  const tokens = text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
  const chunks: string[] = [];
  for (let i = 0; i < tokens.length; i += wordsPerChunk) chunks.push(tokens.slice(i, i + wordsPerChunk).join(""));
  // A leading/trailing whitespace-only text has no tokens; keep it so nothing is lost.
  if (chunks.join("") !== text) return [text];
  return chunks;
}

export function markdownReply(promptText: string, received: readonly string[] = []): string {
  const echo = promptText.trim() || "(empty prompt)";
  const lines = [
    "## Demo reply",
    "",
    "This is the **Baton demo agent**. It streams markdown so you can check rendering:",
    "",
    "- a bulleted list item",
    "- another one with `inline code`",
    "- and a [link](https://example.com)",
    "",
    "```ts",
    "function greet(name: string): string {",
    "  return `hello ${name}`;",
    "}",
    "```",
    "",
  ];
  for (const line of received) lines.push(line, "");
  lines.push("> You said:", ...echo.split("\n").map((l) => `> ${l}`), "");
  lines.push(
    "Try `sleep 30`, `tool`, `plan`, `think`, `permission`, `error`, `unknown`, `config`, `terminal`, `warning`, `fence`, `blind`, `ask` or `burst 1000`.",
  );
  return lines.join("\n");
}
