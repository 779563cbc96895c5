/**
 * The one popover of the Sender's pickers ("/" commands, "@" files; issue 29 #3): a listbox above the composer
 * whose options are chosen by the keyboard (create-picker.ts, on the textarea) or by a tap, plus a status line
 * when there is nothing to choose yet (listing, nothing found, the machine offline).
 */
import { For, type JSX, Show } from "solid-js";
import type { Picker } from "../session/create-picker";

export function PickerPopover<T>(props: {
  picker: Picker;
  /** The listbox's accessible name ("Commands", "Files"). */
  label: string;
  items: readonly T[];
  status?: string | null;
  testId: string;
  children: (item: T) => JSX.Element;
  onPick: (item: T) => void;
}) {
  return (
    <div class="picker-pop">
      <Show when={props.status}>
        <p class="picker-status">{props.status}</p>
      </Show>
      <Show when={props.items.length}>
        <ul class="picker-list" id={props.picker.listId} role="listbox" aria-label={props.label} data-testid={props.testId}>
          <For each={props.items}>
            {(item, i) => (
              <li
                id={props.picker.optionId(i())}
                role="option"
                class="picker-option"
                aria-selected={i() === props.picker.active()}
                // Keep the focus (and a phone's keyboard) in the textarea.
                onPointerDown={(e) => e.preventDefault()}
                onClick={() => props.onPick(item)}
              >
                {props.children(item)}
              </li>
            )}
          </For>
        </ul>
      </Show>
    </div>
  );
}
