import Bell from "lucide-solid/icons/bell";
import BellOff from "lucide-solid/icons/bell-off";
import { Show } from "solid-js";
import { type PushController, pushController } from "../push/push-controller";
import { PushStatus } from "../push/push-state";
import { NotificationSettings } from "./NotificationSettings";
import { PopoverButton } from "./PopoverButton";

/** The bell beside the user's name: this device's notifications and which events notify. */
export function NotificationsMenu(props: { controller?: PushController }) {
  const push = props.controller ?? pushController();
  return (
    <PopoverButton
      label="Notifications"
      testId="notifications"
      panelClass="push-panel"
      icon={
        <Show when={push.status() === PushStatus.on} fallback={<BellOff size={18} />}>
          <Bell size={18} />
        </Show>
      }
    >
      <NotificationSettings events controller={push} />
    </PopoverButton>
  );
}
