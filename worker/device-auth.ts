/** `baton login`'s storage: device codes in D1 (the rules are in device-auth-rules.ts). */
import type { DeviceApproval, DeviceCodeRequest } from "../shared/device-api";
import { createMachine, getUser, newSecret, sha256Hex } from "./d1-directory";
import { createUserToken } from "./attach/user-tokens";
import {
  approvalStatus,
  decidable,
  DEVICE_CODE_TTL_MS,
  DEVICE_POLL_INTERVAL_MS,
  type DeviceStatus,
  HOUR_MS,
  issueVerdict,
  pollVerdict,
  userCodeFrom,
} from "./device-auth-rules";

type DeviceCodeRow = {
  id: string;
  user_code: string;
  hostname: string;
  os: string;
  agents_json: string;
  daemon_version: string;
  protocol_version: number;
  status: DeviceStatus;
  kind: "machine" | "user";
  approved_by: string | null;
  machine_name: string | null;
  interval_ms: number;
  last_poll_at: number | null;
  expires_at: number;
};

const rules = (r: DeviceCodeRow) => ({ status: r.status, expiresAt: r.expires_at, intervalMs: r.interval_ms, lastPollAt: r.last_poll_at });

/** Rows this long past expiry are deleted when new codes are issued. */
const KEEP_EXPIRED_MS = HOUR_MS;

export type IssuedCode = { deviceCode: string; userCode: string; expiresAt: number; intervalMs: number };

export async function issueDeviceCode(
  db: D1Database,
  req: DeviceCodeRequest,
  clientKey: string,
  now: number,
): Promise<{ ok: true; code: IssuedCode } | { ok: false; message: string }> {
  await db.prepare("DELETE FROM device_codes WHERE expires_at < ?").bind(now - KEEP_EXPIRED_MS).run();
  const counts = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM device_codes WHERE client_key = ?1 AND created_at > ?2) AS client,
              (SELECT COUNT(*) FROM device_codes WHERE status = 'pending' AND expires_at > ?3) AS pending`,
    )
    .bind(clientKey, now - HOUR_MS, now)
    .first<{ client: number; pending: number }>();
  const verdict = issueVerdict(counts?.client ?? 0, counts?.pending ?? 0);
  if (!verdict.ok) return verdict;
  const deviceCode = newSecret("bd_");
  const expiresAt = now + DEVICE_CODE_TTL_MS;
  // A user-code collision (1 in ~1e11 per live code) just draws again.
  for (let attempt = 0; ; attempt++) {
    const userCode = userCodeFrom((n) => crypto.getRandomValues(new Uint8Array(n)));
    try {
      await db
        .prepare(
          `INSERT INTO device_codes (id, device_code_hash, user_code, client_key, hostname, os, agents_json, daemon_version,
             protocol_version, status, kind, interval_ms, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?)`,
        )
        .bind(
          crypto.randomUUID(),
          await sha256Hex(deviceCode),
          userCode,
          clientKey,
          req.hostname,
          req.os,
          JSON.stringify(req.agents),
          req.daemonVersion,
          req.protocolVersion,
          req.kind ?? "machine",
          DEVICE_POLL_INTERVAL_MS,
          now,
          expiresAt,
        )
        .run();
      return { ok: true, code: { deviceCode, userCode, expiresAt, intervalMs: DEVICE_POLL_INTERVAL_MS } };
    } catch (err) {
      if (attempt >= 2) throw err;
    }
  }
}

export type PollResult =
  | { kind: "issued"; token: string; machine: { id: string; name: string } }
  | { kind: "issued_user"; token: string; user: { id: string; name: string; email: string } }
  | { kind: "pending" | "denied" | "expired" | "used" | "unknown" }
  | { kind: "slow_down"; intervalMs: number };

/** One poll by the daemon holding `deviceCode`. The token is minted here, once: it is never stored in clear. */
export async function pollDeviceCode(db: D1Database, deviceCode: string, now: number): Promise<PollResult> {
  const row = await db.prepare("SELECT * FROM device_codes WHERE device_code_hash = ?").bind(await sha256Hex(deviceCode)).first<DeviceCodeRow>();
  if (!row) return { kind: "unknown" };
  const verdict = pollVerdict(rules(row), now);
  if (verdict.kind === "slow_down") {
    await db.prepare("UPDATE device_codes SET interval_ms = ?, last_poll_at = ? WHERE id = ?").bind(verdict.intervalMs, now, row.id).run();
    return verdict;
  }
  await db.prepare("UPDATE device_codes SET last_poll_at = ? WHERE id = ?").bind(now, row.id).run();
  if (verdict.kind !== "issue") return { kind: verdict.kind };
  // Single use: only the poll that flips approved → consumed mints the token.
  const flip = await db.prepare("UPDATE device_codes SET status = 'consumed' WHERE id = ? AND status = 'approved'").bind(row.id).run();
  if (flip.meta.changes !== 1) return { kind: "used" };
  if (row.kind === "user") {
    const user = await getUser(db, row.approved_by!);
    if (!user) return { kind: "unknown" };
    const { token } = await createUserToken(db, user.id, row.hostname, now);
    return { kind: "issued_user", token, user: { id: user.id, name: user.name, email: user.email } };
  }
  const { machine, token } = await createMachine(db, row.approved_by!, row.machine_name ?? row.hostname);
  return { kind: "issued", token, machine: { id: machine.id, name: machine.name } };
}

export async function deviceApproval(db: D1Database, userCode: string, now: number): Promise<DeviceApproval | null> {
  const row = await db.prepare("SELECT * FROM device_codes WHERE user_code = ?").bind(userCode).first<DeviceCodeRow>();
  if (!row) return null;
  return {
    userCode: row.user_code,
    hostname: row.hostname,
    os: row.os,
    agents: JSON.parse(row.agents_json) as DeviceApproval["agents"],
    daemonVersion: row.daemon_version,
    protocolVersion: row.protocol_version,
    status: approvalStatus(rules(row), now),
    expiresAt: row.expires_at,
    kind: row.kind,
  };
}

/** Approve (binding the machine to `userId`) or deny a pending code; false when it is no longer pending. */
export async function decideDeviceCode(
  db: D1Database,
  userCode: string,
  userId: string,
  decision: "approve" | "deny",
  name: string | undefined,
  now: number,
): Promise<boolean> {
  const row = await db.prepare("SELECT * FROM device_codes WHERE user_code = ?").bind(userCode).first<DeviceCodeRow>();
  if (!row || !decidable(rules(row), now)) return false;
  const r =
    decision === "approve"
      ? await db
          .prepare("UPDATE device_codes SET status = 'approved', approved_by = ?, machine_name = ? WHERE id = ? AND status = 'pending'")
          .bind(userId, name?.trim() || row.hostname, row.id)
          .run()
      : await db.prepare("UPDATE device_codes SET status = 'denied' WHERE id = ? AND status = 'pending'").bind(row.id).run();
  return r.meta.changes === 1;
}

/** What the daemon said in its hello (shown on the Machines page; a refused daemon is recorded too). */
export async function recordDaemonVersion(db: D1Database, machineId: string, version: string, protocolVersion: number | undefined): Promise<void> {
  await db
    .prepare("UPDATE machines SET daemon_version = ?, protocol_version = ? WHERE id = ?")
    .bind(version.slice(0, 64), protocolVersion ?? 0, machineId)
    .run()
    .catch((err: unknown) => console.error("daemon version update failed", err));
}
