/**
 * The Sender's slash-command picker, kept out of the .tsx: when it opens, what it lists, what a pick
 * writes into the draft. The agent's commands come from `available_commands_update` (the fold's `commands`).
 */
import type { Command } from "../../../shared/fold";

/**
 * The text typed after a leading "/" while the caret is still inside that first word, else null
 * (the picker is closed): "/rev|" → "rev", "/" → "", "/review x|" → null, "a /rev" → null.
 */
export function slashQuery(text: string, caret: number): string | null {
  if (!text.startsWith("/")) return null;
  const word = /^\/\S*/.exec(text)![0];
  if (caret < 1 || caret > word.length) return null;
  return word.slice(1, caret);
}

/** A command's name without a leading "/" (agents differ on whether they send one). */
export function commandName(c: Pick<Command, "name">): string {
  return c.name.replace(/^\//, "");
}

/** Commands matching `query`: name prefix first, then name contains, then description contains; case-insensitive. */
export function filterCommands(commands: readonly Command[], query: string): Command[] {
  const q = query.toLowerCase();
  if (!q) return commands.slice();
  const prefix: Command[] = [];
  const inName: Command[] = [];
  const inDescription: Command[] = [];
  for (const c of commands) {
    const name = commandName(c).toLowerCase();
    if (name.startsWith(q)) prefix.push(c);
    else if (name.includes(q)) inName.push(c);
    else if (c.description.toLowerCase().includes(q)) inDescription.push(c);
  }
  return [...prefix, ...inName, ...inDescription];
}

/**
 * The draft text after picking `command`: its first word becomes `/name `, followed by the command's input
 * hint when it has one (selected, so typing replaces it), then whatever came after the first word.
 */
export function applyCommand(text: string, command: Command): { text: string; selection: [number, number] } {
  const rest = text.replace(/^\/\S*\s?/, "");
  const head = `/${commandName(command)} `;
  const hint = command.hint ?? "";
  if (hint && !rest) return { text: head + hint, selection: [head.length, head.length + hint.length] };
  return { text: head + rest, selection: [head.length, head.length] };
}
