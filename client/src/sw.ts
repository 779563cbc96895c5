/// <reference lib="webworker" />
/**
 * Baton's service worker (built by vite-plugin-pwa, `injectManifest`): the app shell precached so the app
 * opens offline, and Web Push — show the notification, answer a permission from its buttons, open the
 * session on a tap. What to show and do is decided in `push/notification-logic.ts`; this file calls the
 * browser.
 */
import "./lib/zod-jitless";
import { clientsClaim } from "workbox-core";
import { addRoute, cleanupOutdatedCaches, matchPrecache, precache } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { assertNever } from "../../shared/assert-never";
import { answerOutcome, clickPlan, followUpFor, notificationFor, type NotificationSpec, windowFor } from "./push/notification-logic";
import { type SwActionReply, SwActionRequest } from "./push/sw-messages";

declare const self: ServiceWorkerGlobalScope;

self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precache(self.__WB_MANIFEST);

// Pages come from the network first — the server may redirect to a sign-in (Cloudflare Access) and a
// deployment's new page must win — and from the precached shell only when the network fails (offline).
// Registered before the precache route, which would otherwise answer "/" from the cache every time.
registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      try {
        return await fetch(request);
      } catch {
        return (await matchPrecache("/index.html")) ?? Response.error();
      }
    },
    { denylist: [/^\/api\//, /^\/cdn-cgi\//] },
  ),
);
addRoute();

self.addEventListener("push", (event) => {
  const spec = readPush(event);
  if (spec) event.waitUntil(show(spec));
});

function readPush(event: PushEvent): NotificationSpec | null {
  try {
    return notificationFor(event.data?.json());
  } catch {
    return null; // not JSON: not a message from Baton
  }
}

function show(spec: NotificationSpec): Promise<void> {
  // `actions` and `renotify` are not in every lib.dom version's NotificationOptions.
  const options: NotificationOptions & Record<string, unknown> = { ...spec.options };
  return self.registration.showNotification(spec.title, options);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(onNotificationAction(event.notification.data, event.action));
});

/**
 * A tap on a notification (`action` "" for the body, "approve" / "deny" for a button). The same path
 * answers a page's `SW_MESSAGE_NOTIFICATION_ACTION` (below), so it can be exercised end to end.
 */
async function onNotificationAction(data: unknown, action: string): Promise<SwActionReply> {
  const plan = clickPlan(action, data);
  if (!plan) return { outcome: "ignored" };
  switch (plan.kind) {
    case "open":
      await openOrFocus(plan.url);
      return { outcome: "opened", url: plan.url };
    case "answer": {
      let status = 0;
      let json: unknown = null;
      try {
        const res = await fetch("/api/push/action", {
          method: "POST",
          credentials: "same-origin",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(plan.body),
        });
        status = res.status;
        json = await res.json().catch(() => null);
      } catch {
        status = 0; // offline
      }
      const outcome = answerOutcome(status, json);
      const followUp = followUpFor(outcome, plan.data);
      if (followUp) await show(followUp);
      return outcome.kind === "already_answered" ? { outcome: "already_answered", by: outcome.by } : { outcome: outcome.kind };
    }
    default:
      return assertNever(plan);
  }
}

async function openOrFocus(url: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windowFor(windows, url, self.location.origin);
  if (open) {
    await open.focus();
    return;
  }
  await self.clients.openWindow(url);
}

self.addEventListener("message", (event) => {
  const req = SwActionRequest.safeParse(event.data);
  if (!req.success) return;
  const reply = (r: SwActionReply) => event.ports[0]?.postMessage(r);
  event.waitUntil(
    self.registration.getNotifications({ tag: req.data.tag }).then(async (shown) => {
      const n = shown[0];
      if (!n) return reply({ outcome: "ignored" });
      n.close();
      reply(await onNotificationAction(n.data, req.data.action));
    }),
  );
});
