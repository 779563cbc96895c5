import { describe, expect, it } from "vitest";
import { MAX_VIEWER_FRAME_BYTES, RATE_BURST, RATE_NOTICE_WINDOW_MS, RATE_PER_SECOND, RATE_STRIKES_TO_CLOSE } from "../../shared/limits";
import { frameCost, Intake, makeFrameGate, makeTokenBucket, VIEWER_GATE } from "./rate-limit";

describe("token bucket", () => {
  it("allows a burst, then refills at the rate", () => {
    const b = makeTokenBucket(3, 2, 0);
    expect([b.take(0), b.take(0), b.take(0), b.take(0)]).toEqual([true, true, true, false]);
    expect(b.take(500)).toBe(true);
    expect(b.take(500)).toBe(false);
  });
  it("charges a cost and never goes back in time", () => {
    const b = makeTokenBucket(10, 1, 1000);
    expect(b.take(1000, 8)).toBe(true);
    expect(b.take(1000, 3)).toBe(false);
    expect(b.take(0, 2)).toBe(true); // a clock step back refills nothing
    expect(b.take(1000, 1)).toBe(false);
  });
});

describe("viewer frame gate (charged by size, before parsing)", () => {
  it("the largest allowed frame fits in one burst; an oversized one costs as much and is refused as too large", () => {
    expect(frameCost(MAX_VIEWER_FRAME_BYTES)).toBeLessThanOrEqual(RATE_BURST);
    expect(frameCost(32 * 1024 * 1024)).toBe(frameCost(MAX_VIEWER_FRAME_BYTES));
    expect(makeFrameGate(0).admit(MAX_VIEWER_FRAME_BYTES, 0)).toBe(Intake.accept);
    expect(makeFrameGate(0).admit(MAX_VIEWER_FRAME_BYTES + 1, 0)).toBe(Intake.tooLarge);
  });

  it("junk counts like anything else: 1,000 small frames at once get a burst, one RATE_LIMITED, then silence", () => {
    const g = makeFrameGate(0);
    const verdicts = Array.from({ length: 1000 }, () => g.admit(20, 0));
    expect(verdicts.filter((v) => v === Intake.accept)).toHaveLength(RATE_BURST);
    expect(verdicts.filter((v) => v === Intake.limited)).toHaveLength(1);
    expect(verdicts.filter((v) => v === Intake.drop)).toHaveLength(1000 - RATE_BURST - 1);
  });

  it("big frames drain the bucket faster than small ones: of 100 frames of 600 KB (a prompt with images), only what one burst pays for is parsed", () => {
    const g = makeFrameGate(0);
    const verdicts = Array.from({ length: 100 }, () => g.admit(600 * 1024, 0));
    const fit = Math.floor(RATE_BURST / frameCost(600 * 1024));
    expect(fit).toBe(2);
    expect(verdicts.filter((v) => v === Intake.accept)).toHaveLength(fit);
    expect(verdicts[fit]).toBe(Intake.limited);
  });

  it("a sender within the rate is never refused", () => {
    const g = makeFrameGate(0);
    for (let t = 0; t < 60_000; t += 1000 / RATE_PER_SECOND) expect(g.admit(2000, t)).toBe(Intake.accept);
  });

  it("sustained flooding is closed after RATE_STRIKES_TO_CLOSE windows; one RATE_LIMITED per window before that", () => {
    const g = makeFrameGate(0);
    const seen: Intake[] = [];
    let t = 0;
    for (; t < 30_000; t += 1) {
      const v = g.admit(100, t); // 1,000 frames/s
      seen.push(v);
      if (v === Intake.close) break;
    }
    expect(seen.at(-1)).toBe(Intake.close);
    expect(seen.filter((v) => v === Intake.limited)).toHaveLength(RATE_STRIKES_TO_CLOSE - 1);
    expect(t).toBeLessThan((RATE_STRIKES_TO_CLOSE + 1) * RATE_NOTICE_WINDOW_MS);
    expect(seen.filter((v) => v === Intake.accept).length).toBeLessThan(RATE_BURST + (t / 1000 + 1) * RATE_PER_SECOND);
  });

  it("a burst now and then is never closed: strikes reset after a quiet window", () => {
    const g = makeFrameGate(0);
    for (let round = 0; round < 3 * RATE_STRIKES_TO_CLOSE; round++) {
      const t = round * 3 * RATE_NOTICE_WINDOW_MS;
      const verdicts = Array.from({ length: 100 }, () => g.admit(10, t));
      expect(verdicts).toContain(Intake.limited);
      expect(verdicts).not.toContain(Intake.close);
    }
    expect(VIEWER_GATE.strikesToClose).toBe(RATE_STRIKES_TO_CLOSE);
  });
});
