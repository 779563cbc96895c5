/**
 * A header icon button and the small dialog panel it opens (settings, members, notifications): named
 * `label` for both, test ids `<testId>-button` / `<testId>-panel`; the panel's content renders only while open.
 */
import { type JSX, Show } from "solid-js";
import { createPopover } from "../lib/create-popover";

export type Popover = ReturnType<typeof createPopover>;

export function PopoverButton(props: {
  label: string;
  testId: string;
  icon: JSX.Element;
  /** Extra class of the panel (its width and layout). */
  panelClass?: string;
  /** The popover, when the caller reads whether it is open (e.g. to load on opening); else one of its own. */
  pop?: Popover;
  children: JSX.Element;
}) {
  const pop = props.pop ?? createPopover("below-button");
  return (
    <div class="settings">
      <button
        ref={pop.button}
        class="icon-btn"
        aria-label={props.label}
        aria-expanded={pop.open()}
        aria-haspopup="dialog"
        popovertarget={pop.id}
        title={props.label}
        data-testid={`${props.testId}-button`}
      >
        {props.icon}
      </button>
      <div
        ref={pop.panel}
        id={pop.id}
        popover="auto"
        tabindex="-1"
        class={props.panelClass ? `settings-panel ${props.panelClass}` : "settings-panel"}
        role="dialog"
        aria-label={props.label}
        data-testid={`${props.testId}-panel`}
      >
        <Show when={pop.open()}>{props.children}</Show>
      </div>
    </div>
  );
}
