import CircleAlert from "lucide-solid/icons/circle-alert";
import CircleCheck from "lucide-solid/icons/circle-check";
import X from "lucide-solid/icons/x";
import { For } from "solid-js";
import { dismissToast, toasts } from "../lib/toasts";

export function Toasts() {
  return (
    <div class="toasts" aria-live="polite">
      <For each={toasts()}>
        {(t) => (
          <div class={`toast toast-${t.kind}`} data-testid="toast" role={t.kind === "error" ? "alert" : "status"}>
            {t.kind === "error" ? <CircleAlert size={16} aria-hidden="true" /> : <CircleCheck size={16} aria-hidden="true" />}
            <span class="toast-text">{t.text}</span>
            <button class="toast-x" aria-label="Dismiss" onClick={() => dismissToast(t.id)}>
              <X size={14} />
            </button>
          </div>
        )}
      </For>
    </div>
  );
}
