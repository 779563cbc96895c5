/**
 * This device's notifications as reactive state: status, enable / disable, the person's preferences and
 * per-session mute. The browser and the server are ports (`PushDevice`, `PushHttp`), so the flow is tested
 * without either.
 */
import { createRoot, createSignal } from "solid-js";
import type { PushEventKind, PushPreferences } from "../../../shared/push-api";
import { browserPushDevice, type PushDevice } from "./push-device";
import { type PushHttp, pushHttp } from "./push-http";
import { type PushEnvironment, PushStatus, pushStatus } from "./push-state";

export type PushController = ReturnType<typeof makePushController>;

export function makePushController(ports: { device: PushDevice; http: PushHttp }) {
  const { device, http } = ports;
  const [status, setStatus] = createSignal<PushStatus | null>(null);
  const [prefs, setPrefs] = createSignal<PushPreferences | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  let serverKey: string | null | undefined;
  let env: PushEnvironment | null = null;
  let loading: Promise<void> | null = null;

  const key = async () => (serverKey !== undefined ? serverKey : (serverKey = (await http.config()).publicKey));

  const loadPrefs = async () => setPrefs(await http.preferences());

  async function load(): Promise<void> {
    env = await device.environment();
    // The server's key matters only where push can work at all.
    const k = env.serviceWorker && env.pushManager && !(env.ios && !env.standalone) ? await key() : null;
    const sub = k ? await device.subscription() : null;
    const s = pushStatus(env, k, sub !== null);
    if (s === PushStatus.on && sub) {
      // Refreshed on every load: the server keeps it (same endpoint = same row) and learns it still works.
      await http.addSubscription({ ...sub, deviceLabel: device.label() }).catch(() => {});
      await loadPrefs().catch(() => {});
    }
    setStatus(s);
    setError(null);
  }

  /** Reads the state once per page (again with `force`). */
  function refresh(force = false): Promise<void> {
    if (!loading || force)
      loading = load().catch((e: unknown) => {
        loading = null; // try again next time (offline, server restarting)
        setError(e instanceof Error ? e.message : String(e));
      });
    return loading;
  }

  async function run(f: () => Promise<void>): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  /** Asks the browser, subscribes with the server's key, and registers this device. */
  const enable = () =>
    run(async () => {
      await refresh();
      if (status() !== PushStatus.off) return;
      const k = await key();
      if (!k) return void setStatus(PushStatus.serverOff);
      const permission = await device.requestPermission();
      if (permission === "denied") return void setStatus(PushStatus.blocked);
      if (permission !== "granted") return; // dismissed: still off, ask again another time
      const sub = await device.subscribe(k);
      await http.addSubscription({ ...sub, deviceLabel: device.label() });
      setStatus(PushStatus.on);
      await loadPrefs();
    });

  /** Removes this device from the server and the browser's subscription. */
  const disable = () =>
    run(async () => {
      await forgetDevice();
      if (status() === PushStatus.on) setStatus(PushStatus.off);
    });

  async function forgetDevice(): Promise<void> {
    const sub = await device.subscription();
    if (!sub) return;
    await http.removeSubscription(sub.endpoint);
    await device.unsubscribe();
  }

  const setEvent = (kind: PushEventKind, on: boolean) =>
    run(async () => {
      const p = prefs();
      if (!p) return;
      setPrefs(await http.setPreferences({ ...p, events: { ...p.events, [kind]: on } }));
    });

  const setMuted = (sessionId: string, muted: boolean) =>
    run(async () => {
      await http.setMuted(sessionId, muted);
      const p = prefs();
      if (p) setPrefs({ ...p, mutedSessions: muted ? [...new Set([...p.mutedSessions, sessionId])] : p.mutedSessions.filter((s) => s !== sessionId) });
    });

  return { status, prefs, busy, error, refresh, enable, disable, setEvent, setMuted, forgetDevice };
}

let shared: PushController | null = null;
/** The page's one controller (the user menu, the session header and the prompt share it). */
export function pushController(): PushController {
  return (shared ??= createRoot(() => makePushController({ device: browserPushDevice, http: pushHttp })));
}
