/** The turn's rules: reserve, confirm once, flush, Stop — as (state) → (state, effects). */
import { describe, expect, it } from "vitest";
import { entry, ready, reserved, running, step } from "../testing/room-fixtures";
import type { RoomState } from "./room-state";
import { cancelRequested, confirm, flush } from "./turn-rules";

describe("turn rules", () => {
  it.each<[string, RoomState, Partial<RoomState>, string[]]>([
    ["flush idle: the head is reserved and forwarded", ready({ queue: [entry("a"), entry("b")] }), { queue: [entry("b")] }, ["dispatch:prompt"]],
    ["flush merged: all of it as one prompt", ready({ queue: [entry("a"), entry("b")], settings: { queueDepth: 5, mergeQueued: true } }), { queue: [] }, ["dispatch:prompt"]],
    ["flush skips entries not plainly queued", ready({ queue: [entry("a", "indeterminate"), entry("b")] }), { queue: [entry("a", "indeterminate")] }, ["dispatch:prompt"]],
    ["flush while running: nothing", running({ queue: [entry("a")] }), {}, []],
    ["flush while offline: nothing", ready({ queue: [entry("a")], machineOnline: false }), {}, []],
    ["flush while the agent opens: nothing", ready({ queue: [entry("a")], agent: { phase: "opening", resumeFrom: null, startKind: null } }), {}, []],
    ["flush with an empty queue: nothing", ready(), {}, []],
  ])("%s", (_name, before, changed, kinds) => {
    const r = step(before, (out) => flush(out, "u2"));
    const { turn: _turn, ...after } = r.state;
    const { turn: _t, ...expected } = { ...before, ...changed };
    expect(after).toEqual(expected);
    expect(r.kinds).toEqual(kinds);
    if (kinds.length) expect(r.state.turn).toMatchObject({ phase: "reserved", fromQueue: true, actorId: "u2" });
  });

  it("confirm is once: a second confirmation of the same turn does nothing", () => {
    const first = step(reserved([entry("m1")], { droppedOffer: [entry("x")] }), (out) => confirm(out, "t1"));
    expect(first.result).toBe(true);
    expect(first.kinds).toEqual(["settle", "dropped_offer", "user_message", "session_status", "directory.status", "directory.activity", "directory.title"]);
    expect(first.state.droppedOffer).toEqual([]);
    const second = step(first.state, (out) => confirm(out, "t1"));
    expect(second).toMatchObject({ result: false, effects: [] });
  });

  it("a flushed turn confirmed: the queue is published as flushed and its author hears it started", () => {
    const r = step(ready({ turn: { phase: "reserved", turnId: "t1", messageId: "a", startedAt: 1, entries: [entry("a")], fromQueue: true, actorId: "u2", cancelledBy: null } }), (out) => confirm(out, "t1"));
    expect(r.kinds).toEqual(["settle", "queue_state", "user_message", "session_status", "directory.status", "directory.activity", "directory.title", "push"]);
  });

  it("a Stop during a reservation makes the confirmed turn `cancelling`", () => {
    const bob = { id: "u2", name: "Bob" };
    const s = reserved([entry("m1")]);
    const marked = { ...s, turn: cancelRequested(s.turn, bob) };
    expect(step(marked, (out) => confirm(out, "t1")).state.turn).toEqual({ phase: "cancelling", turnId: "t1", messageId: "m1", startedAt: 1, cancelledBy: bob });
  });

  it.each<[string, RoomState["turn"], RoomState["turn"]]>([
    ["idle stays idle", { phase: "idle" }, { phase: "idle" }],
    ["running → cancelling", { phase: "running", turnId: "t", messageId: "m", startedAt: 1 }, { phase: "cancelling", turnId: "t", messageId: "m", startedAt: 1, cancelledBy: { id: "u2", name: "Bob" } }],
    ["a second Stop keeps the first presser", { phase: "cancelling", turnId: "t", messageId: "m", startedAt: 1, cancelledBy: { id: "u1", name: "Ann" } }, { phase: "cancelling", turnId: "t", messageId: "m", startedAt: 1, cancelledBy: { id: "u1", name: "Ann" } }],
  ])("Stop: %s", (_name, turn, after) => {
    expect(cancelRequested(turn, { id: "u2", name: "Bob" })).toEqual(after);
  });
});
