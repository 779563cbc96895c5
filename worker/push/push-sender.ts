/**
 * Sends one Web Push message: RFC 8291 payload encryption and the VAPID JWT by @pushforge/builder (Web
 * Crypto, runs on Workers), then a POST to the push service. The VAPID key pair comes from the Worker's
 * secret VAPID_PRIVATE_KEY (a P-256 private JWK as `npx @pushforge/builder vapid` prints it); the
 * public key the browsers subscribe with is derived from it.
 */
import { buildPushHTTPRequest } from "@pushforge/builder";
import { z } from "zod";
import type { PushPayload } from "../../shared/push-api";
import { isLocalStack } from "../auth/local-stack";
import type { Env } from "../env";
import { pushTarget } from "./push-endpoint";
import type { StoredSubscription } from "./push-directory";

/** A push older than this is not worth showing (a permission request or a turn's end an hour late). */
const PUSH_TTL_SECONDS = 60 * 60;

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

export type SendOutcome = { outcome: "sent" } | { outcome: "gone" } | { outcome: "failed"; detail: string };

export async function sendPush(vapid: Vapid, sub: StoredSubscription, payload: PushPayload): Promise<SendOutcome> {
  const target = pushTarget(sub.endpoint, vapid.localStack);
  if (!target) return { outcome: "failed", detail: "endpoint not allowed" };
  try {
    const req = await buildPushHTTPRequest({
      privateJWK: vapid.privateJwk,
      subscription: { endpoint: target.buildFor, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      message: {
        payload,
        adminContact: vapid.subject,
        options: { ttl: PUSH_TTL_SECONDS, urgency: payload.kind === "permission" ? "high" : "normal" },
      },
    });
    const res = await fetch(target.postTo, { method: "POST", headers: req.headers, body: req.body });
    if (res.status === 404 || res.status === 410) return { outcome: "gone" };
    if (!res.ok) return { outcome: "failed", detail: `${res.status} ${(await res.text().catch(() => "")).slice(0, 200)}` };
    await res.body?.cancel();
    return { outcome: "sent" };
  } catch (err) {
    return { outcome: "failed", detail: err instanceof Error ? err.message : String(err) };
  }
}

function fromBase64Url(s: string): Uint8Array {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
