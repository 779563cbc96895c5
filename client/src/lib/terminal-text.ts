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

const NAMED = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"] as const;

/** xterm's 256-colour palette above the 16 named colours: a 6×6×6 cube, then 24 greys. */
function xterm256(n: number): string {
  if (n >= 232) {
    const g = 8 + (n - 232) * 10;
    return `rgb(${g}, ${g}, ${g})`;
  }
  const c = n - 16;
  const level = (v: number) => (v ? 55 + v * 40 : 0);
  return `rgb(${level(Math.floor(c / 36))}, ${level(Math.floor(c / 6) % 6)}, ${level(c % 6)})`;
}

/**
 * A CSS colour for anser's class name: the 16 named colours as CSS variables (the terminal's palette,
 * chosen to read on its dark background), palette and true colours as they are.
 */
function cssColour(cls: string | null, truecolor: string | null): string | null {
  if (!cls) return null;
  if (cls === "ansi-truecolor") return truecolor ? `rgb(${truecolor})` : null;
  const palette = /^ansi-palette-(\d+)$/.exec(cls);
  if (palette) {
    const n = Number(palette[1]);
    if (n < 16) return `var(--ansi-${n >= 8 ? "bright-" : ""}${NAMED[n % 8]})`;
    return n < 256 ? xterm256(n) : null;
  }
  return /^ansi-(bright-)?(black|red|green|yellow|blue|magenta|cyan|white)$/.test(cls) ? `var(--${cls})` : null;
}

export function terminalRuns(raw: string): TermRun[] {
  const text = lastRedraw(raw.replace(OSC, ""));
  const out: TermRun[] = [];
  for (const e of Anser.ansiToJson(text, { json: true, remove_empty: true, use_classes: true })) {
    const content = e.content.replace(CONTROL, "");
    if (!content) continue;
    const d = e.decorations ?? [];
    const inverse = d.includes("reverse");
    const fg = cssColour(e.fg, e.fg_truecolor);
    const bg = cssColour(e.bg, e.bg_truecolor);
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
