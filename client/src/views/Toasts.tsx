import CircleAlert from "lucide-solid/icons/circle-alert";
import CircleCheck from "lucide-solid/icons/circle-check";
import X from "lucide-solid/icons/x";
import { createEffect, For, onCleanup, Show } from "solid-js";
import { dismissToast, holdToasts, hostedInline, hostToastsInline, toasts } from "../lib/toasts";

/** The floating list (app-wide), or with `inline` a list in the hosting view's flow (it covers nothing). */
export function Toasts(props: { inline?: boolean }) {
  if (props.inline) hostToastsInline();
  return (
    <Show when={!!props.inline === hostedInline()}>
      <ToastList inline={!!props.inline} />
    </Show>
  );
}

function ToastList(props: { inline: boolean }) {
  // A list gone or emptied fires no mouseleave / focusout: let go, or the next toasts would never go.
  const letGo = () => {
    holdToasts("hover", false);
    holdToasts("focus", false);
  };
  createEffect(() => toasts().length === 0 && letGo());
  onCleanup(letGo);
  return (
    <div
      class="toasts"
      classList={{ "toasts-inline": props.inline }}
      aria-live="polite"
      onMouseEnter={() => holdToasts("hover", true)}
      onMouseLeave={() => holdToasts("hover", false)}
      onFocusIn={() => holdToasts("focus", true)}
      onFocusOut={(e) => !(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget)) && holdToasts("focus", false)}
    >
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
