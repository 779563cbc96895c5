import { describe, expect, it } from "vitest";
import { MAX_BATCH_EVENTS, MAX_ID_LENGTH } from "../../shared/limits";
import { DaemonFrame } from "../../shared/tunnel-protocol";
import { streamFrameOf } from "./stream-frame";

const update = (i: number) => ({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `chunk ${i}` }, sent: 1700000000000 + i });
const event = (i: number, sessionId = "s1") => ({ t: "session.update", sessionId, update: update(i) });
const batch = (count: number) => ({ type: "batch", events: Array.from({ length: count }, (_, i) => ({ n: i + 1, event: event(i) })) });
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** Valid stream frames: the fast check must take them, and give what zod gives. */
const VALID: [string, unknown][] = [
  ["a batch of chunks", batch(40)],
  ["the largest batch", batch(MAX_BATCH_EVENTS)],
  ["one event frame", { type: "event", n: 7, event: event(7) }],
  ["an update with only its kind", { type: "event", n: 1, event: { t: "session.update", sessionId: "s", update: { sessionUpdate: "x" } } }],
  ["the longest session id", { type: "event", n: 1, event: event(1, "i".repeat(MAX_ID_LENGTH)) }],
  ["two sessions in one batch", { type: "batch", events: [{ n: 1, event: event(1, "a") }, { n: 2, event: event(2, "b") }] }],
];

/** Each turns a valid batch (or event frame) into something the fast check must leave to zod or refuse as zod does. */
const MUTATIONS: [string, (f: any) => void][] = [
  ["n 0", (f) => void (f.events[0].n = 0)],
  ["n negative", (f) => void (f.events[0].n = -1)],
  ["n fractional", (f) => void (f.events[0].n = 1.5)],
  ["n a string", (f) => void (f.events[0].n = "1")],
  ["n beyond a safe integer", (f) => void (f.events[0].n = 2 ** 53)],
  ["n missing", (f) => void delete f.events[0].n],
  ["empty session id", (f) => void (f.events[1].event.sessionId = "")],
  ["session id too long", (f) => void (f.events[1].event.sessionId = "i".repeat(MAX_ID_LENGTH + 1))],
  ["session id a number", (f) => void (f.events[1].event.sessionId = 5)],
  ["update null", (f) => void (f.events[2].event.update = null)],
  ["update an array", (f) => void (f.events[2].event.update = [])],
  ["update a string", (f) => void (f.events[2].event.update = "x")],
  ["update without its kind", (f) => void (f.events[2].event.update = { content: {} })],
  ["update kind a number", (f) => void (f.events[2].event.update.sessionUpdate = 5)],
  ["another event kind", (f) => void (f.events[0].event = { t: "turn.started", sessionId: "s1", turnId: "t1" })],
  ["an unknown event kind", (f) => void (f.events[0].event.t = "session.shout")],
  ["an extra key on the frame", (f) => void (f.extra = 1)],
  ["an extra key on an item", (f) => void (f.events[0].extra = 1)],
  ["an extra key on an event", (f) => void (f.events[0].event.extra = 1)],
  ["a __proto__ key on an event", (f) => void Object.defineProperty(f.events[0].event, "__proto__", { value: 1, enumerable: true })],
  ["no events", (f) => void (f.events = [])],
  ["too many events", (f) => void (f.events = batch(MAX_BATCH_EVENTS + 1).events)],
  ["events not an array", (f) => void (f.events = { 0: f.events[0] })],
  ["an item null", (f) => void (f.events[0] = null)],
  ["an event missing", (f) => void delete f.events[0].event],
  ["type ack", (f) => void (f.type = "ack")],
];

describe("streamFrameOf: the tunnel's streaming frames checked without zod", () => {
  it.each(VALID)("takes %s, giving what DaemonFrame gives", (_what, frame) => {
    const fast = streamFrameOf(copy(frame));
    expect(fast).not.toBeNull();
    expect(fast).toEqual(DaemonFrame.parse(copy(frame)));
  });

  it.each(MUTATIONS)("%s: left to zod", (_what, mutate) => {
    const frame = copy(batch(3)) as any;
    mutate(frame);
    expect(streamFrameOf(frame)).toBeNull();
  });

  it("an event frame with a bad n or a bad event is left to zod", () => {
    for (const bad of [{ type: "event", n: 0, event: event(0) }, { type: "event", n: 1, event: { ...event(1), t: "turn.ended" } }, { type: "event", n: 1, event: event(1), x: 1 }]) {
      expect(streamFrameOf(copy(bad))).toBeNull();
    }
  });

  it("not an object: null", () => {
    for (const v of [null, 1, "batch", [], true]) expect(streamFrameOf(v)).toBeNull();
  });
});
