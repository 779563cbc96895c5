/** The queue's own rules, pure over the queue and the settled ring. */
import { describe, expect, it } from "vitest";
import { MAX_QUEUE_BYTES } from "../../shared/limits";
import { entry } from "../testing/room-fixtures";
import { atHead, cancelEntry, editEntry, fateOutcome, moveEntry, queueBytesExceeded, queueFullReason } from "./queue-rules";
import { Fate, type SettledOf } from "./room-state";

const settled =
  (fates: Record<string, Fate>): SettledOf =>
  (id) =>
    fates[id] ? { fate: fates[id], ack: { queued: true } } : null;
const NONE = settled({});
const Q = [entry("a"), entry("b"), entry("c")];

describe("queue rules", () => {
  it.each<[string, Fate | null, string]>([
    ["sent", Fate.sent, "already_sent"],
    ["cancelled", Fate.cancelled, "cancelled"],
    ["dropped by a Stop", Fate.dropped, "cancelled"],
    ["restored to a draft", Fate.taken, "cancelled"],
    ["queued but gone (ring lag)", Fate.queued, "not_found"],
    ["never seen", null, "not_found"],
  ])("an op on an entry no longer queued: %s → %s", (_name, fate, outcome) => {
    expect(fateOutcome(settled(fate ? { x: fate } : {}), "x")).toEqual({ outcome });
  });

  it("limits: depth and total bytes", () => {
    expect(queueFullReason(Q, 4)).toBeNull();
    expect(queueFullReason(Q, 3)).toBe("the queue is full (3)");
    expect(queueFullReason([entry("a")], 1)).toBe("a message is already queued");
    const big = [{ type: "text" as const, text: "x".repeat(MAX_QUEUE_BYTES) }];
    expect(queueBytesExceeded(Q, "new", big)).toMatch(new RegExp(`limited to ${MAX_QUEUE_BYTES / 1024} KB`));
    expect(queueBytesExceeded(Q, "new", [{ type: "text", text: "ok" }])).toBeNull();
  });

  it.each([
    ["cancel", cancelEntry(Q, NONE, "b"), { outcome: "cancelled", entry: entry("b") }, ["a", "c"]],
    ["cancel while steering", cancelEntry([entry("b", "steering")], NONE, "b"), { outcome: "steering" }, null],
    ["edit keeps id and place", editEntry(Q, NONE, "b", [{ type: "text", text: "B" }]), { outcome: "edited", entry: { ...entry("b"), blocks: [{ type: "text", text: "B" }] } }, ["a", "b", "c"]],
    ["edit while steering: it may have landed", editEntry([entry("b", "steering")], NONE, "b", []), { outcome: "already_sent" }, null],
    ["move before", moveEntry(Q, NONE, "c", "a"), { outcome: "moved" }, ["c", "a", "b"]],
    ["move to the end (before nothing)", moveEntry(Q, NONE, "a", null), { outcome: "moved" }, ["b", "c", "a"]],
    ["move before an id not queued: to the end", moveEntry(Q, NONE, "a", "zz"), { outcome: "moved" }, ["b", "c", "a"]],
    ["move of an id not queued", moveEntry(Q, settled({ q: Fate.sent }), "q", "a"), { outcome: "already_sent" }, null],
  ])("%s", (_name, r, ack, ids) => {
    expect(r.ack).toEqual(ack);
    expect(r.queue?.map((e) => e.id) ?? null).toEqual(ids);
  });

  it("back at the head, in order, as queued (replacing a copy already there)", () => {
    expect(atHead([entry("x"), entry("b", "indeterminate")], [entry("a", "steering"), entry("b")]).map((e) => [e.id, e.state])).toEqual([
      ["a", "queued"],
      ["b", "queued"],
      ["x", "queued"],
    ]);
  });
});
