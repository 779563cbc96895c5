import { createRoot } from "solid-js";
import { describe, expect, it } from "vitest";
import { makePushController } from "./push-controller";
import { PushStatus } from "./push-state";
import { fakePush as fakes, PREFS, SUB } from "./testing-push";

const controller = (f: ReturnType<typeof fakes>) => createRoot(() => makePushController(f));

describe("push controller", () => {
  it("enable: asks the browser, subscribes with the server's key, registers the device, loads preferences", async () => {
    const f = fakes();
    const c = controller(f);
    await c.refresh();
    expect(c.status()).toBe(PushStatus.off);
    expect(f.calls).toEqual([]); // reading the state never asks for permission
    await c.enable();
    expect(f.calls).toEqual(["requestPermission", "subscribe:KEY"]);
    expect(c.status()).toBe(PushStatus.on);
    expect(f.server.subs.get(SUB.endpoint)).toEqual({ ...SUB, deviceLabel: "Linux · Chrome" });
    expect(c.prefs()).toEqual(PREFS);
  });

  it("a refusal is 'blocked'; a dismissed prompt stays 'off' and subscribes nothing", async () => {
    const denied = fakes({ answer: "denied" });
    const c1 = controller(denied);
    await c1.enable();
    expect(c1.status()).toBe(PushStatus.blocked);
    expect(denied.calls).toEqual(["requestPermission"]);
    const dismissed = fakes({ answer: "default" });
    const c2 = controller(dismissed);
    await c2.enable();
    expect(c2.status()).toBe(PushStatus.off);
    expect(dismissed.server.subs.size).toBe(0);
  });

  it("a server without a key says so and never asks the browser", async () => {
    const f = fakes({ key: null });
    const c = controller(f);
    await c.enable();
    expect(c.status()).toBe(PushStatus.serverOff);
    expect(f.calls).toEqual([]);
  });

  it("iPhone in a tab: explains installing, asks nothing", async () => {
    const f = fakes({ env: { ios: true, pushManager: false } });
    const c = controller(f);
    await c.enable();
    expect(c.status()).toBe(PushStatus.needsInstall);
    expect(f.calls).toEqual([]);
  });

  it("an existing subscription is on after a reload and refreshed on the server", async () => {
    const f = fakes({ env: { permission: "granted" }, subscribed: true });
    const c = controller(f);
    await c.refresh();
    expect(c.status()).toBe(PushStatus.on);
    expect(f.server.subs.has(SUB.endpoint)).toBe(true);
  });

  it("disable / forgetDevice (sign-out) removes the device from the server and the browser", async () => {
    const f = fakes({ env: { permission: "granted" }, subscribed: true });
    const c = controller(f);
    await c.refresh();
    await c.disable();
    expect(c.status()).toBe(PushStatus.off);
    expect(f.server.subs.size).toBe(0);
    expect(f.calls).toEqual(["unsubscribe"]);
  });

  it("event settings and per-session mute go to the server", async () => {
    const f = fakes({ env: { permission: "granted" }, subscribed: true });
    const c = controller(f);
    await c.refresh();
    await c.setEvent("turn_ended", false);
    expect(f.server.prefs.events.turn_ended).toBe(false);
    expect(c.prefs()?.events.turn_ended).toBe(false);
    await c.setMuted("s1", true);
    expect(f.server.muted.has("s1")).toBe(true);
    expect(c.prefs()?.mutedSessions).toEqual(["s1"]);
    await c.setMuted("s1", false);
    expect(c.prefs()?.mutedSessions).toEqual([]);
  });

  it("a server that cannot be reached: an error to show, tried again next time", async () => {
    const f = fakes();
    let fail = true;
    const config = f.http.config;
    f.http.config = async () => {
      if (fail) throw new Error("Cannot reach the server");
      return config();
    };
    const c = controller(f);
    await c.refresh();
    expect(c.status()).toBeNull();
    expect(c.error()).toBe("Cannot reach the server");
    fail = false;
    await c.refresh();
    expect(c.status()).toBe(PushStatus.off);
    expect(c.error()).toBeNull();
  });
});
