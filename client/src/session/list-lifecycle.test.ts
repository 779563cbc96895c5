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

  it("the agent's own session can be deleted for the agents that support it", () => {
    expect(offersAgentDelete(item("a", { agentId: "claude" }))).toBe(true);
    expect(offersAgentDelete(item("a", { agentId: "demo" }))).toBe(false);
  });
});
