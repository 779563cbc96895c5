import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../../shared/viewer-protocol";
import { acpStopReason, noWaits, sent, type WaitState, waitStep } from "./prompt-waits";

const author = { id: "u1", name: "Ann" };
const echo = (id: string): SessionEvent => ({ kind: "user_message", id, blocks: [{ type: "text", text: "hi" }], author, at: 1 });
const status = (state: "idle" | "active" | "offline" | "error", stopReason?: string): SessionEvent => ({ kind: "session_status", state, stopReason });
const queue = (ids: string[], flushed: boolean): SessionEvent => ({
  kind: "queue_state",
  flushed,
  entries: ids.map((id) => ({ id, blocks: [{ type: "text", text: "q" }], author, createdAt: 1, state: "queued" })),
});

/** Runs the events; returns every outcome in order. */
function run(start: WaitState, events: SessionEvent[]) {
  let state = start;
  const done = [];
  for (const e of events) {
    const r = waitStep(state, e);
    state = r.state;
    done.push(...r.done);
  }
  return { state, done };
}

describe("prompt waits", () => {
  it.each<[string, SessionEvent[], unknown[]]>([
    ["runs at once and ends with the room's stop reason", [echo("m"), status("active"), status("idle", "end_turn")], [{ id: "m", stopReason: "end_turn" }]],
    ["queued behind another turn: answered when its own turn ends, not the one before", [status("idle", "end_turn"), queue([], true), echo("m"), status("active"), status("idle", "cancelled")], [{ id: "m", stopReason: "cancelled" }]],
    ["offline is not an end", [echo("m"), status("offline")], []],
    ["removed from the queue without running → cancelled", [queue(["m"], false), queue([], false)], [{ id: "m", stopReason: "cancelled" }]],
    ["a turn that failed fails its prompt", [echo("m"), { kind: "turn_error", message: "model overloaded" }, status("idle", "end_turn")], [{ id: "m", error: "model overloaded" }]],
    ["another viewer's messages answer nothing", [echo("x"), status("idle", "end_turn")], []],
    ["an unknown stop reason reads as end_turn", [echo("m"), status("error", "error")], [{ id: "m", stopReason: "end_turn" }]],
  ])("%s", (_, events, expected) => {
    expect(run(sent(noWaits, "m"), events).done).toEqual(expected);
  });

  it("a turn error does not leak into the next turn", () => {
    const { state } = run(sent(noWaits, "a"), [echo("a"), { kind: "turn_error", message: "boom" }, status("idle", "end_turn")]);
    expect(run(sent(state, "b"), [echo("b"), status("idle", "end_turn")]).done).toEqual([{ id: "b", stopReason: "end_turn" }]);
  });

  it("maps stop reasons", () => {
    expect(acpStopReason("max_tokens")).toBe("max_tokens");
    expect(acpStopReason(null)).toBe("end_turn");
  });
});
