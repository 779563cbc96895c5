/** The daemon-event transition as tables: (state, event) → (state, effects). */
import { describe, expect, it } from "vitest";
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import { CONFIG, entry, form, NOW, permission, ready, reserved, running, SESSION, step, type World } from "../testing/room-fixtures";
import { onDaemonEvent } from "./on-daemon-event";
import { initialRoomState, type RoomState } from "./room-state";

const ev = <T extends DaemonEvent["t"]>(t: T, rest: Omit<Extract<DaemonEvent, { t: T }>, "t" | "sessionId">) => ({ t, sessionId: "s1", ...rest }) as Extract<DaemonEvent, { t: T }>;
const opening = (patch: Partial<RoomState> = {}): RoomState => ({ ...initialRoomState(SESSION), statusKey: "starting:", ...patch });
const cancelling = running({ turn: { phase: "cancelling", turnId: "t1", messageId: "m0", startedAt: 1, cancelledBy: { id: "u2", name: "Bob" } } });

describe("on a daemon event", () => {
  it.each<[string, RoomState, DaemonEvent, Partial<RoomState>, string[]]>([
    ["ready: opening → ready, config, status, flush", opening(), ev("session.ready", { agentSessionId: "a1", config: CONFIG, resumed: false }), { agent: { phase: "ready", agentSessionId: "a1" }, agentConfig: CONFIG, statusKey: "idle:" }, ["config_state", "session_status", "directory.status", "flush"]],
    [
      "ready after an import: the notice first",
      opening({ agent: { phase: "opening", resumeFrom: "x", startKind: "import" } }),
      ev("session.ready", { agentSessionId: "x", config: CONFIG, resumed: true }),
      { agent: { phase: "ready", agentSessionId: "x" }, agentConfig: CONFIG, statusKey: "idle:" },
      ["notice", "config_state", "session_status", "directory.status", "flush"],
    ],
    [
      "failed while opening keeps what to load",
      opening({ agent: { phase: "opening", resumeFrom: "a0", startKind: null } }),
      ev("session.failed", { message: "no", authMethods: [] }),
      { agent: { phase: "failed", message: "no", authMethods: null, resumeFrom: "a0", startKind: null }, statusKey: "error:" },
      ["session_status", "directory.status"],
    ],
    ["failed while ready: the open session is what to load next", ready(), ev("session.failed", { message: "gone" }), { agent: { phase: "failed", message: "gone", authMethods: null, resumeFrom: "a1", startKind: null }, statusKey: "error:" }, ["session_status", "directory.status"]],
    ["turn.started confirms a reservation", reserved([entry("m1")]), ev("turn.started", { turnId: "t1" }), { turn: { phase: "running", turnId: "t1", messageId: "m1", startedAt: 1 }, statusKey: "active:t1", firstPrompt: "m1" }, ["settle", "user_message", "session_status", "directory.status", "directory.activity", "directory.title"]],
    ["turn.started of another turn: nothing", reserved([entry("m1")]), ev("turn.started", { turnId: "t9" }), {}, []],
    ["turn.started while running: nothing (already confirmed)", running(), ev("turn.started", { turnId: "t1" }), {}, []],
    ["turn.ended: idle, push, status with its reason, activity, flush", running(), ev("turn.ended", { turnId: "t1", stopReason: "end_turn" }), { turn: { phase: "idle" }, statusKey: "idle:" }, ["push.turnEnded", "session_status", "directory.status", "directory.activity", "flush"]],
    ["turn.ended with an error", running(), ev("turn.ended", { turnId: "t1", stopReason: "refusal", error: "boom" }), { turn: { phase: "idle" }, statusKey: "idle:" }, ["turn_error", "push", "session_status", "directory.status", "directory.activity", "flush"]],
    ["turn.ended of another turn: nothing", running(), ev("turn.ended", { turnId: "t9", stopReason: "end_turn" }), {}, []],
    ["turn.ended while idle: nothing", ready(), ev("turn.ended", { turnId: "t1", stopReason: "end_turn" }), {}, []],
    ["command.failed of a prompt ends the turn", running(), ev("command.failed", { command: "prompt", message: "x" }), { turn: { phase: "idle" }, statusKey: "idle:" }, ["notice", "push", "session_status", "directory.status", "flush"]],
    ["command.failed of a prompt while idle: only the notice", ready(), ev("command.failed", { command: "prompt", message: "x" }), {}, ["notice"]],
    ["config.state replaces the config", ready(), ev("config.state", { config: { ...CONFIG, steering: false } }), { agentConfig: { ...CONFIG, steering: false } }, ["config_state"]],
    ["an agent title goes to the directory once", ready(), ev("session.update", { update: { sessionUpdate: "session_info_update", title: "Fix" } }), { agentTitle: "Fix" }, ["acp", "directory.title"]],
    ["the same title again: only the relay", ready({ agentTitle: "Fix" }), ev("session.update", { update: { sessionUpdate: "session_info_update", title: "Fix" } }), {}, ["acp"]],
    ["a form opens (and pushes)", running(), ev("elicitation.request", { requestId: "e1", message: "?", requestedSchema: {} }), {}, ["request.add", "elicitation_request", "push"]],
    ["an unknown form withdrawn: nothing", running(), ev("elicitation.cancelled", { requestId: "e1" }), {}, []],
    ["steer injected: the entry leaves with its echo", running({ queue: [entry("q1", "steering")] }), ev("steer.result", { entryId: "q1", outcome: "injected" }), { queue: [] }, ["settle", "queue_state", "user_message", "steer_result"]],
    ["steer refused: queued again, flush", running({ queue: [entry("q1", "steering")] }), ev("steer.result", { entryId: "q1", outcome: "failed" }), { queue: [entry("q1")] }, ["queue_state", "steer_result", "flush"]],
    ["steer indeterminate: marked", running({ queue: [entry("q1", "steering")] }), ev("steer.result", { entryId: "q1", outcome: "indeterminate" }), { queue: [entry("q1", "indeterminate")] }, ["queue_state", "steer_result"]],
  ])("%s", (_name, before, event, changed, kinds) => {
    const r = step(before, (out) => onDaemonEvent(out, event));
    expect(r.state).toEqual({ ...before, ...changed });
    expect(r.kinds).toEqual(kinds);
  });

  it.each<[string, World, DaemonEvent, string[]]>([
    ["a form heard again: not stored or pushed twice", { requests: [form("e1", true)] }, ev("elicitation.request", { requestId: "e1", message: "?", requestedSchema: {} }), ["elicitation_request"]],
    ["a form withdrawn", { requests: [form("e1", true)] }, ev("elicitation.cancelled", { requestId: "e1" }), ["request.resolve", "elicitation_resolved"]],
    ["a form already answered, withdrawn: nothing", { requests: [form("e1", false)] }, ev("elicitation.cancelled", { requestId: "e1" }), []],
    ["a permission withdrawn", { requests: [permission("p1", true)] }, ev("permission.cancelled", { requestId: "p1" }), ["request.resolve", "permission_resolved"]],
    ["a form's id withdrawn as a permission: nothing", { requests: [form("p1", true)] }, ev("permission.cancelled", { requestId: "p1" }), []],
  ])("with requests stored: %s", (_name, world, event, kinds) => {
    const before = running();
    const r = step(before, (out) => onDaemonEvent(out, event), world);
    expect(r.state).toEqual(before);
    expect(r.kinds).toEqual(kinds);
  });

  it("a turn stopped by someone ends as theirs: their push is skipped by actor, `stoppedBy` names them", () => {
    const r = step(cancelling, (out) => onDaemonEvent(out, ev("turn.ended", { turnId: "t1", stopReason: "cancelled" })));
    expect(r.effects).toContainEqual({ t: "push.turnEnded", actorId: "u2", stoppedBy: "Bob" });
  });

  it("a turn's snapshots (issue 28 #2): the start names the running turn's message, the end (after the turn) names none; the state is untouched", () => {
    const tree = "c".repeat(40);
    const start = step(running(), (out) => onDaemonEvent(out, ev("turn.tree", { turnId: "t1", edge: "start", tree })));
    expect(start.state).toEqual(running());
    expect(start.effects).toEqual([{ t: "turn.tree", turnId: "t1", messageId: "m0", edge: "start", tree }]);
    const end = step(ready(), (out) => onDaemonEvent(out, ev("turn.tree", { turnId: "t1", edge: "end", tree })));
    expect(end.effects).toEqual([{ t: "turn.tree", turnId: "t1", messageId: null, edge: "end", tree }]);
    // Another turn's start (late, after a reset) is not pinned on the running one's message.
    expect(step(running(), (out) => onDaemonEvent(out, ev("turn.tree", { turnId: "t9", edge: "start", tree }))).effects).toEqual([{ t: "turn.tree", turnId: "t9", messageId: null, edge: "start", tree }]);
  });

  it("turn.ended cancels the open requests (permission table and forms)", () => {
    const r = step(running(), (out) => onDaemonEvent(out, ev("turn.ended", { turnId: "t1", stopReason: "end_turn" })), { requests: [permission("p1", true), form("e1", true), form("e0", false)] });
    expect(r.kinds).toEqual(["push.turnEnded", "request.resolve", "permission_resolved", "request.resolve", "elicitation_resolved", "session_status", "directory.status", "directory.activity", "flush"]);
  });

  it("a permission request heard again is not pushed or stored twice", () => {
    const e = ev("permission.request", { requestId: "p1", toolCall: { title: "rm" }, options: [] });
    expect(step(running(), (out) => onDaemonEvent(out, e)).kinds).toEqual(["request.add", "permission_request", "push"]);
    const again = step(running(), (out) => onDaemonEvent(out, e), { requests: [permission("p1", true)] });
    expect(again.kinds).toEqual(["permission_request"]);
  });

  it("an imported user message gets a new id and the clock's time", () => {
    const r = step(ready(), (out) => onDaemonEvent(out, ev("history.user", { blocks: [{ type: "text", text: "hi" }] })));
    expect(r.effects).toEqual([{ t: "emit", event: { kind: "user_message", id: "id1", blocks: [{ type: "text", text: "hi" }], author: expect.anything(), at: NOW } }]);
  });
});

describe("the states the type rules out", () => {
  it("cannot be written", () => {
    const s = ready();
    // @ts-expect-error a reservation carries its messages
    const noEntries: RoomState = { ...s, turn: { phase: "reserved", turnId: "t", messageId: "m", startedAt: 1, fromQueue: false, actorId: null, cancelledBy: null } };
    // @ts-expect-error a turn being cancelled says who pressed Stop
    const noCanceller: RoomState = { ...s, turn: { phase: "cancelling", turnId: "t", messageId: "m", startedAt: 1 } };
    // @ts-expect-error an idle room has no turn id
    const idleWithTurn: RoomState = { ...s, turn: { phase: "idle", turnId: "t" } };
    // @ts-expect-error a ready agent has nothing left to resume
    const readyResuming: RoomState = { ...s, agent: { phase: "ready", agentSessionId: "a", resumeFrom: "b" } };
    // @ts-expect-error a failed agent says why
    const failedSilently: RoomState = { ...s, agent: { phase: "failed", authMethods: null, resumeFrom: null, startKind: null } };
    expect([noEntries, noCanceller, idleWithTurn, readyResuming, failedSilently]).toHaveLength(5);
  });
});
