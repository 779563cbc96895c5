/**
 * The D1 side of Web Push (migrations/0006_push.sql): subscriptions per user per device, each user's
 * event choices and session mutes, and who follows a session with a subscription. The rules over them
 * (who gets what) are in notify-rules.ts.
 */
import { PushEventKind, type PushPreferences, type PushSubscriptionBody } from "../../shared/push-api";
import type { Role } from "../d1-directory";

export type StoredSubscription = { id: string; userId: string; endpoint: string; p256dh: string; auth: string };

/** Every event kind on: what a user who never chose gets. */
export const DEFAULT_PUSH_EVENTS: Record<PushEventKind, boolean> = Object.fromEntries(PushEventKind.options.map((k) => [k, true])) as Record<
  PushEventKind,
  boolean
>;

/** A stored `events_json` over the defaults (a kind added later is on; junk is ignored). */
export function eventsFrom(json: string | null): Record<PushEventKind, boolean> {
  const events = { ...DEFAULT_PUSH_EVENTS };
  if (!json) return events;
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === "object")
      for (const k of PushEventKind.options) {
        const v = (parsed as Record<string, unknown>)[k];
        if (typeof v === "boolean") events[k] = v;
      }
  } catch {
    /* a corrupt row reads as the defaults */
  }
  return events;
}

/**
 * Adds the browser's subscription, or refreshes it when the endpoint is known (keys, label, owner: the
 * device now belongs to whoever signed in on it last). Returns its id.
 */
export async function saveSubscription(
  db: D1Database,
  userId: string,
  body: PushSubscriptionBody,
  authSessionHash: string | null,
  now = Date.now(),
): Promise<string> {
  const id = crypto.randomUUID();
  const row = await db
    .prepare(
      `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, label, auth_session_hash, created_at, refreshed_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)
       ON CONFLICT(endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
         label = excluded.label, auth_session_hash = excluded.auth_session_hash, refreshed_at = excluded.refreshed_at
       RETURNING id`,
    )
    .bind(id, userId, body.endpoint, body.keys.p256dh, body.keys.auth, body.deviceLabel ?? null, authSessionHash, now)
    .first<{ id: string }>();
  return row?.id ?? id;
}

/** Removes this user's subscription for an endpoint; false when they had none there. */
export async function deleteSubscription(db: D1Database, userId: string, endpoint: string): Promise<boolean> {
  const r = await db.prepare("DELETE FROM push_subscriptions WHERE user_id = ? AND endpoint = ?").bind(userId, endpoint).run();
  return r.meta.changes > 0;
}

/** The push service said the subscription is gone (404 / 410). */
export async function deleteSubscriptionById(db: D1Database, id: string): Promise<void> {
  await db.prepare("DELETE FROM push_subscriptions WHERE id = ?").bind(id).run();
}

/** Sign-out: the subscriptions made under that sign-in. */
export async function deleteSubscriptionsOfAuthSession(db: D1Database, authSessionHash: string): Promise<void> {
  await db.prepare("DELETE FROM push_subscriptions WHERE auth_session_hash = ?").bind(authSessionHash).run();
}

/** A guest signed out everywhere (their last invitation withdrawn): none of their devices is told anything. */
export async function deleteSubscriptionsOfUser(db: D1Database, userId: string): Promise<void> {
  await db.prepare("DELETE FROM push_subscriptions WHERE user_id = ?").bind(userId).run();
}

export async function readPreferences(db: D1Database, userId: string): Promise<PushPreferences> {
  const [prefs, mutes] = await db.batch([
    db.prepare("SELECT events_json FROM push_preferences WHERE user_id = ?").bind(userId),
    db.prepare("SELECT session_id FROM push_mutes WHERE user_id = ? ORDER BY created_at").bind(userId),
  ]);
  const eventsJson = (prefs?.results[0] as { events_json?: string } | undefined)?.events_json ?? null;
  return { events: eventsFrom(eventsJson), mutedSessions: (mutes?.results ?? []).map((r) => (r as { session_id: string }).session_id) };
}

/** Replaces the user's event choices and mutes (only sessions they can see are kept). */
export async function writePreferences(db: D1Database, userId: string, prefs: PushPreferences, now = Date.now()): Promise<PushPreferences> {
  await db.batch([
    db
      .prepare("INSERT INTO push_preferences (user_id, events_json, updated_at) VALUES (?, ?, ?) ON CONFLICT(user_id) DO UPDATE SET events_json = excluded.events_json, updated_at = excluded.updated_at")
      .bind(userId, JSON.stringify({ ...DEFAULT_PUSH_EVENTS, ...prefs.events }), now),
    db.prepare("DELETE FROM push_mutes WHERE user_id = ?").bind(userId),
    ...[...new Set(prefs.mutedSessions)].map((sessionId) =>
      db
        .prepare(
          `INSERT INTO push_mutes (user_id, session_id, created_at)
           SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM session_members WHERE session_id = ?2 AND user_id = ?1)`,
        )
        .bind(userId, sessionId, now),
    ),
  ]);
  return readPreferences(db, userId);
}

export async function setSessionMuted(db: D1Database, userId: string, sessionId: string, muted: boolean, now = Date.now()): Promise<void> {
  if (muted)
    await db.prepare("INSERT INTO push_mutes (user_id, session_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING").bind(userId, sessionId, now).run();
  else await db.prepare("DELETE FROM push_mutes WHERE user_id = ? AND session_id = ?").bind(userId, sessionId).run();
}

/** A follower of a session who has at least one subscription: their role, choices, mute and devices. */
export type PushFollower = {
  userId: string;
  role: Role;
  events: Record<PushEventKind, boolean>;
  muted: boolean;
  subscriptions: StoredSubscription[];
};

/** Everyone with access to the session (owner, members, viewers) who has a push subscription. */
export async function pushFollowers(db: D1Database, sessionId: string): Promise<PushFollower[]> {
  const { results } = await db
    .prepare(
      `SELECT m.user_id AS userId, m.role, p.events_json AS eventsJson, (mu.user_id IS NOT NULL) AS muted,
              s.id, s.endpoint, s.p256dh, s.auth
       FROM session_members m
       JOIN push_subscriptions s ON s.user_id = m.user_id
       LEFT JOIN push_preferences p ON p.user_id = m.user_id
       LEFT JOIN push_mutes mu ON mu.user_id = m.user_id AND mu.session_id = m.session_id
       WHERE m.session_id = ?`,
    )
    .bind(sessionId)
    .all<{ userId: string; role: Role; eventsJson: string | null; muted: number; id: string; endpoint: string; p256dh: string; auth: string }>();
  const byUser = new Map<string, PushFollower>();
  for (const r of results) {
    let f = byUser.get(r.userId);
    if (!f) byUser.set(r.userId, (f = { userId: r.userId, role: r.role, events: eventsFrom(r.eventsJson), muted: r.muted === 1, subscriptions: [] }));
    f.subscriptions.push({ id: r.id, userId: r.userId, endpoint: r.endpoint, p256dh: r.p256dh, auth: r.auth });
  }
  return [...byUser.values()];
}
