import { describe, expect, it, vi } from "vitest";
import { onDemand } from "./on-demand";

describe("onDemand", () => {
  it("null until loaded; one import however often it is asked for", async () => {
    const importer = vi.fn(async () => ({ v: 1 }));
    const m = onDemand(importer);
    expect(m.current()).toBeNull();
    const [a, b] = await Promise.all([m.load(), m.load()]);
    expect(a).toBe(b);
    expect(m.current()).toEqual({ v: 1 });
    m.warm();
    expect(importer).toHaveBeenCalledOnce();
  });

  it("warm() loads once the page is idle, not during the call", async () => {
    const importer = vi.fn(async () => "mod");
    const m = onDemand(importer);
    m.warm();
    m.warm();
    expect(importer).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(m.current()).toBe("mod"));
    expect(importer).toHaveBeenCalledOnce();
  });

  it("a failed load is tried again by the next call", async () => {
    let fail = true;
    const m = onDemand(async () => {
      if (fail) throw new Error("offline");
      return "mod";
    });
    await expect(m.load()).rejects.toThrow("offline");
    fail = false;
    expect(await m.load()).toBe("mod");
  });
});
