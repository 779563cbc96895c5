/** Turns a raw tunnel message, once the socket's gate has charged it, into a daemon frame or what to answer instead (never throws). */
import { assertNever } from "../../shared/assert-never";
import { MAX_TUNNEL_FRAME_BYTES } from "../../shared/limits";
import { DaemonFrame } from "../../shared/tunnel-protocol";
import { ErrorCode } from "../../shared/viewer-protocol";
import { TunnelIntake } from "./machine-rules";
import { streamFrameOf } from "./stream-frame";

export type TunnelRead =
  | { kind: "frame"; frame: DaemonFrame; bytes: number }
  /** Answered with an error frame; the socket stays. */
  | { kind: "refuse"; code: ErrorCode; message: string }
  /** Closed "try again later": the daemon reconnects and resends what is unacked. */
  | { kind: "back_later"; code: ErrorCode; why: string };

/** `admitted`: the gate's verdict on the message's size and rate; `helloDone`: this socket already said hello. */
export function parseDaemonFrame(message: string | ArrayBuffer, admitted: TunnelIntake, helloDone: boolean): TunnelRead {
  switch (admitted) {
    case TunnelIntake.accept:
      break;
    case TunnelIntake.tooLarge:
      return { kind: "refuse", code: ErrorCode.FRAME_TOO_LARGE, message: `frame exceeds ${MAX_TUNNEL_FRAME_BYTES} bytes` };
    case TunnelIntake.limited:
      return { kind: "back_later", code: ErrorCode.RATE_LIMITED, why: "tunnel rate limit" };
    default:
      return assertNever(admitted);
  }
  if (typeof message !== "string") return { kind: "refuse", code: ErrorCode.FRAME_TOO_LARGE, message: "frame too large or binary" };
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch {
    return { kind: "refuse", code: ErrorCode.BAD_FRAME, message: "frame is not JSON" };
  }
  // A streaming agent's chunks take the fast check; every other frame (and any the fast check doubts) zod's.
  const stream = streamFrameOf(json);
  const parsed = stream ? { success: true as const, data: stream } : DaemonFrame.safeParse(json);
  if (!parsed.success) return { kind: "refuse", code: ErrorCode.BAD_FRAME, message: parsed.error.issues[0]?.message ?? "bad frame" };
  if (parsed.data.type !== "hello" && !helloDone) return { kind: "refuse", code: ErrorCode.BAD_FRAME, message: "hello first" };
  return { kind: "frame", frame: parsed.data, bytes: message.length };
}
