/** The list page read before the schemas load (the home page's first paint) agrees with the schema. */
import { describe, expect, it } from "vitest";
import { SessionListPage } from "./session-list";
import { pageAsSent } from "./session-list-rules";

const row = {
  id: "s1",
  title: "Demo agent · app",
  machineId: "m1",
  machineName: "Laptop",
  agentId: "demo",
  agentLabel: "Demo agent",
  cwd: "/home/ann/app",
  status: "idle",
  createdAt: 1,
  lastActivityAt: 2,
  firstPrompt: "fix the tests",
  agentTitle: null,
  customTitle: "Tests",
  archivedAt: null,
  needsYou: false,
  unread: true,
  role: "owner",
  version: 7,
};

describe("pageAsSent", () => {
  it("reads a page as the schema does", () => {
    const raw = { sessions: [row, { ...row, id: "s2", archivedAt: 5, customTitle: undefined, role: "viewer" }], nextCursor: "c" };
    const parsed = SessionListPage.parse(raw);
    expect(pageAsSent(raw)).toEqual({ ...parsed, sessions: parsed.sessions.map((s) => ({ ...s, firstPrompt: s.firstPrompt ?? null, agentTitle: s.agentTitle ?? null, customTitle: s.customTitle ?? null })) });
  });

  it("refuses what is not a page, naming what is wrong", () => {
    expect(() => pageAsSent(null)).toThrow(/no sessions/);
    expect(() => pageAsSent({ sessions: {}, nextCursor: null })).toThrow(/not a list/);
    expect(() => pageAsSent({ sessions: [{ ...row, version: "7" }], nextCursor: null })).toThrow(/version/);
    expect(() => pageAsSent({ sessions: [{ ...row, role: "admin" }], nextCursor: null })).toThrow(/role/);
    expect(() => pageAsSent({ sessions: [row], nextCursor: 3 })).toThrow(/cursor/);
  });
});
