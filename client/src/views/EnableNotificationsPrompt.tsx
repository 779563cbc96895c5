import BellRing from "lucide-solid/icons/bell-ring";
import X from "lucide-solid/icons/x";
import { createEffect, createSignal, Show } from "solid-js";
import { type PushController, pushController } from "../push/push-controller";
import { PushStatus, shouldOfferPrompt, statusText } from "../push/push-state";
import "../push/notifications.css";

/** Kept per browser (cleared with the rest of `baton:*` on sign-out): the offer is made once. */
export const PROMPT_DISMISSED_KEY = "baton:push-prompt-dismissed";

function readDismissed(): boolean {
  try {
    return localStorage.getItem(PROMPT_DISMISSED_KEY) === "1";
  } catch {
    return false;
  }
}

/**
 * After this person's send, while the turn runs: "Get notified when it ends?" — never on page load, and
 * not again once answered. On an iPhone tab it explains installing instead.
 */
export function EnableNotificationsPrompt(props: { sentHere: boolean; turnActive: boolean; controller?: PushController }) {
  const push = props.controller ?? pushController();
  const [dismissed, setDismissed] = createSignal(readDismissed());
  // Read the device's state only once there is something to offer (nothing on page load).
  createEffect(() => {
    if (props.sentHere && !dismissed()) void push.refresh();
  });
  const dismiss = () => {
    setDismissed(true);
    try {
      localStorage.setItem(PROMPT_DISMISSED_KEY, "1");
    } catch {
      /* storage refused: the offer comes back next page load */
    }
  };
  const show = () => shouldOfferPrompt({ status: push.status(), dismissed: dismissed(), sentHere: props.sentHere, turnActive: props.turnActive });
  const needsInstall = () => push.status() === PushStatus.needsInstall;
  return (
    <Show when={show()}>
      <div class="push-prompt" role="region" aria-label="Notifications" data-testid="push-prompt">
        <BellRing size={18} aria-hidden="true" class="push-prompt-icon" />
        <span class="push-prompt-text">
          <Show when={needsInstall()} fallback={<>Get a notification when this turn ends or needs your approval?</>}>
            {statusText(PushStatus.needsInstall).help}
          </Show>
        </span>
        <span class="push-prompt-actions">
          <Show when={!needsInstall()}>
            <button class="btn btn-primary btn-sm" data-testid="push-prompt-enable" disabled={push.busy()} onClick={() => void push.enable().then(dismiss)}>
              Enable notifications
            </button>
          </Show>
          <button class="btn btn-quiet btn-sm" data-testid="push-prompt-dismiss" onClick={dismiss}>
            {needsInstall() ? "Got it" : "Not now"}
          </button>
        </span>
      </div>
    </Show>
  );
}
