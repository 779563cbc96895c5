import { describe, expect, it } from "vitest";
import { closeElicitation, judgeAnswer, openElicitation } from "./elicitations";

const schema = { type: "object", properties: { name: { type: "string", minLength: 1 } }, required: ["name"] };

describe("room elicitation rule", () => {
  it("the first valid answer wins; a later one is told it is resolved", () => {
    let open = openElicitation({}, "e1", schema);
    expect(judgeAnswer(open, true, "e1", "accept", { name: "ada" })).toEqual({ kind: "accept", action: "accept", content: { name: "ada" } });
    open = closeElicitation(open, "e1");
    expect(judgeAnswer(open, true, "e1", "decline", undefined)).toEqual({ kind: "resolved" });
  });
  it("an invalid accept is refused and leaves the form open for a valid one", () => {
    const open = openElicitation({}, "e1", schema);
    expect(judgeAnswer(open, true, "e1", "accept", { name: "" })).toEqual({ kind: "invalid", message: "name: cannot be empty" });
    expect(judgeAnswer(open, true, "e1", "accept", undefined)).toEqual({ kind: "invalid", message: "name is required" });
    expect(judgeAnswer(open, true, "e1", "decline", { name: "ignored" })).toEqual({ kind: "accept", action: "decline" });
  });
  it("an id that never existed is unknown", () => {
    expect(judgeAnswer({}, false, "nope", "cancel", undefined)).toEqual({ kind: "unknown" });
  });
  it("open / close are idempotent and keep identity when nothing changes", () => {
    const open = openElicitation({}, "e1", schema);
    expect(openElicitation(open, "e1", {})).toBe(open);
    expect(closeElicitation(open, "x")).toBe(open);
    expect(closeElicitation(open, "e1")).toEqual({});
  });
});
