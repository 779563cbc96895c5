/** Turns a raw viewer WebSocket message into a ClientOp or a precise error (never throws). */
import { MAX_VIEWER_FRAME_BYTES } from "../../shared/limits";
import { CLIENT_OP_NAMES, ClientOp, ErrorCode } from "../../shared/viewer-protocol";

export type ParsedFrame =
  | { ok: true; op: ClientOp }
  | { ok: false; rid: string | null; code: ErrorCode; message: string };

export function parseViewerFrame(raw: string | ArrayBuffer): ParsedFrame {
  if (typeof raw !== "string") return { ok: false, rid: null, code: ErrorCode.BAD_FRAME, message: "binary frames are not accepted" };
  if (raw.length > MAX_VIEWER_FRAME_BYTES)
    return { ok: false, rid: null, code: ErrorCode.FRAME_TOO_LARGE, message: `frame exceeds ${MAX_VIEWER_FRAME_BYTES} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, rid: null, code: ErrorCode.BAD_FRAME, message: "frame is not JSON" };
  }
  const obj = json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  const rid = obj && typeof obj.rid === "string" && obj.rid.length <= 128 ? obj.rid : null;
  if (!obj || typeof obj.op !== "string")
    return { ok: false, rid, code: ErrorCode.BAD_FRAME, message: "frame must be an object with an op" };
  if (!(CLIENT_OP_NAMES as readonly string[]).includes(obj.op))
    return { ok: false, rid, code: ErrorCode.UNKNOWN_OP, message: `unknown op ${JSON.stringify(obj.op.slice(0, 64))}` };
  const parsed = ClientOp.safeParse(obj);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const tooLarge = issues.some((i) => i.message === "PROMPT_TOO_LARGE");
    const empty = issues.some((i) => i.message === "EMPTY_PROMPT");
    if (tooLarge) return { ok: false, rid, code: ErrorCode.PROMPT_TOO_LARGE, message: "prompt exceeds the size limit" };
    if (empty) return { ok: false, rid, code: ErrorCode.EMPTY_PROMPT, message: "prompt is empty" };
    const first = issues[0];
    return {
      ok: false,
      rid,
      code: ErrorCode.BAD_FRAME,
      message: `invalid ${obj.op}: ${first ? `${first.path.join(".") || "frame"}: ${first.message}` : "schema mismatch"}`,
    };
  }
  return { ok: true, op: parsed.data };
}
