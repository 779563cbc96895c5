/** A browser and a Baton server in memory for push tests (controller and components), recording calls. */
import type { PushPreferences, PushSubscriptionBody } from "../../../shared/push-api";
import type { DeviceSubscription, PushDevice } from "./push-device";
import type { PushHttp } from "./push-http";
import type { PushEnvironment } from "./push-state";

export const SUB: DeviceSubscription = { endpoint: "https://push.example/abc", keys: { p256dh: "p", auth: "a" } };
export const PREFS: PushPreferences = {
  events: { permission: true, turn_ended: true, turn_failed: true, machine_offline: true, queued_started: true },
  mutedSessions: [],
};

/** A browser and a server in memory, recording what the controller asked of each. */
export function fakePush(o: { env?: Partial<PushEnvironment>; answer?: NotificationPermission; key?: string | null; subscribed?: boolean } = {}) {
  const calls: string[] = [];
  const server = { subs: new Map<string, PushSubscriptionBody>(), prefs: structuredClone(PREFS), muted: new Set<string>() };
  let env: PushEnvironment = { serviceWorker: true, pushManager: true, notification: true, permission: "default", ios: false, standalone: false, ...o.env };
  let sub: DeviceSubscription | null = o.subscribed ? SUB : null;
  const device: PushDevice = {
    environment: async () => env,
    subscription: async () => sub,
    requestPermission: async () => {
      calls.push("requestPermission");
      env = { ...env, permission: o.answer ?? "granted" };
      return env.permission;
    },
    subscribe: async (key) => {
      calls.push(`subscribe:${key}`);
      return (sub = SUB);
    },
    unsubscribe: async () => {
      calls.push("unsubscribe");
      sub = null;
    },
    label: () => "Linux · Chrome",
  };
  const http: PushHttp = {
    config: async () => ({ publicKey: o.key === undefined ? "KEY" : o.key }),
    addSubscription: async (b) => void server.subs.set(b.endpoint, b),
    removeSubscription: async (e) => void server.subs.delete(e),
    preferences: async () => structuredClone(server.prefs),
    setPreferences: async (p) => (server.prefs = structuredClone(p)),
    setMuted: async (id, m) => void (m ? server.muted.add(id) : server.muted.delete(id)),
  };
  return { device, http, calls, server };
}

