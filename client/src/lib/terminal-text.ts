/**
 * Terminal output → styled runs of plain text. The ANSI SGR colours are parsed by `anser` (to JSON, never
 * to HTML); the view renders each run as a text node in a span, so output stays inert whatever it holds.
 * A chunk of its own (create-terminal-runs.ts loads it after the first paint; terminal-plain.ts until then).
 */
import Anser from "anser";
import { CONTROL, lastRedraw, OSC, type TermRun } from "./terminal-plain";

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
