import { For } from "solid-js";
import { toasts } from "../lib/toasts";

export function Toasts() {
  return (
    <div class="toasts" aria-live="polite">
      <For each={toasts()}>
        {(t) => (
          <div class={`toast toast-${t.kind}`} data-testid="toast" role={t.kind === "error" ? "alert" : "status"}>
            {t.text}
          </div>
        )}
      </For>
    </div>
  );
}
