import { describe, expect, it } from "vitest";
import { MAX_TUNNEL_BACKLOG_BYTES } from "../../shared/limits";
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import { afterRoomError, budgetRefusal, intake, ROOM_CALL_ATTEMPTS, splitBySession } from "./machine-rules";

const update = (sessionId: string): DaemonEvent => ({ t: "session.update", sessionId, update: { sessionUpdate: "plan", entries: [] } });
const ended = (sessionId: string): DaemonEvent => ({ t: "turn.ended", sessionId, turnId: "t", stopReason: "end_turn" });

describe("machine rules", () => {
  it("intake drops resends and takes new frames in order", () => {
    const r = intake([{ n: 3, event: update("a") }, { n: 4, event: update("a") }, { n: 5, event: update("b") }], 3, 0, 100);
    expect(r).toEqual({ overloaded: false, fresh: [{ n: 4, event: update("a") }, { n: 5, event: update("b") }], highestTaken: 5 });
    expect(intake([{ n: 2, event: update("a") }], 3, 0, 100)).toEqual({ overloaded: false, fresh: [], highestTaken: 3 });
  });

  it("intake refuses new frames that would overflow the backlog, but never a pure resend", () => {
    expect(intake([{ n: 4, event: update("a") }], 3, MAX_TUNNEL_BACKLOG_BYTES - 10, 11)).toEqual({ overloaded: true });
    expect(intake([{ n: 3, event: update("a") }], 3, MAX_TUNNEL_BACKLOG_BYTES, 11)).toMatchObject({ overloaded: false, fresh: [] });
  });

  it("a batch splits per known session in order; unknown sessions are foreign; ended turns are reported", () => {
    const batch = [update("a"), update("x"), update("b"), ended("a"), update("x")].map((event, i) => ({ n: i + 1, event }));
    const { bySession, foreign, ended: done } = splitBySession(batch, (id) => id !== "x");
    expect([...bySession].map(([id, g]) => [id, g.map((f) => f.n)])).toEqual([["a", [1, 4]], ["b", [3]]]);
    expect([...foreign]).toEqual(["x"]);
    expect(done).toEqual(["a"]);
  });

  it("a room error from the room's own code is dropped; resets and transport errors are retried, then given up", () => {
    expect(afterRoomError({ remote: true }, 1)).toBe("dropped");
    expect(afterRoomError({ remote: true, durableObjectReset: true }, 1)).toBe("retry");
    expect(afterRoomError(new Error("network"), 1)).toBe("retry");
    expect(afterRoomError("weird", 1)).toBe("retry");
    expect(afterRoomError({ remote: true, retryable: true }, ROOM_CALL_ATTEMPTS)).toBe("unavailable");
    expect(afterRoomError({ overloaded: true }, 1)).toBe("unavailable");
  });

  it("the budget refuses only an idle send that starts a new concurrent turn beyond it", () => {
    expect(budgetRefusal({ startsTurn: true }, false, 4, 4)).toMatchObject({ ok: false, code: "MACHINE_BUSY", message: expect.stringContaining("4 turns") });
    expect(budgetRefusal({ startsTurn: true }, false, 0, 1)).toBeNull();
    expect(budgetRefusal({ startsTurn: true }, false, 1, 1)).toMatchObject({ message: expect.stringContaining("1 turn;") });
    expect(budgetRefusal({ startsTurn: true, fromQueue: true }, false, 4, 4)).toBeNull();
    expect(budgetRefusal({ startsTurn: true }, true, 4, 4)).toBeNull();
    expect(budgetRefusal({}, false, 9, 4)).toBeNull();
  });
});
