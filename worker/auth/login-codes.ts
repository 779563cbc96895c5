/**
 * Built-in sign-in, part 1: one-time email codes. A code is random digits, stored only as
 * HMAC-SHA-256(AUTH_SECRET, email:code), valid for a few minutes, good for a few guesses, and a new
 * request supersedes the previous code. Requests are rate limited per address.
 */

/** Digits per code: 10^6 values against MAX_CODE_ATTEMPTS guesses per code and MAX_CODES_PER_WINDOW codes per window. */
export const LOGIN_CODE_DIGITS = 6;
/** Long enough to switch to the mail app and back; short enough that a leaked code goes stale fast. */
export const LOGIN_CODE_TTL_MS = 10 * 60_000;
/** Wrong guesses allowed per code before it is burnt (≈ 5 in a million chance per code). */
export const MAX_CODE_ATTEMPTS = 5;
/** Codes one address may request per window: stops mail-bombing and bounds total guesses per hour. */
export const MAX_CODES_PER_WINDOW = 5;
export const CODE_WINDOW_MS = 60 * 60_000;

export type CodeCheck = "ok" | "invalid" | "expired" | "too_many_attempts";

/** Uniform random digits (rejection sampling: no modulo bias). */
export function randomDigits(n: number): string {
  let out = "";
  while (out.length < n) {
    const [v] = crypto.getRandomValues(new Uint32Array(1));
    if (v! >= 4_000_000_000) continue;
    out += String(v! % 10);
  }
  return out;
}

export async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sig = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message));
  return [...new Uint8Array(sig)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compares two equal-length hex digests without an early exit. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const EMAIL_RE = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;

/** Lower-cased, trimmed address or null when it is not a plausible email. */
export function normalizeEmail(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const email = raw.trim().toLowerCase();
  return email.length <= 254 && EMAIL_RE.test(email) ? email : null;
}

/** Whether `email` appears in the comma-separated allow lists (exact addresses or @domains). */
export function allowListed(email: string, emails: string | undefined, domains: string | undefined): boolean {
  const list = (s: string | undefined) => (s ?? "").split(",").map((x) => x.trim().toLowerCase()).filter(Boolean);
  if (list(emails).includes(email)) return true;
  const domain = email.slice(email.lastIndexOf("@") + 1);
  return list(domains).some((d) => d.replace(/^@/, "") === domain);
}

/** Issues a fresh code for `email` (superseding older ones), or "rate_limited". */
export async function issueLoginCode(db: D1Database, secret: string, email: string, now = Date.now()): Promise<{ code: string } | "rate_limited"> {
  const recent = await db
    .prepare("SELECT COUNT(*) AS n FROM login_codes WHERE email = ? AND created_at > ?")
    .bind(email, now - CODE_WINDOW_MS)
    .first<{ n: number }>();
  if ((recent?.n ?? 0) >= MAX_CODES_PER_WINDOW) return "rate_limited";
  const code = randomDigits(LOGIN_CODE_DIGITS);
  await db.batch([
    db.prepare("UPDATE login_codes SET consumed_at = ? WHERE email = ? AND consumed_at IS NULL").bind(now, email),
    db
      .prepare("INSERT INTO login_codes (id, email, code_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)")
      .bind(crypto.randomUUID(), email, await hmacHex(secret, `${email}:${code}`), now, now + LOGIN_CODE_TTL_MS),
    // Housekeeping: rows older than the rate window are no longer needed for anything.
    db.prepare("DELETE FROM login_codes WHERE created_at < ?").bind(now - 2 * CODE_WINDOW_MS),
  ]);
  return { code };
}

/** Checks a guess against the newest live code; counts the attempt first, consumes the code on success. */
export async function checkLoginCode(db: D1Database, secret: string, email: string, guess: string, now = Date.now()): Promise<CodeCheck> {
  const row = await db
    .prepare("SELECT id, code_hash, expires_at, attempts FROM login_codes WHERE email = ? AND consumed_at IS NULL ORDER BY created_at DESC LIMIT 1")
    .bind(email)
    .first<{ id: string; code_hash: string; expires_at: number; attempts: number }>();
  if (!row) return "invalid";
  if (row.expires_at <= now) return "expired";
  const counted = await db
    .prepare("UPDATE login_codes SET attempts = attempts + 1 WHERE id = ? AND attempts < ? AND consumed_at IS NULL RETURNING attempts")
    .bind(row.id, MAX_CODE_ATTEMPTS)
    .first<{ attempts: number }>();
  if (!counted) return "too_many_attempts";
  const digits = guess.replace(/\s+/g, "");
  if (!/^\d+$/.test(digits) || !constantTimeEqual(await hmacHex(secret, `${email}:${digits}`), row.code_hash)) {
    return counted.attempts >= MAX_CODE_ATTEMPTS ? "too_many_attempts" : "invalid";
  }
  const consumed = await db.prepare("UPDATE login_codes SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL").bind(now, row.id).run();
  return consumed.meta.changes === 1 ? "ok" : "invalid";
}
