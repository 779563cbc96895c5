import { describe, expect, it } from "vitest";
import type { MachineSummary } from "../../../shared/api";
import { createBody } from "./new-session-logic";

const machine: MachineSummary = {
  id: "m1",
  name: "Laptop",
  online: true,
  hostname: "laptop",
  agents: [],
  roots: ["/home/ana/src"],
  lastSeenAt: null,
};

describe("createBody", () => {
  it("sends a directory inside the machine's roots, trimmed", () => {
    expect(createBody(machine, "demo", " /home/ana/src/app ")).toEqual({ body: { machineId: "m1", agentId: "demo", cwd: "/home/ana/src/app" } });
  });
  it("says why it cannot start: offline, no directory, outside the roots", () => {
    expect(createBody({ ...machine, online: false }, "demo", "/home/ana/src")).toEqual({ reason: "Laptop is offline" });
    expect(createBody(machine, "demo", "  ")).toEqual({ reason: "Choose a directory" });
    expect(createBody(machine, "demo", "/etc")).toEqual({ reason: "Choose a directory inside /home/ana/src" });
  });
});
