/**
 * Terminal output → styled runs of plain text. The ANSI SGR colours are parsed by `anser` (to JSON, never
 * to HTML); the view renders each run as a text node in a span, so output stays inert whatever it holds.
 * Also: markdown detection for tool output (claude sends a command's output as a ```console fence).
 */
import Anser from "anser";

export type TermRun = { text: string; fg: string | null; bg: string | null; bold: boolean; dim: boolean; italic: boolean; underline: boolean };

// OSC sequences (titles, hyperlinks: ESC ] … BEL / ESC \) and the C0 controls left after parsing
// (except tab and newline) would show as garbage: anser interprets SGR only.
const OSC = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** A line redrawn with `\r` (progress bars) shows as its last state. */
function lastRedraw(text: string): string {
  if (!text.includes("\r")) return text;
  return text
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((l) => l.slice(l.lastIndexOf("\r") + 1))
    .join("\n");
}

export function terminalRuns(raw: string): TermRun[] {
  const text = lastRedraw(raw.replace(OSC, ""));
  const out: TermRun[] = [];
  for (const e of Anser.ansiToJson(text, { json: true, remove_empty: true })) {
    const content = e.content.replace(CONTROL, "");
    if (!content) continue;
    const d = e.decorations ?? [];
    const inverse = d.includes("reverse");
    const fg = e.fg ? `rgb(${e.fg})` : null;
    const bg = e.bg ? `rgb(${e.bg})` : null;
    out.push({
      text: content,
      fg: inverse ? (bg ?? "var(--term-bg)") : fg,
      bg: inverse ? (fg ?? "var(--term-ink)") : bg,
      bold: d.includes("bold"),
      dim: d.includes("dim"),
      italic: d.includes("italic"),
      underline: d.includes("underline"),
    });
  }
  return out;
}

/** Tool output written as markdown (a code fence somewhere in it) renders as markdown; the rest as text. */
export function isMarkdownOutput(text: string): boolean {
  return /^ {0,3}(```|~~~)/m.test(text);
}
