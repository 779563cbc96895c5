/**
 * The one keyboard model of the Sender's pickers (the "/" commands and the "@" files, issue 29 #3): what a key
 * does while a picker is open. ↑ / ↓ move (wrapping), Enter or Tab chooses the active option, Escape closes;
 * any other key is the textarea's. An IME's confirming Enter is never a choice.
 */

export type PickerAction = { kind: "move"; delta: 1 | -1 } | { kind: "choose" } | { kind: "close" } | null;

export function pickerKey(e: Pick<KeyboardEvent, "key" | "shiftKey" | "isComposing">, composing: boolean): PickerAction {
  switch (e.key) {
    case "ArrowDown":
      return { kind: "move", delta: 1 };
    case "ArrowUp":
      return { kind: "move", delta: -1 };
    case "Enter":
      return e.shiftKey || composing || e.isComposing ? null : { kind: "choose" };
    case "Tab":
      return composing || e.isComposing ? null : { kind: "choose" };
    case "Escape":
      return { kind: "close" };
    default:
      return null;
  }
}

/** The next active option index for ↑ / ↓, wrapping around; -1 when there is nothing. */
export function moveActive(index: number, delta: 1 | -1, length: number): number {
  if (length === 0) return -1;
  if (index < 0) return delta === 1 ? 0 : length - 1;
  return (index + delta + length) % length;
}
