import { describe, expect, it } from "vitest";
import { moveActive } from "./picker-keys";
import { applyCommand, filterCommands, slashQuery } from "./slash-logic";

const cmds = [
  { name: "review", description: "Review the current diff" },
  { name: "init", description: "Create an AGENTS.md" },
  { name: "/compact", description: "Summarise the conversation", hint: "what to keep" },
  { name: "preview", description: "Open a preview" },
];

describe("slashQuery", () => {
  it("is open while the caret is in a leading /word", () => {
    expect(slashQuery("/", 1)).toBe("");
    expect(slashQuery("/rev", 4)).toBe("rev");
    expect(slashQuery("/rev", 2)).toBe("r");
  });
  it("is closed after the first word, without a leading slash, or with the caret before it", () => {
    expect(slashQuery("/review now", 11)).toBeNull();
    expect(slashQuery("/review ", 8)).toBeNull();
    expect(slashQuery("hello /rev", 10)).toBeNull();
    expect(slashQuery(" /rev", 5)).toBeNull();
    expect(slashQuery("/rev", 0)).toBeNull();
    expect(slashQuery("", 0)).toBeNull();
  });
});

describe("filterCommands", () => {
  it("lists everything for an empty query, in the agent's order", () => {
    expect(filterCommands(cmds, "").map((c) => c.name)).toEqual(["review", "init", "/compact", "preview"]);
  });
  it("name prefix first, then name contains, then description; case-insensitive; a leading / in a name is ignored", () => {
    expect(filterCommands(cmds, "REV").map((c) => c.name)).toEqual(["review", "preview"]);
    expect(filterCommands(cmds, "comp").map((c) => c.name)).toEqual(["/compact"]);
    expect(filterCommands(cmds, "agents").map((c) => c.name)).toEqual(["init"]);
    expect(filterCommands(cmds, "zzz")).toEqual([]);
  });
});

describe("applyCommand", () => {
  it("writes /name and a space, the caret after it", () => {
    expect(applyCommand("/re", cmds[0]!)).toEqual({ text: "/review ", selection: [8, 8] });
  });
  it("adds the input hint selected, so typing replaces it", () => {
    expect(applyCommand("/", cmds[2]!)).toEqual({ text: "/compact what to keep", selection: [9, 21] });
  });
  it("keeps what followed the first word", () => {
    expect(applyCommand("/rv the tests", cmds[0]!)).toEqual({ text: "/review the tests", selection: [8, 8] });
    expect(applyCommand("/c keep the plan", cmds[2]!).text).toBe("/compact keep the plan");
  });
});

describe("moveActive", () => {
  it("wraps both ways and starts at the first / last", () => {
    expect(moveActive(-1, 1, 3)).toBe(0);
    expect(moveActive(-1, -1, 3)).toBe(2);
    expect(moveActive(2, 1, 3)).toBe(0);
    expect(moveActive(0, -1, 3)).toBe(2);
    expect(moveActive(0, 1, 0)).toBe(-1);
  });
});
