import { describe, expect, it } from "vitest";
import { EVENT_LABELS, deviceLabel, isIOS, type PushEnvironment, PushStatus, pushStatus, sameKey, shouldOfferPrompt, statusText, vapidKeyBytes } from "./push-state";
import { PushEventKind } from "../../../shared/push-api";

const desktop: PushEnvironment = { serviceWorker: true, pushManager: true, notification: true, permission: "default", ios: false, standalone: false };
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const IPAD = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15";
const CHROME_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

describe("pushStatus", () => {
  it("off until subscribed with permission, on after", () => {
    expect(pushStatus(desktop, "k", false)).toBe(PushStatus.off);
    expect(pushStatus({ ...desktop, permission: "granted" }, "k", false)).toBe(PushStatus.off);
    expect(pushStatus({ ...desktop, permission: "granted" }, "k", true)).toBe(PushStatus.on);
    // A subscription left over after the person revoked the permission does not count.
    expect(pushStatus({ ...desktop, permission: "default" }, "k", true)).toBe(PushStatus.off);
  });
  it("blocked when the browser refuses", () => {
    expect(pushStatus({ ...desktop, permission: "denied" }, "k", true)).toBe(PushStatus.blocked);
  });
  it("an iPhone tab must install first, even before it has a Push API; installed it works", () => {
    const tab = { ...desktop, pushManager: false, ios: true };
    expect(pushStatus(tab, null, false)).toBe(PushStatus.needsInstall);
    expect(pushStatus({ ...desktop, ios: true, standalone: true }, "k", false)).toBe(PushStatus.off);
  });
  it("unsupported without a worker, Push API or notifications; server-off without a key", () => {
    expect(pushStatus({ ...desktop, serviceWorker: false }, "k", false)).toBe(PushStatus.unsupported);
    expect(pushStatus({ ...desktop, notification: false }, "k", false)).toBe(PushStatus.unsupported);
    expect(pushStatus(desktop, null, false)).toBe(PushStatus.serverOff);
  });
});

describe("devices", () => {
  it("tells iPhone and iPad (which says Macintosh) from a Mac", () => {
    expect(isIOS(IPHONE, 5)).toBe(true);
    expect(isIOS(IPAD, 5)).toBe(true);
    expect(isIOS(IPAD, 0)).toBe(false);
    expect(isIOS(CHROME_LINUX, 0)).toBe(false);
  });
  it("labels a device by system and browser", () => {
    expect(deviceLabel(IPHONE, 5)).toBe("iPhone · Safari");
    expect(deviceLabel(IPAD, 5)).toBe("iPad · Safari");
    expect(deviceLabel(IPAD, 0)).toBe("Mac · Safari");
    expect(deviceLabel(CHROME_LINUX, 0)).toBe("Linux · Chrome");
    expect(deviceLabel(ANDROID, 5)).toBe("Android · Chrome");
  });
});

describe("vapidKeyBytes / sameKey", () => {
  it("decodes base64url without padding", () => {
    expect([...vapidKeyBytes("AQID_-8")]).toEqual([1, 2, 3, 255, 239]);
    const k = vapidKeyBytes("BNbxGYNMhEIi9zrneh7mqV4oUanjLUK3m-mYZBc62frMKrEoMk88r3Lk596T0ck9xlT-aok0EsEStIbHljoN0rQ");
    expect(k.length).toBe(65);
    expect(k[0]).toBe(4); // an uncompressed P-256 point
    expect(sameKey(k.buffer.slice(0), k)).toBe(true);
    expect(sameKey(new Uint8Array(65).buffer, k)).toBe(false);
    expect(sameKey(null, k)).toBe(false);
  });
});

describe("texts", () => {
  it("every status has a label and a help line; every event kind a setting", () => {
    for (const s of Object.values(PushStatus)) expect(statusText(s).label.length * statusText(s).help.length).toBeGreaterThan(0);
    expect(statusText(PushStatus.needsInstall).help).toMatch(/Add to Home Screen/);
    expect(EVENT_LABELS.map((e) => e.kind).sort()).toEqual([...PushEventKind.options].sort());
  });
});

describe("shouldOfferPrompt", () => {
  const base = { status: PushStatus.off, dismissed: false, sentHere: true, turnActive: true };
  it("after this person's send, while the turn runs, when enabling can help", () => {
    expect(shouldOfferPrompt(base)).toBe(true);
    expect(shouldOfferPrompt({ ...base, status: PushStatus.needsInstall })).toBe(true);
  });
  it("never on page load, never again once dismissed, never when on / impossible", () => {
    expect(shouldOfferPrompt({ ...base, sentHere: false })).toBe(false);
    expect(shouldOfferPrompt({ ...base, turnActive: false })).toBe(false);
    expect(shouldOfferPrompt({ ...base, dismissed: true })).toBe(false);
    for (const status of [PushStatus.on, PushStatus.blocked, PushStatus.unsupported, PushStatus.serverOff, null]) expect(shouldOfferPrompt({ ...base, status })).toBe(false);
  });
});
