import { afterEach, describe, expect, it, vi } from "vitest";
import type { Me } from "../../../shared/api";
import { signOut } from "./auth";

const me: Me = { id: "u1", email: "a@example.com", name: "Ann", authMode: "builtin" };

describe("signOut", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("removes this device's push subscription before the session ends, then clears the device and leaves", async () => {
    const order: string[] = [];
    vi.stubGlobal("fetch", async (path: string) => {
      order.push(`fetch ${path}`);
      return new Response(JSON.stringify({ ok: true }), { status: 200 });
    });
    localStorage.setItem("baton:draft:s1", "x");
    const go = vi.fn((url: string) => order.push(`go ${url}`));
    await signOut(me, go, async () => void order.push("forget push"));
    expect(order).toEqual(["forget push", "fetch /api/auth/signout", "go /"]);
    expect(localStorage.getItem("baton:draft:s1")).toBeNull();
  });

  it("a push removal that fails or hangs does not hold up the sign-out", async () => {
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify({ ok: true }), { status: 200 }));
    const go = vi.fn();
    await signOut(me, go, async () => Promise.reject(new Error("offline")));
    expect(go).toHaveBeenCalledWith("/");
    vi.useFakeTimers();
    const go2 = vi.fn();
    const done = signOut(me, go2, () => new Promise(() => {}));
    await vi.advanceTimersByTimeAsync(3_000);
    await done;
    expect(go2).toHaveBeenCalledWith("/");
  });
});
