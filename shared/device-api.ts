/** `baton login`: the device-authorization API shared by the worker, the daemon and the client. */
import { z } from "zod";

/** What the daemon says about itself when it asks for a code (shown on the Approve view). */
export const DeviceCodeRequest = z.object({
  hostname: z.string().trim().min(1).max(255),
  os: z.string().trim().min(1).max(100),
  agents: z.array(z.object({ id: z.string().min(1).max(64), label: z.string().max(100), version: z.string().max(64).nullable().optional() })).max(32),
  daemonVersion: z.string().min(1).max(64),
  protocolVersion: z.number().int().min(0).max(1_000_000),
  /** What the code pairs: this machine (the daemon's token; the default) or the person signing in (`baton login --user`). */
  kind: z.enum(["machine", "user"]).optional(),
});
export type DeviceCodeRequest = z.infer<typeof DeviceCodeRequest>;

export const DeviceCodeResponse = z.object({
  deviceCode: z.string(),
  userCode: z.string(),
  verificationUri: z.string(),
  verificationUriComplete: z.string(),
  /** Seconds. */
  expiresIn: z.number(),
  /** Seconds between polls. */
  interval: z.number(),
});
export type DeviceCodeResponse = z.infer<typeof DeviceCodeResponse>;

export const DeviceTokenRequest = z.object({ deviceCode: z.string().min(1).max(200) });

export const DeviceTokenResponse = z.object({ token: z.string(), machine: z.object({ id: z.string(), name: z.string() }) });
export type DeviceTokenResponse = z.infer<typeof DeviceTokenResponse>;

/** Error codes of POST /api/device/token (RFC 8628 §3.5 names) besides the usual ones. */
export const DeviceTokenError = {
  pending: "authorization_pending",
  slowDown: "slow_down",
  denied: "access_denied",
  expired: "expired_token",
  invalid: "invalid_grant",
} as const;

/** GET /api/device/approvals/:userCode: what the Approve view shows. */
export const DeviceApproval = z.object({
  userCode: z.string(),
  hostname: z.string(),
  os: z.string(),
  agents: DeviceCodeRequest.shape.agents,
  daemonVersion: z.string(),
  protocolVersion: z.number(),
  status: z.enum(["pending", "approved", "denied", "consumed", "expired"]),
  expiresAt: z.number(),
  kind: z.enum(["machine", "user"]),
});
export type DeviceApproval = z.infer<typeof DeviceApproval>;

export const DeviceDecisionBody = z.object({ decision: z.enum(["approve", "deny"]), name: z.string().trim().max(100).optional() });
export type DeviceDecisionBody = z.infer<typeof DeviceDecisionBody>;

/** User codes are typed and read aloud: no 0/O, 1/I/L, 2/Z, 5/S, 8/B. */
export const USER_CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679";
export const USER_CODE_RE = /^[ACDEFGHJKMNPQRTUVWXY34679]{4}-[ACDEFGHJKMNPQRTUVWXY34679]{4}$/;

/** Uppercases and re-inserts the dash, so "abcd efgh" and "ABCDEFGH" find the same code. */
export function normalizeUserCode(input: string): string {
  const raw = input.toUpperCase().replace(/[^A-Z0-9]/g, "");
  return raw.length === 8 ? `${raw.slice(0, 4)}-${raw.slice(4)}` : raw;
}
