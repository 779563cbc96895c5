/** The viewer-op transition as tables: (state, op) → (reply, state, effects). */
import { describe, expect, it } from "vitest";
import type { ClientOp, Viewer } from "../../shared/viewer-protocol";
import { CONFIG, entry, form, NOW, permission, ready, reserved, running, step, type World } from "../testing/room-fixtures";
import { onViewerOp } from "./on-viewer-op";
import type { RoomState } from "./room-state";

const BOB: Viewer = { id: "u2", name: "Bob", role: "member" };
type MemberOp = Parameters<typeof onViewerOp>[2];
const op = (o: Record<string, unknown>) => ({ rid: "r1", ...o }) as MemberOp & ClientOp;
const send = (id: string) => op({ op: "message.send", id, blocks: [{ type: "text", text: id }] });
const queued = (id: string) => ({ ...entry(id), author: { id: "u2", name: "Bob" }, createdAt: NOW });
const offline = (s: RoomState): RoomState => ({ ...s, machineOnline: false });

describe("on a viewer op", () => {
  it.each<[string, RoomState, MemberOp, World, unknown, Partial<RoomState>, string[]]>([
    ["send while idle: the turn is reserved and its prompt forwarded; the answer replies", ready(), send("m1"), {}, null, { turn: { phase: "reserved", turnId: "id1", messageId: "m1", startedAt: NOW, entries: [queued("m1")], fromQueue: false, actorId: null, cancelledBy: null } }, ["dispatch:prompt"]],
    ["send while busy: queued", running(), send("m1"), {}, { ok: true, op: "message.send", ack: { queued: true, position: 1 } }, { queue: [queued("m1")] }, ["settle", "queue_state"]],
    ["send while the agent opens: queued", ready({ agent: { phase: "opening", resumeFrom: null, startKind: null } }), send("m1"), {}, { ok: true, op: "message.send", ack: { queued: true, position: 1 } }, { queue: [queued("m1")] }, ["settle", "queue_state"]],
    [
      "send to a dormant agent (its daemon restarted while no one was here): queued, and the agent opens",
      ready({ agent: { phase: "dormant", resumeFrom: "a1", startKind: null } }),
      send("m1"),
      {},
      { ok: true, op: "message.send", ack: { queued: true, position: 1 } },
      { queue: [queued("m1")], agent: { phase: "opening", resumeFrom: "a1", startKind: null }, statusKey: "starting:" },
      ["settle", "queue_state", "session_status", "directory.status", "dispatch:session.open"],
    ],
    ["send to a failed agent: refused", ready({ agent: { phase: "failed", message: "x", authMethods: null, resumeFrom: null, startKind: null } }), send("m1"), {}, { ok: false, code: "SESSION_NOT_READY", message: "the agent session failed: x" }, {}, []],
    ["send while offline and idle: refused", offline(ready()), send("m1"), {}, { ok: false, code: "MACHINE_OFFLINE", message: "the machine is offline; the message was not sent" }, {}, []],
    ["send while offline and busy: queued", offline(running()), send("m1"), {}, { ok: true, op: "message.send", ack: { queued: true, position: 1 } }, { queue: [queued("m1")] }, ["settle", "queue_state"]],
    ["send with the queue full: refused", running({ settings: { queueDepth: 1, mergeQueued: false }, queue: [entry("q")] }), send("m1"), {}, { ok: false, code: "QUEUE_FULL", message: "a message is already queued" }, {}, []],
    ["a settled send: the same answer, as a duplicate", running(), send("m1"), { settled: { m1: "sent" } }, { ok: true, op: "message.send", ack: { queued: true, duplicate: true } }, {}, []],
    ["cancel a queued entry", running({ queue: [entry("a"), entry("b")] }), op({ op: "queue.cancel", id: "a" }), {}, { ok: true, op: "queue.cancel", ack: { outcome: "cancelled", entry: entry("a") } }, { queue: [entry("b")] }, ["settle", "queue_state"]],
    ["cancel an entry out for steering: refused as steering", running({ queue: [entry("a", "steering")] }), op({ op: "queue.cancel", id: "a" }), {}, { ok: true, op: "queue.cancel", ack: { outcome: "steering" } }, {}, []],
    ["cancel an entry already sent", running(), op({ op: "queue.cancel", id: "a" }), { settled: { a: "sent" } }, { ok: true, op: "queue.cancel", ack: { outcome: "already_sent" } }, {}, []],
    ["move before another", running({ queue: [entry("a"), entry("b")] }), op({ op: "queue.move", id: "b", before: "a" }), {}, { ok: true, op: "queue.move", ack: { outcome: "moved" } }, { queue: [entry("b"), entry("a")] }, ["queue_state"]],
    ["steer while running: out for steering", running({ queue: [entry("a")] }), op({ op: "queue.steer", id: "a" }), {}, null, { queue: [entry("a", "steering")] }, ["queue_state", "dispatch:steer"]],
    ["steer while idle: refused for an ordinary entry", ready({ queue: [entry("a")] }), op({ op: "queue.steer", id: "a" }), {}, { ok: false, code: "NOT_SUPPORTED", message: "no running turn to steer into" }, {}, []],
    ["steer while idle of an unconfirmed entry: it runs next", ready({ queue: [entry("b"), entry("a", "indeterminate")] }), op({ op: "queue.steer", id: "a" }), {}, { ok: true, op: "queue.steer", ack: { outcome: "requeued" } }, { queue: [entry("a"), entry("b")] }, ["queue_state", "flush"]],
    ["steer with an agent that cannot", running({ agentConfig: { ...CONFIG, steering: false }, queue: [entry("a")] }), op({ op: "queue.steer", id: "a" }), {}, { ok: false, code: "NOT_SUPPORTED", message: "this agent does not support steering" }, {}, []],
    ["Stop while idle with nothing queued: nothing", ready(), op({ op: "turn.cancel" }), {}, { ok: true, op: "turn.cancel", ack: { outcome: "idle", dropped: [] } }, {}, []],
    ["Stop while running: the queue dropped and offered, the turn cancelling", running({ queue: [entry("a")] }), op({ op: "turn.cancel" }), {}, { ok: true, op: "turn.cancel", ack: { outcome: "cancelled", dropped: [entry("a")] } }, { queue: [], droppedOffer: [entry("a")], turn: { phase: "cancelling", turnId: "t1", messageId: "m0", startedAt: 1, cancelledBy: { id: "u2", name: "Bob" } } }, ["settle", "queue_state", "dispatch:cancel"]],
    ["Stop during a reservation: marked, still reserved", reserved([entry("m1")]), op({ op: "turn.cancel" }), {}, { ok: true, op: "turn.cancel", ack: { outcome: "cancelled", dropped: [] } }, { turn: { ...(reserved([entry("m1")]).turn as object), cancelledBy: { id: "u2", name: "Bob" } } as RoomState["turn"] }, ["queue_state", "dispatch:cancel"]],
    ["settings: saved and published", ready(), op({ op: "settings.set", queueDepth: 3 }), {}, { ok: true, op: "settings.set", ack: { outcome: "saved", settings: { queueDepth: 3, mergeQueued: false } } }, { settings: { queueDepth: 3, mergeQueued: false } }, ["config_state"]],
    ["a mode the agent lacks: refused", ready(), op({ op: "mode.set", modeId: "x" }), {}, { ok: false, code: "NOT_SUPPORTED", message: "the agent has no mode x" }, {}, []],
    ["an unknown permission: refused", running(), op({ op: "permission.respond", requestId: "p", optionId: null }), {}, { ok: false, code: "NOT_FOUND", message: "no such permission request" }, {}, []],
    ["a permission answered: resolved and forwarded", running(), op({ op: "permission.respond", requestId: "p", optionId: "ok" }), { requests: [permission("p", true, [{ optionId: "ok", name: "OK", kind: "allow_once" }])] }, { ok: true, op: "permission.respond", ack: { outcome: "accepted" } }, {}, ["request.resolve", "permission_resolved", "dispatch:permission.respond"]],
    ["a permission answered late", running(), op({ op: "permission.respond", requestId: "p", optionId: null }), { requests: [permission("p", false)] }, { ok: true, op: "permission.respond", ack: { outcome: "already_resolved" } }, {}, []],
    ["a form answered: resolved and forwarded", running(), op({ op: "elicitation.respond", requestId: "e", action: "decline" }), { requests: [form("e", true)] }, { ok: true, op: "elicitation.respond", ack: { outcome: "accepted" } }, {}, ["request.resolve", "elicitation_resolved", "dispatch:elicitation.respond"]],
    ["a permission's id answered as a form: unknown", running(), op({ op: "elicitation.respond", requestId: "p", action: "cancel" }), { requests: [permission("p", true)] }, { ok: false, code: "NOT_FOUND", message: "no such form request" }, {}, []],
    ["a form answered late", running(), op({ op: "elicitation.respond", requestId: "e", action: "cancel" }), { requests: [form("e", false)] }, { ok: true, op: "elicitation.respond", ack: { outcome: "already_resolved" } }, {}, []],
  ])("%s", (_name, before, o, world, reply, changed, kinds) => {
    const r = step(before, (out) => onViewerOp(out, BOB, o), world);
    expect(r.result).toEqual(reply);
    expect(r.state).toEqual({ ...before, ...changed });
    expect(r.kinds).toEqual(kinds);
  });

  it("a re-queue of an offered entry takes it out of the offer", () => {
    const r = step(running({ droppedOffer: [entry("a")] }), (out) => onViewerOp(out, BOB, send("rq:a")));
    expect(r.state.droppedOffer).toEqual([]);
    expect(r.kinds).toEqual(["settle", "queue_state", "dropped_offer"]);
  });
});
