/**
 * Terminal output as plain text, without the colour parser (terminal-text.ts, a chunk loaded after the
 * first paint): escape sequences dropped, one uncoloured run. Also the rules both share, and markdown
 * detection for tool output (claude sends a command's output as a ```console fence).
 */

export type TermRun = { text: string; fg: string | null; bg: string | null; bold: boolean; dim: boolean; italic: boolean; underline: boolean };

// OSC sequences (titles, hyperlinks: ESC ] … BEL / ESC \) and the C0 controls left after parsing
// (except tab and newline) would show as garbage: anser interprets SGR only.
export const OSC = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;
export const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
/** CSI sequences (colours, cursor moves): what the colour parser reads, dropped in plain text. */
const CSI = /\u001b\[[0-?]*[ -/]*[@-~]/g;

/** A line redrawn with `\r` (progress bars) shows as its last state. */
export function lastRedraw(text: string): string {
  if (!text.includes("\r")) return text;
  return text
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((l) => l.slice(l.lastIndexOf("\r") + 1))
    .join("\n");
}

/** The output's text without colours: what shows until the colour parser has loaded. */
export function plainRuns(raw: string): TermRun[] {
  const text = lastRedraw(raw.replace(OSC, "")).replace(CSI, "").replace(CONTROL, "");
  return text ? [{ text, fg: null, bg: null, bold: false, dim: false, italic: false, underline: false }] : [];
}

/** Tool output written as markdown (a code fence somewhere in it) renders as markdown; the rest as text. */
export function isMarkdownOutput(text: string): boolean {
  return /^ {0,3}(```|~~~)/m.test(text);
}
