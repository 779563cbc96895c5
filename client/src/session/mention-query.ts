/**
 * When the Sender's "@" picker opens (issue 29 #3). Apart from the rest of the mentions (mention-logic.ts, loaded
 * on demand with the picker): the Sender asks it on every keystroke, before the picker's code has loaded.
 */

/** The "@…" word the caret is in (at the start or after whitespace), else null: "see @sr|" → {start: 4, query: "sr"}. */
export function mentionQuery(text: string, caret: number): { start: number; end: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!m) return null;
  const start = before.length - m[2]!.length - 1;
  const after = /^[^\s]*/.exec(text.slice(caret))![0];
  return { start, end: caret + after.length, query: m[2]! };
}
