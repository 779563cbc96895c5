/** This browser's side of push: the Notification permission and the service worker's PushManager. */
import { PushSubscriptionBody } from "../../../shared/push-api";
import { deviceLabel, isIOS, type PushEnvironment, sameKey, vapidKeyBytes } from "./push-state";

/** What `PushSubscription.toJSON()` gives, checked (no label: the controller adds it). */
export type DeviceSubscription = Omit<PushSubscriptionBody, "deviceLabel">;

export type PushDevice = {
  environment(): Promise<PushEnvironment>;
  subscription(): Promise<DeviceSubscription | null>;
  requestPermission(): Promise<NotificationPermission>;
  subscribe(publicKey: string): Promise<DeviceSubscription>;
  unsubscribe(): Promise<void>;
  label(): string;
};

/** The worker registers after load; one that is not there by then is not coming (dev server, refused). */
const WORKER_READY_TIMEOUT_MS = 5_000;

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!("serviceWorker" in navigator)) return null;
  const timeout = new Promise<null>((r) => setTimeout(() => r(null), WORKER_READY_TIMEOUT_MS));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

function toBody(sub: PushSubscription): DeviceSubscription {
  const parsed = PushSubscriptionBody.omit({ deviceLabel: true }).safeParse(sub.toJSON());
  if (!parsed.success) throw new Error("The browser gave a push subscription without keys");
  return parsed.data;
}

export const browserPushDevice: PushDevice = {
  async environment() {
    const standaloneFlag = "standalone" in navigator && navigator.standalone === true;
    const reg = await registration();
    return {
      serviceWorker: reg !== null,
      pushManager: reg !== null && "pushManager" in reg,
      notification: "Notification" in globalThis,
      permission: "Notification" in globalThis ? Notification.permission : "denied",
      ios: isIOS(navigator.userAgent, navigator.maxTouchPoints),
      standalone: standaloneFlag || matchMedia("(display-mode: standalone)").matches,
    };
  },
  async subscription() {
    const sub = await (await registration())?.pushManager.getSubscription();
    return sub ? toBody(sub) : null;
  },
  requestPermission: () => Notification.requestPermission(),
  async subscribe(publicKey) {
    const reg = await registration();
    if (!reg) throw new Error("The service worker is not running");
    const key = vapidKeyBytes(publicKey);
    const existing = await reg.pushManager.getSubscription();
    // Made for another server key (rotated): the browser refuses a second key on one subscription.
    if (existing && !sameKey(existing.options.applicationServerKey, key)) await existing.unsubscribe();
    return toBody(await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  },
  async unsubscribe() {
    await (await (await registration())?.pushManager.getSubscription())?.unsubscribe();
  },
  label: () => deviceLabel(navigator.userAgent, navigator.maxTouchPoints),
};
