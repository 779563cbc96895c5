import { describe, expect, it } from "vitest";
import type { MachineSummary } from "../../../shared/api";
import { appendPage, pastSessionRow, pastSessionsAvailability } from "./past-sessions-logic";

const caps = { loadSession: true, resume: false, modes: false, configOptions: false, steering: false, images: false };
const machine = (online: boolean): MachineSummary => ({ id: "m", name: "laptop", online, hostname: null, agents: [], roots: ["/w"], lastSeenAt: null });

describe("past sessions", () => {
  it("is offered only with an online machine, an agent with session/list and a directory; else says why", () => {
    const lister = { id: "claude", label: "Claude Code", capabilities: { ...caps, list: true } };
    const gemini = { id: "gemini", label: "Gemini CLI", capabilities: caps };
    expect(pastSessionsAvailability(machine(true), lister, "/w")).toEqual({ ok: true });
    expect(pastSessionsAvailability(machine(true), gemini, "/w")).toEqual({ ok: false, reason: "Gemini CLI does not list its past sessions." });
    expect(pastSessionsAvailability(machine(false), lister, "/w")).toEqual({ ok: false, reason: "laptop is offline." });
    expect(pastSessionsAvailability(machine(true), lister, " ")).toMatchObject({ ok: false });
    expect(pastSessionsAvailability(undefined, lister, "/w")).toMatchObject({ ok: false });
  });

  it("rows read the agent's title and a relative time; untitled and undated ones still read", () => {
    const now = Date.parse("2026-12-04T12:00:00Z");
    expect(pastSessionRow({ agentSessionId: "abc", title: "Fix it", updatedAt: "2026-12-04T09:00:00Z", cwd: "/w" }, now)).toEqual({ title: "Fix it", updated: "3 hr. ago" });
    expect(pastSessionRow({ agentSessionId: "0123456789", title: null, updatedAt: null, cwd: "/w" }, now)).toEqual({ title: "Untitled session 01234567", updated: "" });
  });

  it("a page appends without repeating ids already listed", () => {
    const s = (id: string) => ({ agentSessionId: id, title: id, updatedAt: null, cwd: "/w" });
    expect(appendPage([s("a"), s("b")], [s("b"), s("c")]).map((x) => x.agentSessionId)).toEqual(["a", "b", "c"]);
  });
});
