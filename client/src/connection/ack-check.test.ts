import { describe, expect, it, vi } from "vitest";
import type { OpReply } from "./op-client";
import { ackOf } from "./op-client";
import { checkReply } from "./ack-check";
import { checkedReply } from "./session-socket";

const raw = (op: string, result: unknown) => JSON.parse(JSON.stringify({ type: "ack", rid: "r1", op, result })) as OpReply;

describe("acks are checked before anyone reads them", () => {
  it("an ack with its op's shape passes and reads as that op's result", () => {
    const reply = checkReply(raw("queue.claimDropped", { claimed: ["a"] }));
    expect(ackOf(reply, "queue.claimDropped")).toEqual({ claimed: ["a"] });
    expect(ackOf(reply, "queue.cancel")).toBeNull();
  });

  it("an ack without its op's shape is answered-but-unread: no result to read, and not an error", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const reply = checkReply(raw("queue.claimDropped", { claimed: "a" }));
    expect(reply).toEqual({ type: "unread_ack", rid: "r1", op: "queue.claimDropped" });
    expect(ackOf(reply, "queue.claimDropped")).toBeNull();
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it("errors pass through untouched", () => {
    const err: OpReply = { type: "error", rid: "r1", code: "QUEUE_FULL", message: "full" };
    expect(checkReply(err)).toBe(err);
  });

  it("the socket loads the check on demand; a check that cannot load leaves the ack unread", async () => {
    expect(ackOf(await checkedReply(raw("queue.steer", { outcome: "requeued" })), "queue.steer")).toEqual({ outcome: "requeued" });
    const offline = () => Promise.reject(new Error("Failed to fetch dynamically imported module"));
    expect(await checkedReply(raw("queue.steer", { outcome: "requeued" }), offline)).toEqual({ type: "unread_ack", rid: "r1", op: "queue.steer" });
  });
});
