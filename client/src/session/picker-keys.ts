/**
 * The one keyboard model of the Sender's pickers (the "/" commands and the "@" files, issue 29 #3): what a key
 * does while a picker is open. ↑ / ↓ move (wrapping), Enter or Tab chooses the active option, Escape closes;
 * any other key is the textarea's. An IME's confirming Enter is never a choice.
 */

export type PickerAction = "next" | "previous" | "choose" | "close" | null;

export function pickerKey(e: Pick<KeyboardEvent, "key" | "shiftKey" | "isComposing">, composing: boolean): PickerAction {
  switch (e.key) {
    case "ArrowDown":
      return "next";
    case "ArrowUp":
      return "previous";
    case "Enter":
    case "Tab":
      return (e.key === "Enter" && e.shiftKey) || composing || e.isComposing ? null : "choose";
    case "Escape":
      return "close";
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
