import { describe, expect, it } from "vitest";
import { agentTitleOf, TITLE_MAX_CHARS } from "./session-title";

describe("agentTitleOf", () => {
  it("reads the title of a session_info_update, collapsed to one line and cut", () => {
    expect(agentTitleOf({ sessionUpdate: "session_info_update", title: "  Fix\n the   build " })).toBe("Fix the build");
    expect(agentTitleOf({ sessionUpdate: "session_info_update", title: "x".repeat(500) })).toHaveLength(TITLE_MAX_CHARS);
  });

  it("is null for an update without a usable title", () => {
    expect(agentTitleOf({ sessionUpdate: "session_info_update" })).toBeNull();
    expect(agentTitleOf({ sessionUpdate: "session_info_update", title: null })).toBeNull();
    expect(agentTitleOf({ sessionUpdate: "session_info_update", title: "   " })).toBeNull();
    expect(agentTitleOf({ sessionUpdate: "session_info_update", title: 42 })).toBeNull();
  });

  it("is null for every other kind, even one carrying a title field", () => {
    expect(agentTitleOf({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } })).toBeNull();
    expect(agentTitleOf({ sessionUpdate: "tool_call", title: "Read file" })).toBeNull();
  });
});
