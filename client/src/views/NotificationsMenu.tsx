import Bell from "lucide-solid/icons/bell";
import BellOff from "lucide-solid/icons/bell-off";
import { createSignal, Show } from "solid-js";
import { createDismiss } from "../lib/create-dismiss";
import { type PushController, pushController } from "../push/push-controller";
import { PushStatus } from "../push/push-state";
import { NotificationSettings } from "./NotificationSettings";

/** The bell beside the user's name: this device's notifications and which events notify. */
export function NotificationsMenu(props: { controller?: PushController }) {
  const push = props.controller ?? pushController();
  const [open, setOpen] = createSignal(false);
  let root!: HTMLDivElement;
  createDismiss({ isOpen: open, close: () => setOpen(false), inside: (t) => root.contains(t) });
  return (
    <div class="settings" ref={root}>
      <button
        class="icon-btn"
        aria-label="Notifications"
        aria-expanded={open()}
        title="Notifications"
        data-testid="notifications-button"
        onClick={() => setOpen((o) => !o)}
      >
        <Show when={push.status() === PushStatus.on} fallback={<BellOff size={18} />}>
          <Bell size={18} />
        </Show>
      </button>
      <Show when={open()}>
        <div class="settings-panel push-panel" role="dialog" aria-label="Notifications" data-testid="notifications-panel">
          <NotificationSettings events controller={push} />
        </div>
      </Show>
    </div>
  );
}
