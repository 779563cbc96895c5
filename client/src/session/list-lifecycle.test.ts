import { describe, expect, it } from "vitest";
import { MAX_SESSION_TITLE } from "../../../shared/session-list-rules";
import { item, NOW } from "./list-fixtures";
import { archiveAsksFirst, canDelete, canEdit, checkTitle, offersAgentDelete } from "./list-lifecycle";

describe("list lifecycle rules", () => {
  it("a title is trimmed, never empty, at most MAX_SESSION_TITLE characters", () => {
    expect(checkTitle("  Fix the tests  ")).toEqual({ title: "Fix the tests" });
    expect(checkTitle("   ")).toEqual({ error: "A title cannot be empty." });
    expect(checkTitle("x".repeat(MAX_SESSION_TITLE))).toEqual({ title: "x".repeat(MAX_SESSION_TITLE) });
    expect(checkTitle("x".repeat(500))).toEqual({ error: `A title is at most ${MAX_SESSION_TITLE} characters (this one has 500).` });
  });

  it("owners and members rename and archive; only the owner deletes", () => {
    expect([canEdit("owner"), canEdit("member"), canEdit("viewer")]).toEqual([true, true, false]);
    expect([canDelete("owner"), canDelete("member"), canDelete("viewer")]).toEqual([true, false, false]);
  });

  it("archiving asks first while a turn runs or waits for someone, not when idle or already archived", () => {
    expect(archiveAsksFirst(item("a", { status: "active" }))).toBe(true);
    expect(archiveAsksFirst(item("a", { status: "idle", needsYou: true }))).toBe(true);
    expect(archiveAsksFirst(item("a", { status: "idle" }))).toBe(false);
    expect(archiveAsksFirst(item("a", { status: "offline", needsYou: true }))).toBe(false);
    expect(archiveAsksFirst(item("a", { status: "active", archivedAt: NOW }))).toBe(false);
  });

  it("the agent's own session can be deleted where its agent on its machine advertises session/delete", () => {
    const caps = { loadSession: true, resume: false, modes: false, configOptions: false, steering: false, images: false };
    const machines = [
      { id: "m1", agents: [ { id: "claude", label: "Claude Code", capabilities: { ...caps, delete: true } }, { id: "gemini", label: "Gemini", capabilities: caps } ] },
      { id: "m2", agents: [ { id: "claude", label: "Claude Code", capabilities: { ...caps, delete: false } } ] },
    ];
    const s = (agentId: string, machineId: string) => item("a", { agentId, machineId });
    expect(offersAgentDelete(s("claude", "m1"), machines)).toBe(true);
    expect(offersAgentDelete(s("gemini", "m1"), machines)).toBe(false); // no delete advertised (older daemons omit it)
    expect(offersAgentDelete(s("claude", "m2"), machines)).toBe(false); // this machine's claude said no
    expect(offersAgentDelete(s("codex", "m1"), machines)).toBe(false); // not on that machine
    expect(offersAgentDelete(s("claude", "gone"), machines)).toBe(false); // a revoked machine
    expect(offersAgentDelete(s("claude", "m1"), undefined)).toBe(false); // machines not loaded yet
  });
});
