/**
 * The feed's adapter: read who sees a changed session (D1), let feed-rules.ts decide the frames, call each
 * user's SessionFeed. Best effort: callers run it in `waitUntil`; a failure is logged, never thrown at a turn.
 */
import { type Env, feedStub } from "../env";
import { machineMemberItems, memberItems } from "../session-list/session-list-directory";
import { deliveriesFor, type FeedChange } from "./feed-rules";

export async function publish(env: Env, changes: FeedChange[]): Promise<void> {
  await Promise.all(
    deliveriesFor(changes).map((d) =>
      feedStub(env, d.userId)
        .deliver(d.frames)
        .catch((err: unknown) => console.error("feed delivery failed", d.userId, err)),
    ),
  );
}

/** The session changed: each member (or only `onlyUser`) gets the row as they see it now. */
export async function publishSession(env: Env, sessionId: string, onlyUser?: string): Promise<void> {
  await publish(env, [{ kind: "upsert", rows: await memberItems(env.DB, sessionId), ...(onlyUser !== undefined ? { onlyUser } : {}) }]);
}

/** A directory write that says whether it changed anything; when it did, the members hear of it. */
export async function publishIfChanged(env: Env, sessionId: string, write: Promise<boolean>, onlyUser?: string): Promise<void> {
  try {
    if (await write) await publishSession(env, sessionId, onlyUser);
  } catch (err) {
    console.error("session list update failed", sessionId, err);
  }
}

/** A machine went online or offline: every one of its sessions shows it. */
export async function publishMachine(env: Env, machineId: string): Promise<void> {
  try {
    const rows = await machineMemberItems(env.DB, machineId);
    const bySession = new Map<string, typeof rows>();
    for (const r of rows) bySession.set(r.item.id, [...(bySession.get(r.item.id) ?? []), r]);
    await publish(env, [...bySession.values()].map((sessionRows) => ({ kind: "upsert" as const, rows: sessionRows })));
  } catch (err) {
    console.error("machine list update failed", machineId, err);
  }
}
