/**
 * Web Push: the HTTP API between the client (page and service worker) and the Worker, and the payload a
 * push carries. One home for these shapes; worker/push/* serves them, client/src/push/* and the service
 * worker use them.
 *
 *   GET    /api/push/config                → PushConfig (the VAPID public key; null when push is off here)
 *   POST   /api/push/subscriptions         ← PushSubscriptionBody  → 201 { id }   (same endpoint again: refreshed)
 *   DELETE /api/push/subscriptions         ← { endpoint }          → 204
 *   GET    /api/push/preferences           → PushPreferences
 *   PUT    /api/push/preferences           ← PushPreferences       → PushPreferences
 *   PUT    /api/sessions/:id/push-mute     ← { muted }             → { muted }
 *   POST   /api/push/action                ← PushActionBody        → PushActionResult (200) | 409 { error: "ALREADY_ANSWERED", by }
 */
import { z } from "zod";

/** What can notify; each user turns each on or off (all on by default). */
export const PushEventKind = z.enum(["permission", "turn_ended", "turn_failed", "machine_offline", "queued_started"]);
export type PushEventKind = z.infer<typeof PushEventKind>;

export const PushConfig = z.object({ publicKey: z.string().nullable() });
export type PushConfig = z.infer<typeof PushConfig>;

/** `PushSubscription.toJSON()` as the browser gives it, plus a label for the settings list. */
export const PushSubscriptionBody = z.object({
  endpoint: z.string().url().max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(1).max(256), auth: z.string().min(1).max(64) }),
  deviceLabel: z.string().max(120).optional(),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

export const PushUnsubscribeBody = z.object({ endpoint: z.string().url().max(2048) });

export const PushPreferences = z.object({
  events: z.record(PushEventKind, z.boolean()),
  mutedSessions: z.array(z.string()),
});
export type PushPreferences = z.infer<typeof PushPreferences>;

export const PushMuteBody = z.object({ muted: z.boolean() });

/** A notification's Approve / Deny button: which of the agent's permission options it answers with. */
export const PushAction = z.object({ action: z.enum(["approve", "deny"]), optionId: z.string(), title: z.string() });
export type PushAction = z.infer<typeof PushAction>;

/** The decrypted push message; the service worker shows it as is (text already short and sanitised). */
export const PushPayload = z.object({
  kind: PushEventKind,
  sessionId: z.string(),
  title: z.string().max(120),
  body: z.string().max(240),
  /** Same tag replaces the earlier notification (one per session and kind). */
  tag: z.string(),
  /** Path to open when the body is tapped. */
  url: z.string(),
  /** Present on "permission": the request and its two buttons. */
  permission: z.object({ requestId: z.string(), actions: z.array(PushAction).max(2) }).optional(),
});
export type PushPayload = z.infer<typeof PushPayload>;

export const PushActionBody = z.object({ sessionId: z.string().min(1).max(128), requestId: z.string().min(1).max(256), optionId: z.string().min(1).max(256) });
export type PushActionBody = z.infer<typeof PushActionBody>;

export const PushActionResult = z.object({ ok: z.literal(true) });
export const PushActionConflict = z.object({ error: z.literal("ALREADY_ANSWERED"), by: z.string().nullable() });
