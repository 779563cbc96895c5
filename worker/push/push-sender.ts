/**
 * Sends one Web Push message: the payload encrypted for the subscription and a VAPID header
 * (web-push.ts), POSTed to the push service. The VAPID key pair comes from the Worker's secret
 * VAPID_PRIVATE_KEY (a P-256 private JWK, as `npm run vapid` prints
 * it); the public key the browsers subscribe with is derived from it.
 */
import { z } from "zod";
import type { PushPayload } from "../../shared/push-api";
import { isLocalStack } from "../auth/local-stack";
import type { Env } from "../env";
import { pushTarget } from "./push-endpoint";
import type { StoredSubscription } from "./push-directory";
import { encryptPayload, fromBase64Url, toBase64Url, vapidAuthorization } from "./web-push";

/** A push older than this is not worth showing (a permission request or a turn's end an hour late). */
const PUSH_TTL_SECONDS = 60 * 60;
/** A push service that does not answer in this time is given up on (the delivery runs under waitUntil). */
const PUSH_SEND_TIMEOUT_MS = 10_000;

const PrivateJwk = z.object({ kty: z.literal("EC"), crv: z.literal("P-256"), x: z.string().min(1), y: z.string().min(1), d: z.string().min(1) }).passthrough();

export type Vapid = { privateJwk: JsonWebKey; publicKey: string; subject: string; localStack: boolean };

/** The deployment's VAPID setup, or null when push is off (no key, a malformed one, or no subject). */
export function vapidOf(env: Pick<Env, "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT" | "LOCAL_STACK">): Vapid | null {
  if (!env.VAPID_PRIVATE_KEY || !env.VAPID_SUBJECT) return null;
  let jwk: z.infer<typeof PrivateJwk>;
  try {
    const parsed = PrivateJwk.safeParse(JSON.parse(env.VAPID_PRIVATE_KEY));
    if (!parsed.success) return null;
    jwk = parsed.data;
  } catch {
    return null;
  }
  const point = new Uint8Array([4, ...fromBase64Url(jwk.x), ...fromBase64Url(jwk.y)]);
  if (point.length !== 65) return null;
  return { privateJwk: jwk, publicKey: toBase64Url(point), subject: env.VAPID_SUBJECT, localStack: isLocalStack(env) };
}

export const pushEnabled = (env: Pick<Env, "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT" | "LOCAL_STACK">): boolean => vapidOf(env) !== null;

export type SendOutcome = { outcome: "sent" } | { outcome: "gone" } | { outcome: "failed"; detail: string };

export async function sendPush(vapid: Vapid, sub: StoredSubscription, payload: PushPayload): Promise<SendOutcome> {
  const target = pushTarget(sub.endpoint, vapid.localStack);
  if (!target) return { outcome: "failed", detail: "endpoint not allowed" };
  try {
    const body = await encryptPayload(new TextEncoder().encode(JSON.stringify(payload)), { p256dh: sub.p256dh, auth: sub.auth });
    const res = await fetch(target.postTo, {
      method: "POST",
      headers: {
        Authorization: await vapidAuthorization(vapid, target.audienceOf),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        TTL: String(PUSH_TTL_SECONDS),
        Urgency: payload.kind === "permission" ? "high" : "normal",
      },
      body,
      signal: AbortSignal.timeout(PUSH_SEND_TIMEOUT_MS),
    });
    if (res.status === 404 || res.status === 410) return { outcome: "gone" };
    if (!res.ok) return { outcome: "failed", detail: `${res.status} ${(await res.text().catch(() => "")).slice(0, 200)}` };
    await res.body?.cancel();
    return { outcome: "sent" };
  } catch (err) {
    return { outcome: "failed", detail: err instanceof Error ? err.message : String(err) };
  }
}
