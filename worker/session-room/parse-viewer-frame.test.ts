import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ClientOp } from "../../shared/viewer-protocol";
import { parseViewerFrame } from "./parse-viewer-frame";

describe("parseViewerFrame (property-based)", () => {
  it("never throws and answers every non-op with a coded error", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify(v))), (raw) => {
        const r = parseViewerFrame(raw);
        if (!r.ok) expect(["BAD_FRAME", "UNKNOWN_OP", "FRAME_TOO_LARGE", "PROMPT_TOO_LARGE", "EMPTY_PROMPT"]).toContain(r.code);
        else expect(ClientOp.safeParse(r.op).success).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("mutated valid ops are either valid or refused with the op's rid", () => {
    const base = fc.record({
      op: fc.constantFrom("message.send", "queue.cancel", "queue.move", "turn.cancel", "config.set", "permission.respond", "settings.set"),
      rid: fc.string({ minLength: 1, maxLength: 20 }),
      id: fc.oneof(fc.string({ maxLength: 200 }), fc.integer(), fc.constant(undefined)),
      blocks: fc.oneof(fc.constant([{ type: "text", text: "hi" }]), fc.array(fc.jsonValue(), { maxLength: 3 }), fc.constant(undefined)),
      queueDepth: fc.oneof(fc.integer({ min: -5, max: 20 }), fc.constant(undefined)),
    });
    fc.assert(
      fc.property(base, (frame) => {
        const r = parseViewerFrame(JSON.stringify(frame));
        if (!r.ok) expect(r.rid).toBe(frame.rid);
      }),
      { numRuns: 2000 },
    );
  });
});
