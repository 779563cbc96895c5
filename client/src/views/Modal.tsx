import { type JSX, onCleanup, onMount } from "solid-js";

let nextId = 0;

/**
 * A small modal dialog (the session list's rename / delete / confirm): labelled by its heading, focus moves
 * in (the field marked `data-autofocus`, else the first control) and back to where it was on close,
 * Escape or a tap on the backdrop cancels. Tab stays inside.
 */
// Rendered in place (no portal: it would keep solid-js/web's Portal in every page's entry chunk); the
// backdrop is position: fixed and no ancestor on the home page makes a containing block for it.
export function Modal(props: { title: string; onClose: () => void; children: JSX.Element; testId?: string; danger?: boolean }) {
  const id = `modal-${++nextId}`;
  let box!: HTMLDivElement;
  const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const controls = () => [...box.querySelectorAll<HTMLElement>("input, select, textarea, button, a[href]")].filter((el) => !el.hasAttribute("disabled"));
  onMount(() => (box.querySelector<HTMLElement>("[data-autofocus]") ?? controls()[0])?.focus());
  onCleanup(() => {
    if (before?.isConnected) before.focus();
  });
  const onKey = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      props.onClose();
    } else if (e.key === "Tab") {
      const list = controls();
      const first = list[0];
      const last = list[list.length - 1];
      if (!first || !last) return;
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    }
  };
  return (
    <div class="modal-backdrop" onPointerDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div class="modal" classList={{ "modal-danger": props.danger }} role="dialog" aria-modal="true" aria-labelledby={id} data-testid={props.testId} ref={box} onKeyDown={onKey}>
        <h2 id={id} class="modal-title">
          {props.title}
        </h2>
        {props.children}
      </div>
    </div>
  );
}
