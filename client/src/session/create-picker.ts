/**
 * A Sender picker's state (the "/" commands and the "@" files share it, issue 29 #3): the active option, its
 * ids for aria-activedescendant, and the keyboard model of picker-keys.ts applied to the textarea's keys.
 */
import { createEffect, createSignal, createUniqueId, on } from "solid-js";
import { moveActive, pickerKey } from "./picker-keys";

export type Picker = {
  listId: string;
  active: () => number;
  optionId: (i: number) => string;
  /** The textarea's keydown while the picker may be open: true when the key was the picker's (default prevented). */
  onKey: (e: KeyboardEvent, composing: boolean) => boolean;
};

export function createPicker<T>(o: {
  items: () => readonly T[];
  isOpen: () => boolean;
  /** The active option goes back to the first when this changes (the query). */
  resetOn: () => unknown;
  onPick: (item: T) => void;
  onClose: () => void;
}): Picker {
  const listId = createUniqueId();
  const [active, setActive] = createSignal(0);
  createEffect(on(o.resetOn, () => setActive(0)));
  const optionId = (i: number) => `${listId}-${i}`;
  const onKey = (e: KeyboardEvent, composing: boolean): boolean => {
    if (!o.isOpen()) return false;
    const action = pickerKey(e, composing);
    if (!action) return false;
    if (action === "choose") {
      const item = o.items()[active()];
      if (item === undefined) return false;
      o.onPick(item);
    } else if (action === "close") o.onClose();
    else {
      setActive((i) => moveActive(i, action === "next" ? 1 : -1, o.items().length));
      document.getElementById(optionId(active()))?.scrollIntoView?.({ block: "nearest" });
    }
    e.preventDefault();
    return true;
  };
  return { listId, active, optionId, onKey };
}
