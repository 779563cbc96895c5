/**
 * The tunnel's commonest frame checked without zod: a `batch` (or one `event`) of `session.update` events, the
 * shape a streaming agent's chunks take. It accepts exactly what DaemonFrame (shared/tunnel-protocol.ts) accepts
 * for that shape and no key beyond it — anything else (another event kind, an extra key, a bad value) returns
 * null and the full parse decides, so its error messages stay zod's. Why: zod runs without its compiled fast
 * path in workerd (no `new Function`), and this frame is most of the Machine's parsing (bench/RESULTS.md,
 * issue 31 #3). Agreement with DaemonFrame is tested on valid and mutated frames (stream-frame.test.ts).
 */
import { MAX_BATCH_EVENTS, MAX_ID_LENGTH } from "../../shared/limits";
import type { DaemonEvent, DaemonFrame } from "../../shared/tunnel-protocol";

type StreamFrame = Extract<DaemonFrame, { type: "batch" | "event" }>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Exactly these own keys (JSON.parse gives plain objects: no inherited ones to worry about). */
function hasOnlyKeys(o: Record<string, unknown>, keys: readonly string[]): boolean {
  let count = 0;
  for (const k in o) {
    if (!keys.includes(k)) return false;
    count++;
  }
  return count === keys.length;
}

const FRAME_KEYS = ["type", "events"] as const;
const EVENT_FRAME_KEYS = ["type", "n", "event"] as const;
const ITEM_KEYS = ["n", "event"] as const;
const UPDATE_EVENT_KEYS = ["t", "sessionId", "update"] as const;

const isN = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 1;

function isSessionUpdate(e: unknown): e is Extract<DaemonEvent, { t: "session.update" }> {
  if (!isRecord(e) || e["t"] !== "session.update" || !hasOnlyKeys(e, UPDATE_EVENT_KEYS)) return false;
  const id = e["sessionId"];
  const update = e["update"];
  return typeof id === "string" && id.length >= 1 && id.length <= MAX_ID_LENGTH && isRecord(update) && typeof update["sessionUpdate"] === "string";
}

/** The frame when it is a batch or event of session updates that DaemonFrame accepts as is; else null. */
export function streamFrameOf(json: unknown): StreamFrame | null {
  if (!isRecord(json)) return null;
  if (json["type"] === "event") {
    if (!hasOnlyKeys(json, EVENT_FRAME_KEYS) || !isN(json["n"]) || !isSessionUpdate(json["event"])) return null;
    return { type: "event", n: json["n"], event: json["event"] };
  }
  if (json["type"] !== "batch" || !hasOnlyKeys(json, FRAME_KEYS)) return null;
  const events = json["events"];
  if (!Array.isArray(events) || events.length < 1 || events.length > MAX_BATCH_EVENTS) return null;
  for (const item of events as unknown[]) {
    if (!isRecord(item) || !hasOnlyKeys(item, ITEM_KEYS) || !isN(item["n"]) || !isSessionUpdate(item["event"])) return null;
  }
  return { type: "batch", events: events as { n: number; event: DaemonEvent }[] };
}
