import { describe, expect, it } from "vitest";
import type { MachineSummary } from "../../../shared/api";
import { createBody, sessionHeading } from "./new-session-logic";

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

describe("sessionHeading", () => {
  const base = { title: "Demo agent · baton", cwd: "/w/baton", firstPrompt: null, agentTitle: null };
  it("the agent's title with the first prompt as preview; else the first prompt; else the created title", () => {
    expect(sessionHeading({ ...base, agentTitle: "Login fix", firstPrompt: "fix the login test" })).toEqual({ title: "Login fix", preview: "fix the login test" });
    expect(sessionHeading({ ...base, firstPrompt: "fix the login test" })).toEqual({ title: "fix the login test", preview: null });
    expect(sessionHeading(base)).toEqual({ title: "Demo agent · baton", preview: null });
    expect(sessionHeading({ ...base, title: "" })).toEqual({ title: "baton", preview: null });
  });
});
