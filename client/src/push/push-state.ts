/** Whether this device can get Baton's notifications, and what to tell the person (pure). */
import { assertNever } from "../../../shared/assert-never";
import type { PushEventKind } from "../../../shared/push-api";

export const PushStatus = {
  /** The browser has no service worker / Push API / notifications. */
  unsupported: "unsupported",
  /** iPhone / iPad in a Safari tab: web push exists only in the app added to the Home Screen. */
  needsInstall: "needs-install",
  /** This server has no VAPID key (push not set up on the deployment). */
  serverOff: "server-off",
  /** The person (or a policy) refused notifications for this site. */
  blocked: "blocked",
  off: "off",
  on: "on",
} as const;
export type PushStatus = (typeof PushStatus)[keyof typeof PushStatus];

export type PushEnvironment = {
  serviceWorker: boolean;
  pushManager: boolean;
  notification: boolean;
  permission: NotificationPermission;
  ios: boolean;
  /** Opened from the Home Screen (display-mode standalone, or iOS `navigator.standalone`). */
  standalone: boolean;
};

export function pushStatus(env: PushEnvironment, serverKey: string | null, subscribed: boolean): PushStatus {
  if (env.ios && !env.standalone) return PushStatus.needsInstall;
  if (!env.serviceWorker || !env.pushManager || !env.notification) return PushStatus.unsupported;
  if (serverKey === null) return PushStatus.serverOff;
  if (env.permission === "denied") return PushStatus.blocked;
  return subscribed && env.permission === "granted" ? PushStatus.on : PushStatus.off;
}

/** iPhone, iPod, and iPad (iPadOS says "Macintosh" but has a touch screen). */
export function isIOS(userAgent: string, maxTouchPoints: number): boolean {
  return /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
}

/** A short name for this device in the server's list of subscriptions ("iPhone · Safari"). */
export function deviceLabel(userAgent: string, maxTouchPoints: number): string {
  const os = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPod/.test(userAgent)
      ? "iPhone"
      : isIOS(userAgent, maxTouchPoints)
        ? "iPad"
        : /Windows/.test(userAgent)
          ? "Windows"
          : /Mac OS X|Macintosh/.test(userAgent)
            ? "Mac"
            : /Linux|CrOS/.test(userAgent)
              ? "Linux"
              : "Browser";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrome\/|Chromium\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : null;
  return browser ? `${os} · ${browser}` : os;
}

/** The VAPID public key (base64url, as `GET /api/push/config` gives it) as `applicationServerKey` bytes. */
export function vapidKeyBytes(key: string): Uint8Array<ArrayBuffer> {
  const b64 = key.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (key.length % 4)) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Same key bytes (a subscription made with another server key must be replaced). */
export function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a) return false;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

export function statusText(status: PushStatus): { label: string; help: string } {
  switch (status) {
    case PushStatus.on:
      return { label: "On for this device", help: "Baton tells you here when a turn ends or an agent waits for you, unless you are looking at that session." };
    case PushStatus.off:
      return { label: "Off", help: "Get a notification when a turn ends or an agent needs your approval, even with Baton closed." };
    case PushStatus.blocked:
      return { label: "Blocked by the browser", help: "Notifications for this site are blocked. Allow them in the browser's site settings, then come back here." };
    case PushStatus.unsupported:
      return { label: "Not supported", help: "This browser cannot receive web push notifications." };
    case PushStatus.needsInstall:
      return {
        label: "Install Baton first",
        help: "On iPhone and iPad, notifications work only in the installed app: tap Share, then “Add to Home Screen”, and open Baton from the Home Screen.",
      };
    case PushStatus.serverOff:
      return { label: "Not set up on this server", help: "Push notifications are not configured on this Baton deployment (see the README: VAPID keys)." };
    default:
      return assertNever(status);
  }
}

/** Each event a person can turn on or off, in the order the settings list them. */
export const EVENT_LABELS: readonly { kind: PushEventKind; label: string }[] = [
  { kind: "permission", label: "An agent needs my approval or an answer" },
  { kind: "turn_ended", label: "A turn ended" },
  { kind: "turn_failed", label: "A turn failed" },
  { kind: "machine_offline", label: "A machine went offline during a turn" },
  { kind: "queued_started", label: "My queued message started" },
];

/** The offer after a send ("notify me when this ends?"): only where enabling can work or be explained, once. */
export function shouldOfferPrompt(p: { status: PushStatus | null; dismissed: boolean; sentHere: boolean; turnActive: boolean }): boolean {
  if (p.dismissed || !p.sentHere || !p.turnActive) return false;
  return p.status === PushStatus.off || p.status === PushStatus.needsInstall;
}
