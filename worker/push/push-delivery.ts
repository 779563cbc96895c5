/**
 * The room's pushes, after the fact (run under ctx.waitUntil, off the turn's hot path): read who follows
 * the session from D1, let notify-rules.ts pick the recipients and the text, send to each of their
 * devices, and forget devices the push service says are gone (404 / 410). Failures are logged.
 */
import type { Env } from "../env";
import { type PushEvent, pushPayload, pushRecipients } from "./notify-rules";
import { deleteSubscriptionById, pushFollowers } from "./push-directory";
import { sendPush, vapidOf } from "./push-sender";

/** `live`: users with a socket on the session when the event happened (they need no buzz). */
export async function deliverPush(env: Env, event: PushEvent, live: ReadonlySet<string>): Promise<void> {
  const vapid = vapidOf(env);
  if (!vapid) return;
  const followers = await pushFollowers(env.DB, event.sessionId);
  const to = new Set(pushRecipients(event, followers, live));
  if (!to.size) return;
  const payload = pushPayload(event);
  const subs = followers.filter((f) => to.has(f.userId)).flatMap((f) => f.subscriptions);
  await Promise.all(
    subs.map(async (sub) => {
      const r = await sendPush(vapid, sub, payload);
      if (r.outcome === "gone") await deleteSubscriptionById(env.DB, sub.id);
      else if (r.outcome === "failed") console.warn("push failed", event.kind, new URL(sub.endpoint).host, r.detail);
    }),
  );
}
