import { describe, expect, it } from "vitest";
import { normalizeUserCode, USER_CODE_RE } from "../shared/device-api";
import {
  approvalStatus,
  DEVICE_CODES_PENDING_MAX,
  DEVICE_CODES_PER_CLIENT_PER_HOUR,
  DEVICE_POLL_INTERVAL_MS,
  DEVICE_SLOW_DOWN_STEP_MS,
  issueVerdict,
  pollVerdict,
  userCodeFrom,
  type DeviceRow,
} from "./device-auth-rules";

const T0 = 1_000_000;
const row = (over: Partial<DeviceRow> = {}): DeviceRow => ({ status: "pending", expiresAt: T0 + 600_000, intervalMs: DEVICE_POLL_INTERVAL_MS, lastPollAt: null, ...over });

describe("pollVerdict", () => {
  it("pending until approved, then issues; denied says so", () => {
    expect(pollVerdict(row(), T0)).toEqual({ kind: "pending" });
    expect(pollVerdict(row({ status: "approved" }), T0)).toEqual({ kind: "issue" });
    expect(pollVerdict(row({ status: "denied" }), T0)).toEqual({ kind: "denied" });
  });
  it("expires at expiresAt, even when approved", () => {
    expect(pollVerdict(row({ status: "approved" }), T0 + 600_000)).toEqual({ kind: "expired" });
    expect(pollVerdict(row(), T0 + 599_999)).toEqual({ kind: "pending" });
  });
  it("a consumed code is used, never issued twice (even after expiry)", () => {
    expect(pollVerdict(row({ status: "consumed" }), T0)).toEqual({ kind: "used" });
    expect(pollVerdict(row({ status: "consumed" }), T0 + 700_000)).toEqual({ kind: "used" });
  });
  it("a poll faster than the interval is told to slow down, with a longer interval", () => {
    expect(pollVerdict(row({ lastPollAt: T0 - 1_000 }), T0)).toEqual({ kind: "slow_down", intervalMs: DEVICE_POLL_INTERVAL_MS + DEVICE_SLOW_DOWN_STEP_MS });
    expect(pollVerdict(row({ lastPollAt: T0 - DEVICE_POLL_INTERVAL_MS }), T0)).toEqual({ kind: "pending" });
    expect(pollVerdict(row({ status: "approved", lastPollAt: T0 - 100 }), T0).kind).toBe("slow_down");
  });
});

describe("issueVerdict", () => {
  it("bounds codes per client per hour and live codes overall", () => {
    expect(issueVerdict(0, 0)).toEqual({ ok: true });
    expect(issueVerdict(DEVICE_CODES_PER_CLIENT_PER_HOUR - 1, 0).ok).toBe(true);
    expect(issueVerdict(DEVICE_CODES_PER_CLIENT_PER_HOUR, 0).ok).toBe(false);
    expect(issueVerdict(0, DEVICE_CODES_PENDING_MAX).ok).toBe(false);
  });
});

describe("approvalStatus", () => {
  it("a pending code past its expiry shows as expired", () => {
    expect(approvalStatus(row(), T0)).toBe("pending");
    expect(approvalStatus(row(), T0 + 600_000)).toBe("expired");
    expect(approvalStatus(row({ status: "consumed" }), T0 + 600_000)).toBe("consumed");
  });
});

describe("user codes", () => {
  it("are XXXX-XXXX from the unambiguous alphabet and normalise from what people type", () => {
    for (let i = 0; i < 200; i++) {
      const code = userCodeFrom((n) => crypto.getRandomValues(new Uint8Array(n)));
      expect(code).toMatch(USER_CODE_RE);
      expect(normalizeUserCode(code.toLowerCase().replace("-", " "))).toBe(code);
    }
  });
  it("skip bytes that would bias the alphabet", () => {
    // 250..255 are rejected (256 % 25 = 6); 0 → "A".
    let calls = 0;
    const code = userCodeFrom((n) => (calls++ === 0 ? new Uint8Array(n).fill(255) : new Uint8Array(n)));
    expect(code).toBe("AAAA-AAAA");
  });
});
