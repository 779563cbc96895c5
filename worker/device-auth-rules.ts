/** `baton login` (device authorization, RFC 8628 style): the rules, without storage. */
import { USER_CODE_ALPHABET } from "../shared/device-api";

/** How long a code lives: enough to open the link and sign in, short enough that a leaked one is moot. */
export const DEVICE_CODE_TTL_MS = 10 * 60_000;
/** Poll interval handed to the daemon (RFC 8628's default). */
export const DEVICE_POLL_INTERVAL_MS = 5_000;
/** A `slow_down` answer adds this to the interval (RFC 8628 §3.5). */
export const DEVICE_SLOW_DOWN_STEP_MS = 5_000;
/** Timers and the network make a well-behaved poll land a little early. */
export const DEVICE_POLL_TOLERANCE_MS = 1_000;
/** Codes one client (address) may request per hour: a login retried a few times, not a flood. */
export const DEVICE_CODES_PER_CLIENT_PER_HOUR = 10;
/** Live (unexpired, undecided) codes across the whole server: bounds the table however many clients ask. */
export const DEVICE_CODES_PENDING_MAX = 1_000;
export const HOUR_MS = 3_600_000;

export type DeviceStatus = "pending" | "approved" | "denied" | "consumed";

export type DeviceRow = { status: DeviceStatus; expiresAt: number; intervalMs: number; lastPollAt: number | null };

export type PollVerdict =
  | { kind: "issue" }
  | { kind: "pending" }
  | { kind: "slow_down"; intervalMs: number }
  | { kind: "denied" }
  | { kind: "expired" }
  | { kind: "used" };

/** What a poll with a valid device code gets. A used code stays used; expiry beats everything else. */
export function pollVerdict(row: DeviceRow, now: number): PollVerdict {
  if (row.status === "consumed") return { kind: "used" };
  if (now >= row.expiresAt) return { kind: "expired" };
  if (row.lastPollAt !== null && now - row.lastPollAt < row.intervalMs - DEVICE_POLL_TOLERANCE_MS)
    return { kind: "slow_down", intervalMs: row.intervalMs + DEVICE_SLOW_DOWN_STEP_MS };
  switch (row.status) {
    case "denied":
      return { kind: "denied" };
    case "pending":
      return { kind: "pending" };
    case "approved":
      return { kind: "issue" };
  }
}

export type IssueVerdict = { ok: true } | { ok: false; message: string };

/** Whether a new code may be handed out, given recent requests from this client and live codes overall. */
export function issueVerdict(clientCodesLastHour: number, pendingOverall: number): IssueVerdict {
  if (clientCodesLastHour >= DEVICE_CODES_PER_CLIENT_PER_HOUR)
    return { ok: false, message: `too many login codes from this address (${DEVICE_CODES_PER_CLIENT_PER_HOUR} per hour); try again later` };
  if (pendingOverall >= DEVICE_CODES_PENDING_MAX) return { ok: false, message: "too many logins are waiting for approval on this server; try again in a few minutes" };
  return { ok: true };
}

/** The status a person sees on the Approve view. */
export function approvalStatus(row: Pick<DeviceRow, "status" | "expiresAt">, now: number): DeviceStatus | "expired" {
  if (row.status === "pending" && now >= row.expiresAt) return "expired";
  return row.status;
}

/** Whether a person may still approve or deny this code. */
export function decidable(row: Pick<DeviceRow, "status" | "expiresAt">, now: number): boolean {
  return approvalStatus(row, now) === "pending";
}

/** XXXX-XXXX from the unambiguous alphabet (25^8 ≈ 1.5e11 codes; rejection sampling keeps it uniform). */
export function userCodeFrom(random: (n: number) => Uint8Array): string {
  const out: string[] = [];
  const limit = 256 - (256 % USER_CODE_ALPHABET.length);
  while (out.length < 8) {
    for (const b of random(16)) {
      if (b < limit && out.length < 8) out.push(USER_CODE_ALPHABET[b % USER_CODE_ALPHABET.length]!);
    }
  }
  return `${out.slice(0, 4).join("")}-${out.slice(4).join("")}`;
}
