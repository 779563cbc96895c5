import { describe, expect, it } from "vitest";
import { ErrorCode } from "../../shared/viewer-protocol";
import { TunnelIntake } from "./machine-rules";
import { parseDaemonFrame } from "./parse-daemon-frame";

const ack = JSON.stringify({ type: "ack", n: 3 });

describe("parseDaemonFrame", () => {
  it("a frame past the gate, after hello, is read with its size", () => {
    expect(parseDaemonFrame(ack, TunnelIntake.accept, true)).toEqual({ kind: "frame", frame: { type: "ack", n: 3 }, bytes: ack.length });
  });

  it("a batch of chunks (the fast check's frame) is read as zod reads it; after a change zod refuses, it is refused", () => {
    const frame = { type: "batch", events: [1, 2].map((n) => ({ n, event: { t: "session.update", sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `c${n}` } } } })) };
    const text = JSON.stringify(frame);
    expect(parseDaemonFrame(text, TunnelIntake.accept, true)).toEqual({ kind: "frame", frame, bytes: text.length });
    const bad = JSON.stringify({ ...frame, events: [{ ...frame.events[0]!, n: 0 }] });
    expect(parseDaemonFrame(bad, TunnelIntake.accept, true)).toMatchObject({ kind: "refuse", code: ErrorCode.BAD_FRAME });
  });

  it.each([
    ["over the size bound", ack, TunnelIntake.tooLarge, true, { kind: "refuse", code: ErrorCode.FRAME_TOO_LARGE }],
    ["over the rate: closed, try again later", ack, TunnelIntake.limited, true, { kind: "back_later", code: ErrorCode.RATE_LIMITED }],
    ["binary", new ArrayBuffer(4), TunnelIntake.accept, true, { kind: "refuse", code: ErrorCode.FRAME_TOO_LARGE }],
    ["not JSON", "{nope", TunnelIntake.accept, true, { kind: "refuse", code: ErrorCode.BAD_FRAME, message: "frame is not JSON" }],
    ["not a daemon frame", JSON.stringify({ type: "shout" }), TunnelIntake.accept, true, { kind: "refuse", code: ErrorCode.BAD_FRAME }],
    ["anything before hello", ack, TunnelIntake.accept, false, { kind: "refuse", code: ErrorCode.BAD_FRAME, message: "hello first" }],
  ] as const)("%s", (_what, message, admitted, helloDone, expected) => {
    expect(parseDaemonFrame(message, admitted, helloDone)).toMatchObject(expected);
  });
});
