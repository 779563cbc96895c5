import { describe, expect, it } from "vitest";
import { fold, type FoldState, initialSessionState, rowsOf } from "./fold";
import type { ServerFrame, SessionEvent } from "./viewer-protocol";

let seq = 0;
const ev = (event: SessionEvent): ServerFrame => ({ type: "event", seq: ++seq, event });
const run = (frames: ServerFrame[], s: FoldState = initialSessionState()) => frames.reduce((acc, f) => fold(acc, f), s);
const schema = { type: "object", properties: { name: { type: "string" } } };

describe("fold: agent forms (elicitation)", () => {
  it("a request adds one elicitation row; its resolution marks it answered, with who and what", () => {
    let s = run([ev({ kind: "elicitation_request", requestId: "e1", message: "Project?", requestedSchema: schema, toolCallId: "toolu_1" })]);
    expect(rowsOf(s, "elicitation")).toEqual([
      { kind: "elicitation", id: "elicit:e1", requestId: "e1", message: "Project?", requestedSchema: schema, toolCallId: "toolu_1", resolved: null },
    ]);
    s = run([ev({ kind: "elicitation_resolved", requestId: "e1", action: "accept", content: { name: "demo" }, by: { id: "b", name: "Bo" } })], s);
    expect(rowsOf(s, "elicitation")[0]!.resolved).toEqual({ action: "accept", content: { name: "demo" }, by: { id: "b", name: "Bo" } });
  });
  it("a cancel by nobody; a resolution for an unknown form changes nothing", () => {
    let s = run([ev({ kind: "elicitation_request", requestId: "e2", message: "?", requestedSchema: schema })]);
    s = run([ev({ kind: "elicitation_resolved", requestId: "e2", action: "cancel", by: null })], s);
    expect(rowsOf(s, "elicitation")[0]!.resolved).toEqual({ action: "cancel", content: null, by: null });
    const same = run([ev({ kind: "elicitation_resolved", requestId: "zzz", action: "decline", by: null })], s);
    expect(same.rows).toBe(s.rows);
  });
});
