import Bell from "lucide-solid/icons/bell";
import BellOff from "lucide-solid/icons/bell-off";
import { Show } from "solid-js";
import { createPopover } from "../lib/create-popover";
import { type PushController, pushController } from "../push/push-controller";
import { PushStatus } from "../push/push-state";
import { NotificationSettings } from "./NotificationSettings";

/** The bell beside the user's name: this device's notifications and which events notify. */
export function NotificationsMenu(props: { controller?: PushController }) {
  const push = props.controller ?? pushController();
  const pop = createPopover("below-button");
  return (
    <div class="settings">
      <button
        ref={pop.button}
        class="icon-btn"
        aria-label="Notifications"
        aria-expanded={pop.open()}
        aria-haspopup="dialog"
        popovertarget={pop.id}
        title="Notifications"
        data-testid="notifications-button"
      >
        <Show when={push.status() === PushStatus.on} fallback={<BellOff size={18} />}>
          <Bell size={18} />
        </Show>
      </button>
      <div ref={pop.panel} id={pop.id} popover="auto" tabindex="-1" class="settings-panel push-panel" role="dialog" aria-label="Notifications" data-testid="notifications-panel">
        <Show when={pop.open()}>
          <NotificationSettings events controller={push} />
        </Show>
      </div>
    </div>
  );
}
