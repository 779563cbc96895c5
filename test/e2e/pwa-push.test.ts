// The installable app and Web Push in Chromium against the local stack (served on 127.0.0.1, a secure
// context): the manifest and its type, the service worker, installability (CDP), the shell offline, a push
// delivered to the worker (CDP ServiceWorker.deliverPushMessage) shown with Approve / Deny, and the
// worker's own Approve path answering the permission in the room for every viewer. Screenshots of the
// enable-notifications flow on a phone (390 px) and a desktop.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CDPSession, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { PushPayload } from "../../shared/push-api";
import { SW_MESSAGE_NOTIFICATION_ACTION, type SwActionReply } from "../../client/src/push/sw-messages";
import { DESKTOP, launchPersistent, PHONE, shot, withServiceWorker } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { idle, openSession, tid } from "./session-page";
import { createSession, NodeViewer, waitFor } from "./support";

const e2e = useStackAndBrowser();

// What the page-side helpers below use of the DOM (this file is typechecked without the DOM's lib).
type Shown = { title: string; body: string; tag: string; actions: { action: string; title: string }[] };
type PageWorker = {
  navigator: {
    serviceWorker: {
      controller: unknown;
      ready: Promise<{
        active: { scriptURL: string; postMessage(message: unknown, transfer: unknown[]): void } | null;
        getNotifications(): Promise<{ title: string; body: string; tag: string; actions?: readonly { action: string; title: string }[] }[]>;
      }>;
    };
  };
  MessageChannel: new () => { port1: { onmessage: ((e: { data: unknown }) => void) | null }; port2: unknown };
};

/** The page's service worker, active (it registers after the page's load event). */
async function workerReady(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const reg = await (globalThis as unknown as PageWorker).navigator.serviceWorker.ready;
    return reg.active?.scriptURL ?? "";
  });
}

/** The registration id CDP knows the worker by (ServiceWorker.enable reports every registration). */
async function registrationId(cdp: CDPSession, scope: string): Promise<string> {
  const seen: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on("ServiceWorker.workerRegistrationUpdated", (e) => seen.push(...e.registrations));
  await cdp.send("ServiceWorker.enable");
  const reg = await waitFor(() => seen.find((r) => r.scopeURL === scope && !r.isDeleted), "service worker registration in CDP");
  return reg.registrationId;
}

async function notifications(page: Page): Promise<Shown[]> {
  return page.evaluate(async () => {
    const reg = await (globalThis as unknown as PageWorker).navigator.serviceWorker.ready;
    return (await reg.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      actions: (n.actions ?? []).map((a) => ({ action: a.action, title: a.title })),
    }));
  });
}

/** Runs the worker's notification-tap path for the shown notification `tag` (what a tap on `action` runs). */
async function tapInWorker(page: Page, tag: string, action: string): Promise<SwActionReply> {
  const reply = await page.evaluate(
    async ({ type, tag, action }) => {
      const g = globalThis as unknown as PageWorker;
      const reg = await g.navigator.serviceWorker.ready;
      const channel = new g.MessageChannel();
      const answer = new Promise<unknown>((r) => (channel.port1.onmessage = (e) => r(e.data)));
      reg.active!.postMessage({ type, tag, action }, [channel.port2]);
      return answer;
    },
    { type: SW_MESSAGE_NOTIFICATION_ACTION, tag, action },
  );
  // The worker's reply, structured-cloned back (sw-messages.ts).
  return reply as SwActionReply;
}

describe("installable app and push (Chromium)", () => {
  it("the manifest is served as application/manifest+json; the service worker registers; Chromium reports no installability errors", async () => {
    const res = await fetch(`${e2e.stack.url}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as { display: string; start_url: string; icons: { sizes: string; purpose?: string }[] };
    expect(manifest).toMatchObject({ name: "Baton", short_name: "Baton", display: "standalone", start_url: "/", scope: "/", theme_color: "#3a5bd9" });
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose ?? "any"}`)).toEqual(["192x192 any", "512x512 any", "512x512 maskable"]);

    // A profile on disk: Chromium reports "in-incognito" for any app in a throwaway context.
    const profile = mkdtempSync(join(tmpdir(), "baton-pwa-profile-"));
    const ctx = await launchPersistent(profile, withServiceWorker(DESKTOP));
    try {
      const page = ctx.pages()[0] ?? (await ctx.newPage());
      await page.goto(e2e.stack.url);
      await tid(page, "new-session").waitFor({ timeout: 20_000 });
      expect(await workerReady(page)).toBe(`${e2e.stack.url}/sw.js`);
      const cdp = await ctx.newCDPSession(page);
      const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
      expect(installabilityErrors).toEqual([]);
    } finally {
      await ctx.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  it("opens offline from the cached shell to a clear \"You're offline\", and recovers when back online", async () => {
    const ctx = await e2e.browser.newContext(withServiceWorker(DESKTOP));
    const page = await ctx.newPage();
    await page.goto(e2e.stack.url);
    await workerReady(page);
    // The worker controls the page once it has claimed it.
    await waitFor(() => page.evaluate(() => (globalThis as unknown as PageWorker).navigator.serviceWorker.controller !== null), "page controlled by the worker");
    await ctx.setOffline(true);
    const res = await page.reload();
    expect(res?.fromServiceWorker()).toBe(true);
    await page.getByRole("heading", { name: "You're offline" }).waitFor({ timeout: 15_000 });
    await shot(page, "pwa-offline-desktop");
    await ctx.setOffline(false);
    await tid(page, "new-session").waitFor({ timeout: 20_000 });
    await ctx.close();
  });

  it("a push to the worker shows the permission with Approve / Deny; the worker's Approve path (its tap handler, run by message) answers it for every viewer; a second tap says who answered first", async () => {
    const sessionId = await createSession(e2e.stack.url);
    const ctx = await e2e.browser.newContext(withServiceWorker(DESKTOP));
    await ctx.grantPermissions(["notifications"], { origin: e2e.stack.url });
    const page = await ctx.newPage();
    await openSession(page, e2e.stack.url, sessionId, "idle");
    await workerReady(page);
    const other = await new NodeViewer(e2e.stack.url, sessionId).open();

    // A real permission request in the room (the demo agent asks on "permission").
    await tid(page, "composer-input").fill("permission");
    await tid(page, "composer-input").press("Enter");
    const card = tid(page, "permission-card");
    await card.waitFor({ timeout: 30_000 });
    const req = await waitFor(() => other.ofKind("permission_request")[0], "permission request");
    expect(await tid(page, "permission-resolved").count()).toBe(0);

    // What the Worker sends for it (shared/push-api.ts), delivered by Chromium's DevTools push.
    const payload = PushPayload.parse({
      kind: "permission",
      sessionId,
      title: "Demo agent needs your approval",
      body: "Allow once?",
      tag: `${sessionId}:permission`,
      url: `/s/${sessionId}`,
      permission: {
        requestId: req.requestId,
        actions: [
          { action: "approve", optionId: "allow_once", title: "Approve" },
          { action: "deny", optionId: "reject_once", title: "Deny" },
        ],
      },
    });
    const cdp = await ctx.newCDPSession(page);
    const id = await registrationId(cdp, `${e2e.stack.url}/`);
    const deliver = () => cdp.send("ServiceWorker.deliverPushMessage", { origin: e2e.stack.url, registrationId: id, data: JSON.stringify(payload) });
    await deliver();
    const shown = await waitFor(async () => (await notifications(page)).find((n) => n.tag === payload.tag), "notification shown");
    expect(shown).toEqual({
      title: "Demo agent needs your approval",
      body: "Allow once?",
      tag: payload.tag,
      actions: [
        { action: "approve", title: "Approve" },
        { action: "deny", title: "Deny" },
      ],
    });

    expect(await tapInWorker(page, payload.tag, "approve")).toEqual({ outcome: "answered" });
    // Every viewer sees it resolved: this page's card and another viewer's stream.
    await tid(page, "permission-resolved").waitFor({ timeout: 15_000 });
    const resolved = await waitFor(() => other.ofKind("permission_resolved").find((e) => e.requestId === req.requestId), "permission_resolved for the other viewer");
    expect(resolved).toMatchObject({ outcome: "selected", optionId: "allow_once" });
    expect((await notifications(page)).some((n) => n.tag === payload.tag)).toBe(false); // the tapped one is gone

    // The same notification again (a second device, a late tap): the first answer stands.
    await deliver();
    await waitFor(async () => (await notifications(page)).some((n) => n.tag === payload.tag), "notification shown again");
    const late = await tapInWorker(page, payload.tag, "deny");
    expect(late.outcome).toBe("already_answered");
    const followUp = await waitFor(async () => (await notifications(page)).find((n) => n.tag === `${sessionId}:answer`), "already-answered notification");
    expect(followUp.title).toMatch(/^Already answered/);
    expect(other.ofKind("permission_resolved").filter((e) => e.requestId === req.requestId)).toHaveLength(1);

    other.close();
    await ctx.close();
  });

  for (const [name, profile] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${name}: the enable-notifications flow (user menu, the offer after a send) — screenshots`, async () => {
      const sessionId = await createSession(e2e.stack.url);
      const ctx = await e2e.browser.newContext(withServiceWorker(profile));
      const page = await ctx.newPage();
      await page.goto(e2e.stack.url);
      await tid(page, "new-session").waitFor({ timeout: 20_000 });
      await workerReady(page);
      await tid(page, "notifications-button").click();
      const state = tid(page, "push-state");
      // The phone profile is an iPhone in Safari (not installed): it explains the Home Screen.
      await state.filter({ hasText: name === "phone" ? "Install Baton first" : "Off" }).waitFor({ timeout: 15_000 });
      expect(await tid(page, "push-enable").count()).toBe(name === "phone" ? 0 : 1);
      await shot(page, `pwa-notifications-menu-${name}`);
      await page.keyboard.press("Escape");

      // No offer on load; after this person's send while the turn runs, one.
      await page.goto(`${e2e.stack.url}/s/${sessionId}`);
      await idle(page, 20_000);
      expect(await tid(page, "push-prompt").count()).toBe(0);
      await tid(page, "composer-input").fill("sleep 20");
      await tid(page, "composer-input").press("Enter");
      await tid(page, "push-prompt").waitFor({ timeout: 15_000 });
      await shot(page, `pwa-enable-prompt-${name}`);
      await tid(page, "settings-button").click();
      await tid(page, "push-settings").waitFor();
      await shot(page, `pwa-session-settings-${name}`);
      await page.keyboard.press("Escape");
      await tid(page, "push-prompt-dismiss").click();
      expect(await tid(page, "push-prompt").count()).toBe(0);
      await tid(page, "stop-button").click();
      await ctx.close();
    });
  }
});
