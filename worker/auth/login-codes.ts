/**
 * Built-in sign-in, part 1: one-time email codes. A code is random digits, stored only as
 * HMAC-SHA-256(AUTH_SECRET, email:binding:code), valid for a few minutes, good for a few guesses.
 *
 * A code is bound to the browser that asked for it (`binding`: a random value in that browser's login
 * cookie), so a stranger asking for codes or guessing for someone's address only ever touches codes of
 * their own: they can neither supersede nor burn the person's code. A new request supersedes only the
 * same browser's previous code. Limits: per address and client, per client across addresses (what one
 * client can trigger), and per address overall (mail volume to one inbox).
 */

/** Digits per code: 10^6 values against MAX_CODE_ATTEMPTS guesses per code and MAX_CODES_PER_WINDOW codes per window. */
export const LOGIN_CODE_DIGITS = 6;
/** Long enough to switch to the mail app and back; short enough that a leaked code goes stale fast. */
export const LOGIN_CODE_TTL_MS = 10 * 60_000;
/** Wrong guesses allowed per code before it is burnt (≈ 5 in a million chance per code). */
export const MAX_CODE_ATTEMPTS = 5;
/** Codes one client may request for one address per window: bounds its guesses per hour (5 × 5 per address). */
export const MAX_CODES_PER_WINDOW = 5;
/** Codes one client may request across all addresses per window: what one client can make the server mail. */
export const MAX_CODES_PER_CLIENT = 10;
/**
 * Codes one address may receive per window from all clients together: bounds mail volume to an inbox. Above
 * MAX_CODES_PER_CLIENT, so no single client can use it up and lock the person out.
 */
export const MAX_CODES_PER_ADDRESS = 20;
export const CODE_WINDOW_MS = 60 * 60_000;

export type CodeCheck = "ok" | "invalid" | "expired" | "too_many_attempts";
export type CodeIssue = { code: string } | "rate_limited_address" | "rate_limited_client";

/** Who asks: the client (its IP as the edge reports it) and the asking browser's login-cookie value. */
export type CodeRequester = { client: string; binding: string };

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

/**
 * Issues a fresh code for `email` to one browser (superseding that browser's older code), unless a limit
 * is reached: this client for this address or for all addresses → `rate_limited_client`; the address
 * from all clients → `rate_limited_address`.
 */
export async function issueLoginCode(db: D1Database, secret: string, email: string, who: CodeRequester, now = Date.now()): Promise<CodeIssue> {
  const since = now - CODE_WINDOW_MS;
  const counts = await db
    .prepare(
      `SELECT
         SUM(CASE WHEN email = ?1 AND client = ?2 THEN 1 ELSE 0 END) AS mine,
         SUM(CASE WHEN client = ?2 THEN 1 ELSE 0 END) AS client,
         SUM(CASE WHEN email = ?1 THEN 1 ELSE 0 END) AS address
       FROM login_codes WHERE created_at > ?3 AND (email = ?1 OR client = ?2)`,
    )
    .bind(email, who.client, since)
    .first<{ mine: number | null; client: number | null; address: number | null }>();
  if ((counts?.mine ?? 0) >= MAX_CODES_PER_WINDOW || (counts?.client ?? 0) >= MAX_CODES_PER_CLIENT) return "rate_limited_client";
  if ((counts?.address ?? 0) >= MAX_CODES_PER_ADDRESS) return "rate_limited_address";
  const code = randomDigits(LOGIN_CODE_DIGITS);
  const binding = await bindingHash(who.binding);
  await db.batch([
    db.prepare("UPDATE login_codes SET consumed_at = ? WHERE email = ? AND binding = ? AND consumed_at IS NULL").bind(now, email, binding),
    db
      .prepare("INSERT INTO login_codes (id, email, code_hash, created_at, expires_at, client, binding) VALUES (?, ?, ?, ?, ?, ?, ?)")
      .bind(crypto.randomUUID(), email, await hmacHex(secret, `${email}:${who.binding}:${code}`), now, now + LOGIN_CODE_TTL_MS, who.client, binding),
    // Housekeeping: rows older than the rate window are no longer needed for anything.
    db.prepare("DELETE FROM login_codes WHERE created_at < ?").bind(now - 2 * CODE_WINDOW_MS),
  ]);
  return { code };
}

/** The login cookie's value is a secret of that browser: D1 keeps only its hash, to find the browser's codes. */
async function bindingHash(binding: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(binding));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Checks a guess against the newest live code this browser asked for; counts the attempt first, consumes
 * the code on success. Another browser's codes (a stranger's, or the person's own other device) are untouched.
 */
export async function checkLoginCode(db: D1Database, secret: string, email: string, binding: string, guess: string, now = Date.now()): Promise<CodeCheck> {
  if (!binding) return "invalid";
  const row = await db
    .prepare(
      "SELECT id, code_hash, expires_at, attempts FROM login_codes WHERE email = ? AND binding = ? AND consumed_at IS NULL ORDER BY created_at DESC LIMIT 1",
    )
    .bind(email, await bindingHash(binding))
    .first<{ id: string; code_hash: string; expires_at: number; attempts: number }>();
  if (!row) return "invalid";
  if (row.expires_at <= now) return "expired";
  const counted = await db
    .prepare("UPDATE login_codes SET attempts = attempts + 1 WHERE id = ? AND attempts < ? AND consumed_at IS NULL RETURNING attempts")
    .bind(row.id, MAX_CODE_ATTEMPTS)
    .first<{ attempts: number }>();
  if (!counted) return "too_many_attempts";
  const digits = guess.replace(/\s+/g, "");
  if (!/^\d+$/.test(digits) || !constantTimeEqual(await hmacHex(secret, `${email}:${binding}:${digits}`), row.code_hash)) {
    return counted.attempts >= MAX_CODE_ATTEMPTS ? "too_many_attempts" : "invalid";
  }
  const consumed = await db.prepare("UPDATE login_codes SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL").bind(now, row.id).run();
  return consumed.meta.changes === 1 ? "ok" : "invalid";
}
