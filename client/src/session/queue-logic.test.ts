import { describe, expect, it } from "vitest";
import { MAX_ID_LENGTH } from "../../../shared/limits";
import {
  applyMove,
  dragShift,
  dropIndex,
  editedBlocks,
  editMode,
  isEditDirty,
  moveTarget,
  moveTo,
  orderBy,
  requeueId,
  retryAction,
} from "./queue-logic";

describe("queue logic: reorder", () => {
  const ids = ["a", "b", "c", "d"];

  it("moveTo gives the `before` that lands an entry at an index of the final order", () => {
    expect(moveTo(ids, "d", 0)).toEqual({ before: "a" });
    expect(moveTo(ids, "a", 3)).toEqual({ before: null });
    expect(moveTo(ids, "a", 1)).toEqual({ before: "c" });
    expect(moveTo(ids, "c", 1)).toEqual({ before: "b" });
    expect(moveTo(ids, "b", 1)).toBeNull();
    expect(moveTo(ids, "x", 0)).toBeNull();
    expect(moveTo(ids, "a", 4)).toBeNull();
    expect(moveTarget(ids, "a", -1)).toBeNull();
    expect(moveTarget(ids, "d", 1)).toBeNull();
  });

  it("applyMove predicts the room's order (same rule as the room), for every target", () => {
    for (const id of ids)
      for (let to = 0; to < ids.length; to++) {
        const t = moveTo(ids, id, to);
        if (!t) continue;
        const after = applyMove(ids, id, t.before);
        expect(after.indexOf(id)).toBe(to);
        expect([...after].sort()).toEqual(ids);
      }
    expect(applyMove(ids, "zz", "a")).toEqual(ids);
    expect(applyMove(ids, "b", "b")).toEqual(["a", "c", "d", "b"]);
  });

  it("dropIndex counts the other chips whose middle is above the pointer", () => {
    const mids = [10, 60, 110, 160];
    expect(dropIndex(0, mids, 3)).toBe(0);
    expect(dropIndex(61, mids, 3)).toBe(2);
    expect(dropIndex(500, mids, 0)).toBe(3);
    expect(dropIndex(59, mids, 0)).toBe(0);
    expect(dropIndex(61, mids, 0)).toBe(1);
  });

  it("dragShift opens the gap where the dragged chip will land", () => {
    // c (2) dragged to the top: a and b slide down one pitch, d stays.
    expect([0, 1, 2, 3].map((i) => dragShift(i, 2, 0))).toEqual([1, 1, 0, 0]);
    // a (0) dragged to index 2: b and c slide up.
    expect([0, 1, 2, 3].map((i) => dragShift(i, 0, 2))).toEqual([0, -1, -1, 0]);
    expect([0, 1, 2, 3].map((i) => dragShift(i, 1, 1))).toEqual([0, 0, 0, 0]);
  });

  it("orderBy shows a pending order and keeps entries it does not know at the end", () => {
    const e = (id: string) => ({ id });
    expect(orderBy([e("a"), e("b"), e("c")], ["c", "a", "b"]).map((x) => x.id)).toEqual(["c", "a", "b"]);
    expect(orderBy([e("a"), e("b"), e("n")], ["b", "gone", "a"]).map((x) => x.id)).toEqual(["b", "a", "n"]);
    expect(orderBy([e("a")], null).map((x) => x.id)).toEqual(["a"]);
  });
});

describe("queue logic: edit, retry, re-queue", () => {
  it("✎ takes back with a one-slot queue and edits in place with a stack", () => {
    expect(editMode(1)).toBe("takeBack");
    expect(editMode(2)).toBe("inline");
    expect(editMode(8)).toBe("inline");
  });

  it("an in-place edit replaces the text and keeps attachments; empty text alone is nothing", () => {
    const image = { type: "image" as const, mimeType: "image/png", data: "AAAA" };
    expect(editedBlocks([{ type: "text", text: "old" }, image], "new text")).toEqual([{ type: "text", text: "new text" }, image]);
    expect(editedBlocks([{ type: "text", text: "old" }], "   ")).toBeNull();
    expect(editedBlocks([{ type: "text", text: "old" }, image], "")).toEqual([image]);
  });

  it("an edit is worth keeping only when it changed something", () => {
    expect(isEditDirty("abc", "abc ")).toBe(false);
    expect(isEditDirty("abc", "")).toBe(false);
    expect(isEditDirty("abc", "abd")).toBe(true);
  });

  it("retry of an unconfirmed entry says what it will do", () => {
    expect(retryAction(true).label).toBe("Retry");
    expect(retryAction(false)).toMatchObject({ label: "Send", title: expect.stringMatching(/next turn/) });
  });

  it("re-queue ids are deterministic (two viewers run nothing twice) and within the id limit", () => {
    expect(requeueId("abc")).toBe(requeueId("abc"));
    expect(requeueId("abc")).not.toBe("abc");
    expect(requeueId("abc")).not.toBe(requeueId("abd"));
    const long = "x".repeat(MAX_ID_LENGTH);
    expect(requeueId(long).length).toBeLessThanOrEqual(MAX_ID_LENGTH);
    expect(requeueId(requeueId("abc"))).not.toBe(requeueId("abc"));
  });
});
