import { For, onMount, Show } from "solid-js";
import { type PushController, pushController } from "../push/push-controller";
import { EVENT_LABELS, PushStatus, statusText } from "../push/push-state";
import "../push/notifications.css";

/**
 * This device's notifications: the state (on / off / blocked / not supported / install first), the enable
 * or turn-off button, and — when on — which events notify (`events`) and this session's mute (`sessionId`).
 */
export function NotificationSettings(props: { sessionId?: string; events?: boolean; controller?: PushController }) {
  const push = props.controller ?? pushController();
  onMount(() => void push.refresh());
  const text = () => {
    const s = push.status();
    return s ? statusText(s) : null;
  };
  const muted = () => !!props.sessionId && (push.prefs()?.mutedSessions.includes(props.sessionId) ?? false);
  return (
    <div class="push-settings" data-testid="push-settings">
      <div class="settings-title">Notifications</div>
      <div class="push-state" role="status" data-testid="push-state" data-status={push.status() ?? "loading"}>
        <Show when={text()} fallback={<span class="settings-help">{push.error() ?? "Checking this device…"}</span>}>
          {(t) => (
            <>
              <span class="settings-name">{t().label}</span>
              <span class="settings-help">{t().help}</span>
            </>
          )}
        </Show>
      </div>
      <Show when={push.status() === PushStatus.off}>
        <button class="btn btn-primary push-enable" data-testid="push-enable" disabled={push.busy()} onClick={() => void push.enable()}>
          Enable notifications
        </button>
      </Show>
      <Show when={push.error() && push.status()}>
        <p class="push-error" role="alert">
          {push.error()}
        </p>
      </Show>
      <Show when={push.status() === PushStatus.on}>
        <Show when={props.sessionId}>
          <label class="settings-row">
            <span>
              <span class="settings-name">Mute this session</span>
              <span class="settings-help">No notifications from it on any of your devices</span>
            </span>
            <input
              type="checkbox"
              class="switch"
              data-testid="push-mute"
              checked={muted()}
              disabled={push.busy() || !push.prefs()}
              onChange={(e) => void push.setMuted(props.sessionId!, e.currentTarget.checked)}
            />
          </label>
        </Show>
        <Show when={props.events && push.prefs()}>
          {(p) => (
            <fieldset class="push-events">
              <legend class="settings-help">Notify me when</legend>
              <For each={EVENT_LABELS}>
                {(e) => (
                  <label class="settings-row">
                    <span class="settings-name">{e.label}</span>
                    <input
                      type="checkbox"
                      class="switch"
                      data-testid={`push-event-${e.kind}`}
                      checked={p().events[e.kind] ?? true}
                      disabled={push.busy()}
                      onChange={(ev) => void push.setEvent(e.kind, ev.currentTarget.checked)}
                    />
                  </label>
                )}
              </For>
            </fieldset>
          )}
        </Show>
        <button class="btn btn-quiet btn-sm push-off" data-testid="push-disable" disabled={push.busy()} onClick={() => void push.disable()}>
          Turn off on this device
        </button>
      </Show>
    </div>
  );
}
