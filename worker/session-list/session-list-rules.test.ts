import { describe, expect, it } from "vitest";
import { archiveNeedsConfirmation, BulkSkip, bulkSkipReason, canDelete, canWrite, decodeCursor, encodeCursor, idleCutoff } from "./session-list-rules";

describe("the page cursor", () => {
  it("round-trips the last row's activity and id", () => {
    const c = { at: 1_733_300_000_000, id: "0b7e3d0c-6d0a-4a0e-9f3b-1c2d3e4f5a6b" };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
  });
  it("refuses what it did not make", () => {
    for (const bad of ["", "garbage", ".abc", "12.", "-5.abc", "1.5.abc", "NaN.abc", "12.a b", "9007199254740993.x", `1.${"a".repeat(129)}`]) expect(decodeCursor(bad), bad).toBeNull();
  });
});

describe("who may", () => {
  it("owner and member write; only the owner deletes", () => {
    expect([canWrite("owner"), canWrite("member"), canWrite("viewer")]).toEqual([true, true, false]);
    expect([canDelete("owner"), canDelete("member"), canDelete("viewer")]).toEqual([true, false, false]);
  });
});

describe("archiving", () => {
  const running = { status: "active", archivedAt: null };
  it("asks first only when archiving a running session without confirmation", () => {
    expect(archiveNeedsConfirmation(running, true, false)).toBe(true);
    expect(archiveNeedsConfirmation(running, true, true)).toBe(false);
    expect(archiveNeedsConfirmation(running, false, false)).toBe(false);
    expect(archiveNeedsConfirmation({ status: "idle", archivedAt: null }, true, false)).toBe(false);
    expect(archiveNeedsConfirmation({ status: "active", archivedAt: 5 }, true, false)).toBe(false);
  });

  it("a bulk archive leaves alone what it cannot or should not touch, with the reason", () => {
    const row = { status: "idle", needsYou: false, archivedAt: null, role: "member" as const };
    expect(bulkSkipReason(row)).toBeNull();
    expect(bulkSkipReason(null)).toBe(BulkSkip.notFound);
    expect(bulkSkipReason({ ...row, role: "viewer" })).toBe(BulkSkip.readOnly);
    expect(bulkSkipReason({ ...row, archivedAt: 1 })).toBe(BulkSkip.alreadyArchived);
    expect(bulkSkipReason({ ...row, status: "active" })).toBe(BulkSkip.running);
    expect(bulkSkipReason({ ...row, status: "active", needsYou: true })).toBe(BulkSkip.needsYou);
    // An offline or failed session is not working: it may go.
    expect(bulkSkipReason({ ...row, status: "offline" })).toBeNull();
    expect(bulkSkipReason({ ...row, status: "error" })).toBeNull();
  });

  it("idle for N days counts back from now", () => {
    expect(idleCutoff(10 * 86_400_000, 7)).toBe(3 * 86_400_000);
  });
});
