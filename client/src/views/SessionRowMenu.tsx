import EllipsisVertical from "lucide-solid/icons/ellipsis-vertical";
import { type Component, createSignal, For, Show } from "solid-js";
import { createDismiss } from "../lib/create-dismiss";

export type RowAction = { id: string; label: string; icon: Component<{ size?: number; "aria-hidden"?: "true" }>; danger?: boolean; run: () => void };

/**
 * A row's actions behind one button (no hover needed, works at 390 px): a menu of buttons, opened by tap
 * or keyboard; arrows move, Escape closes and gives focus back to the button.
 */
export function SessionRowMenu(props: { title: string; actions: RowAction[] }) {
  const [open, setOpen] = createSignal(false);
  let root!: HTMLDivElement;
  let button!: HTMLButtonElement;
  createDismiss({ isOpen: open, close: () => setOpen(false), inside: (t) => root.contains(t) });
  const items = () => [...root.querySelectorAll<HTMLButtonElement>('[role="menuitem"]')];
  const move = (by: number) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    list[(at + by + list.length) % list.length]?.focus();
  };
  const close = () => {
    setOpen(false);
    button.focus();
  };
  return (
    <div class="row-menu" ref={root}>
      <button
        ref={button}
        class="icon-btn row-menu-btn"
        aria-label={`Actions for ${props.title}`}
        aria-haspopup="menu"
        aria-expanded={open()}
        data-testid="row-menu"
        onClick={() => {
          setOpen((o) => !o);
          if (open()) queueMicrotask(() => items()[0]?.focus());
        }}
      >
        <EllipsisVertical size={18} aria-hidden="true" />
      </button>
      <Show when={open()}>
        <div
          class="row-menu-list"
          role="menu"
          aria-label={`Actions for ${props.title}`}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown") (e.preventDefault(), move(1));
            else if (e.key === "ArrowUp") (e.preventDefault(), move(-1));
            else if (e.key === "Escape") (e.stopPropagation(), close());
          }}
        >
          <div class="row-menu-title" aria-hidden="true">
            {props.title}
          </div>
          <For each={props.actions}>
            {(a) => (
              <button
                role="menuitem"
                class="row-menu-item"
                classList={{ danger: a.danger }}
                onClick={() => {
                  setOpen(false);
                  a.run();
                }}
              >
                <a.icon size={16} aria-hidden="true" />
                {a.label}
              </button>
            )}
          </For>
        </div>
      </Show>
    </div>
  );
}
