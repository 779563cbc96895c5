import { describe, expect, it } from "vitest";
import { MAX_BATCH_EVENTS, MAX_TUNNEL_BACKLOG_BYTES, MAX_TUNNEL_FRAME_BYTES } from "../../shared/limits";
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import { afterRoomError, budgetRefusal, intake, makeTunnelGate, presenceIsStale, ROOM_CALL_ATTEMPTS, splitBySession, TUNNEL_GATE, TunnelIntake } from "./machine-rules";

const update = (sessionId: string): DaemonEvent => ({ t: "session.update", sessionId, update: { sessionUpdate: "plan", entries: [] } });
const ended = (sessionId: string): DaemonEvent => ({ t: "turn.ended", sessionId, turnId: "t", stopReason: "end_turn" });

describe("machine rules", () => {
  it("presence: stale only when it believes the daemon online and holds no greeted tunnel", () => {
    expect(presenceIsStale(true, false)).toBe(true);
    expect(presenceIsStale(true, true)).toBe(false);
    expect(presenceIsStale(false, false)).toBe(false);
    expect(presenceIsStale(null, false)).toBe(false); // never connected: nothing to correct
  });

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

  describe("tunnel gate (charged by size before parsing)", () => {
    /** Feeds `frames` frames of `size` chars, `perSecond` of them per second from t=0; counts each verdict. */
    function feed(frames: number, size: number, perSecond: number) {
      const gate = makeTunnelGate(0);
      const out: Record<string, number> = {};
      for (let i = 0; i < frames; i++) {
        const v = gate.admit(size, (i * 1000) / perSecond);
        out[v] = (out[v] ?? 0) + 1;
      }
      return out;
    }

    it("a busy agent is never limited: 10k chunk events/s for a minute as full batches, or 1 MiB tool diffs at 8/s", () => {
      // A chunk event is ~150 characters on the wire; a full batch of MAX_BATCH_EVENTS is ~40 KB.
      const batch = MAX_BATCH_EVENTS * 160;
      expect(feed(60 * Math.ceil(10_000 / MAX_BATCH_EVENTS), batch, Math.ceil(10_000 / MAX_BATCH_EVENTS))).toEqual({ accept: 2400 });
      // Unbatched: every event its own frame (a daemon whose window is always free), 500 frames/s.
      expect(feed(30_000, 200, 500)).toEqual({ accept: 30_000 });
      expect(feed(8 * 60, MAX_TUNNEL_FRAME_BYTES, 8)).toEqual({ accept: 480 });
    });

    it("a peer flooding the tunnel is refused before parsing, within a bounded number of frames", () => {
      // 1 MiB frames as fast as they come (1,000/s): what passes is the burst plus the refill.
      const r = feed(1000, MAX_TUNNEL_FRAME_BYTES, 1000);
      const perFrame = 1 + MAX_TUNNEL_FRAME_BYTES / TUNNEL_GATE.charsPerToken;
      expect(r.accept).toBeLessThanOrEqual(Math.ceil((TUNNEL_GATE.burst + TUNNEL_GATE.perSecond) / perFrame));
      expect(r.limited).toBeGreaterThan(900);
      // Tiny junk frames cost one token each: 20,000 in a second mostly refused.
      expect(feed(20_000, 10, 20_000).limited).toBeGreaterThan(16_000);
    });

    it("an oversized frame is charged as the largest allowed one, then refused as too large", () => {
      const gate = makeTunnelGate(0);
      expect(gate.admit(MAX_TUNNEL_FRAME_BYTES + 1, 0)).toBe(TunnelIntake.tooLarge);
      let refusedAsLarge = 1;
      while (gate.admit(100 * MAX_TUNNEL_FRAME_BYTES, 0) === TunnelIntake.tooLarge) refusedAsLarge++;
      // 100 MiB costs what 1 MiB does: the burst takes ~30 of them, not 0.
      expect(refusedAsLarge).toBe(Math.floor(TUNNEL_GATE.burst / (1 + MAX_TUNNEL_FRAME_BYTES / TUNNEL_GATE.charsPerToken)));
    });
  });
});
