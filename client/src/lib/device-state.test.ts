import { describe, expect, it } from "vitest";
import { clearDeviceState } from "./device-state";

describe("device state", () => {
  it("clears Baton's drafts and outboxes and nothing else", () => {
    localStorage.clear();
    localStorage.setItem("baton:draft:s1", '{"text":"secret plan"}');
    localStorage.setItem("baton:outbox:s1", "[]");
    localStorage.setItem("other-app", "keep");
    expect(clearDeviceState(localStorage)).toBe(2);
    expect(localStorage.getItem("baton:draft:s1")).toBeNull();
    expect(localStorage.getItem("baton:outbox:s1")).toBeNull();
    expect(localStorage.getItem("other-app")).toBe("keep");
  });
});
