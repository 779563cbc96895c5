/** The dispatch-answer transition as a table: (state, why it was sent, answer) → (reply, state, effects). */
import { describe, expect, it } from "vitest";
import type { DispatchResult } from "../machine/dispatch-result";
import { entry, ready, reserved, running, step } from "../testing/room-fixtures";
import { onDispatchAnswer } from "./on-dispatch-answer";
import type { About } from "./room-effects";
import type { RoomState } from "./room-state";

const OK: DispatchResult = { ok: true };
const OFFLINE: DispatchResult = { ok: false, code: "MACHINE_OFFLINE", message: "offline" };
const prompt = (then: "send" | "flush" | "recover"): About => ({ kind: "prompt", turnId: "t1", then, entries: [entry("m1")] });
const confirmed = { turn: { phase: "running", turnId: "t1", messageId: "m1", startedAt: 1 }, statusKey: "active:t1", firstPrompt: "m1" } as const;

describe("on a dispatch's answer", () => {
  it.each<[string, RoomState, About, DispatchResult, unknown, Partial<RoomState>, string[]]>([
    ["a send's prompt taken: confirmed, acked", reserved([entry("m1")]), prompt("send"), OK, { ok: true, op: "message.send", ack: { queued: false } }, confirmed, ["settle", "user_message", "session_status", "directory.status", "directory.activity", "directory.title"]],
    ["a send's prompt refused: released, the error replied", reserved([entry("m1")]), prompt("send"), OFFLINE, { ok: false, code: "MACHINE_OFFLINE", message: "offline" }, { turn: { phase: "idle" } }, []],
    ["a flush refused: back at the head, unseen, with a notice", reserved([entry("m1")], { queue: [entry("q")] }), prompt("flush"), OFFLINE, null, { turn: { phase: "idle" }, queue: [entry("m1"), entry("q")] }, ["notice"]],
    ["a recovered reservation refused: requeued and answered as queued", reserved([entry("m1")]), prompt("recover"), OFFLINE, null, { turn: { phase: "idle" }, queue: [entry("m1")] }, ["settle", "queue_state", "notice"]],
    ["an answer for a turn the daemon already confirmed: nothing", running(), { kind: "prompt", turnId: "t1", then: "flush", entries: [entry("m1")] }, OK, null, {}, []],
    ["a steer refused: its entry as it was", running({ queue: [entry("a", "steering")] }), { kind: "steer", entryId: "a", was: "queued" }, OFFLINE, { ok: false, code: "MACHINE_OFFLINE", message: "offline" }, { queue: [entry("a")] }, ["queue_state"]],
    ["a steer taken", running({ queue: [entry("a", "steering")] }), { kind: "steer", entryId: "a", was: "queued" }, OK, { ok: true, op: "queue.steer", ack: { outcome: "steering" } }, {}, []],
    ["a config write mid-turn applies next turn", running(), { kind: "config", op: "config.set" }, OK, { ok: true, op: "config.set", ack: { outcome: "forwarded", appliesNextTurn: true } }, {}, []],
    ["a config write while idle", ready(), { kind: "config", op: "config.set" }, OK, { ok: true, op: "config.set", ack: { outcome: "forwarded", appliesNextTurn: false } }, {}, []],
    ["a mode write is acked as mode.set (the op it answers)", ready(), { kind: "config", op: "mode.set" }, OK, { ok: true, op: "mode.set", ack: { outcome: "forwarded", appliesNextTurn: false } }, {}, []],
    ["a model write is acked as model.set", ready(), { kind: "config", op: "model.set" }, OK, { ok: true, op: "model.set", ack: { outcome: "forwarded", appliesNextTurn: false } }, {}, []],
    ["an open the machine could not deliver: offline", ready(), { kind: "open" }, OFFLINE, null, { machineOnline: false, statusKey: "offline:" }, ["session_status", "directory.status"]],
    ["an open refused otherwise: nothing (the daemon's session.failed says why)", ready(), { kind: "open" }, { ok: false, code: "NOT_FOUND", message: "x" }, null, {}, []],
  ])("%s", (_name, before, about, res, reply, changed, kinds) => {
    const r = step(before, (out) => onDispatchAnswer(out, about, res));
    expect(r.result).toEqual(reply);
    expect(r.state).toEqual({ ...before, ...changed });
    expect(r.kinds).toEqual(kinds);
  });
});
