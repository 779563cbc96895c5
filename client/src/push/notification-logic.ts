/**
 * What the service worker does with a push and with a tap on its notification, as pure functions (the
 * worker in `client/src/sw.ts` only calls the browser). Shapes come from `shared/push-api.ts`.
 */
import { assertNever } from "../../../shared/assert-never";
import { PushActionConflict, type PushActionBody, PushPayload } from "../../../shared/push-api";

/** The icon shown with every notification (client/public/icons, scripts/make-icons.mjs). */
export const NOTIFICATION_ICON = "/icons/icon-192.png";

/** What rides on a shown notification (`Notification.data`): enough to answer or open without a fetch. */
export type NotificationData = {
  kind: PushPayload["kind"];
  sessionId: string;
  url: string;
  permission?: PushPayload["permission"];
};

export type NotificationSpec = {
  title: string;
  options: {
    body: string;
    tag: string;
    icon: string;
    data: NotificationData;
    actions: { action: string; title: string }[];
    /** A permission waits on the person: keep it on screen until they act. */
    requireInteraction: boolean;
    /** A newer push with the same tag buzzes again (a second request in the same session is news). */
    renotify: boolean;
  };
};

/** The push message's JSON → the notification to show; `null` for a message that is not ours. */
export function notificationFor(json: unknown): NotificationSpec | null {
  const parsed = PushPayload.safeParse(json);
  if (!parsed.success) return null;
  const p = parsed.data;
  const actions = p.kind === "permission" && p.permission ? p.permission.actions.map((a) => ({ action: a.action, title: a.title })) : [];
  const data: NotificationData = { kind: p.kind, sessionId: p.sessionId, url: safePath(p.url, p.sessionId) };
  if (p.permission) data.permission = p.permission;
  return {
    title: p.title,
    options: { body: p.body, tag: p.tag, icon: NOTIFICATION_ICON, data, actions, requireInteraction: p.kind === "permission", renotify: true },
  };
}

/** Only a path on this origin is opened (never another site named by a payload). */
function safePath(url: string, sessionId: string): string {
  return url.startsWith("/") && !url.startsWith("//") ? url : `/s/${encodeURIComponent(sessionId)}`;
}

export type ClickPlan = { kind: "answer"; body: PushActionBody; data: NotificationData } | { kind: "open"; url: string };

/** A tap: on Approve / Deny of a permission → answer it; anywhere else → open the session. */
export function clickPlan(action: string, data: unknown): ClickPlan | null {
  const d = readData(data);
  if (!d) return null;
  const chosen = action ? d.permission?.actions.find((a) => a.action === action) : undefined;
  if (chosen && d.permission) return { kind: "answer", body: { sessionId: d.sessionId, requestId: d.permission.requestId, optionId: chosen.optionId }, data: d };
  return { kind: "open", url: d.url };
}

function readData(data: unknown): NotificationData | null {
  if (typeof data !== "object" || data === null) return null;
  const sessionId = "sessionId" in data && typeof data.sessionId === "string" ? data.sessionId : null;
  if (!sessionId) return null;
  const url = "url" in data && typeof data.url === "string" ? safePath(data.url, sessionId) : `/s/${encodeURIComponent(sessionId)}`;
  const kind = "kind" in data ? PushPayload.shape.kind.safeParse(data.kind) : null;
  const permission = "permission" in data ? PushPayload.shape.permission.safeParse(data.permission) : null;
  return {
    kind: kind?.success ? kind.data : "permission",
    sessionId,
    url,
    ...(permission?.success && permission.data ? { permission: permission.data } : {}),
  };
}

/** How an answer from the notification went, for the follow-up the worker shows (or not). */
export type AnswerOutcome = { kind: "answered" } | { kind: "already_answered"; by: string | null } | { kind: "failed"; status: number };

export function answerOutcome(status: number, json: unknown): AnswerOutcome {
  if (status >= 200 && status < 300) return { kind: "answered" };
  if (status === 409) {
    const c = PushActionConflict.safeParse(json);
    if (c.success) return { kind: "already_answered", by: c.data.by };
  }
  return { kind: "failed", status };
}

/** The notification that replaces the tapped one when the answer did not land; `null`: nothing to show. */
export function followUpFor(outcome: AnswerOutcome, data: NotificationData): NotificationSpec | null {
  const base = { tag: `${data.sessionId}:answer`, icon: NOTIFICATION_ICON, data: { ...data, permission: undefined }, actions: [], requireInteraction: false, renotify: false };
  switch (outcome.kind) {
    case "answered":
      return null;
    case "already_answered":
      return { title: outcome.by ? `Already answered by ${outcome.by}` : "Already answered", options: { ...base, body: "Someone answered this request first. Tap to open the session." } };
    case "failed":
      return {
        title: "Could not answer from the notification",
        options: { ...base, body: outcome.status === 401 ? "You are signed out here. Tap to open Baton and sign in." : "Tap to open the session and answer there." },
      };
    default:
      return assertNever(outcome);
  }
}

/** Of the open windows, the one to focus for `url`: one already on that path, else none. */
export function windowFor<W extends { url: string }>(windows: readonly W[], url: string, origin: string): W | undefined {
  const target = new URL(url, origin);
  return windows.find((w) => {
    const u = new URL(w.url);
    return u.origin === target.origin && u.pathname === target.pathname;
  });
}
