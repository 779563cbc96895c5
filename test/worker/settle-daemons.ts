/**
 * Each workerd test file ends with no tunnel open and no Machine → room → feed call in flight. A file that
 * ends while the Machine is still telling its rooms (and the rooms their members' session lists) that it
 * went offline fails the whole run with vitest's "Closing rpc while "resolve" was pending" — an unhandled
 * error, exit 1, though every test passed.
 *
 * Needs no sign-in (so the auth-mode projects use it too): the rooms are read with runInDurableObject,
 * and each member's session list is watched on its SessionFeed object itself.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll } from "vitest";
import { SessionFeedFrame } from "../../shared/session-list";
import { memberIds } from "../../worker/session-list/session-list-directory";
import { takeOpenDaemons } from "./harness";

/** How long a member's list must hear nothing more once it saw the sessions offline (the room's and the Machine's publish both land). */
const FEED_QUIET_MS = 300;
/** How long the rooms and lists may take to hear a machine went offline at a file's end (tens of ms when the run is quiet). */
const SETTLE_MS = 30_000;

/** Whether the room believes its machine is online; null when the room has no session (deleted, never made). */
async function roomSaysOnline(sessionId: string): Promise<boolean | null> {
  const stub = env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(sessionId));
  return runInDurableObject(stub, (_instance, state) => {
    try {
      const row = state.storage.sql.exec<{ body: string }>("SELECT body FROM room_state WHERE id = 1").toArray()[0];
      return row ? (JSON.parse(row.body) as { machineOnline?: boolean }).machineOnline !== false : null;
    } catch {
      return null; // no schema: a room that never started
    }
  });
}

/** A member's session list, straight on its SessionFeed (the Worker's route would ask for a sign-in). */
async function watchFeed(userId: string): Promise<{ frames: SessionFeedFrame[]; lastAt: () => number; close(): void }> {
  const res = await env.SESSION_FEED.get(env.SESSION_FEED.idFromName(userId)).fetch("http://feed/", { headers: { Upgrade: "websocket" } });
  const ws = res.webSocket!;
  ws.accept();
  const frames: SessionFeedFrame[] = [];
  let last = Date.now();
  ws.addEventListener("message", (e) => {
    last = Date.now();
    const f = SessionFeedFrame.safeParse(JSON.parse(e.data as string));
    if (f.success) frames.push(f.data);
  });
  return { frames, lastAt: () => last, close: () => ws.close(1000, "settled") };
}

/** Polls `ok` until it holds; past SETTLE_MS says what it waited for and goes on (the file's own tests decided its result). */
async function until(ok: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + SETTLE_MS;
  while (!(await ok())) {
    if (Date.now() > end) return console.warn(`settleDaemons: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Closes every tunnel a file opened (again, if the test closed it) and waits until everything it set off has
 * landed. All at once: a machine goes offline only when its last tunnel closes (a test may open two for one).
 */
export async function settleDaemons(): Promise<void> {
  const daemons = takeOpenDaemons();
  // A tunnel the server dropped (an abort, an eviction): its Machine is gone, nothing of it is in flight.
  const heard = daemons.filter((d) => !d.droppedByServer);
  const sessionIds = [...new Set(heard.flatMap((d) => d.of("session.open").map((c) => c.sessionId)))];
  // Sessions whose room still thinks the machine online will hear it go offline: their members' lists too.
  const online = (await Promise.all(sessionIds.map(async (id) => ((await roomSaysOnline(id)) ? id : null)))).filter((id) => id !== null);
  const users = [...new Set((await Promise.all(online.map((id) => memberIds(env.DB, id)))).flat())];
  const feeds = await Promise.all(users.map(watchFeed));
  for (const d of daemons) d.close();
  try {
    await until(async () => (await Promise.all(online.map(roomSaysOnline))).every((o) => o !== true), "the rooms to see the machine offline");
    const offline = (id: string) => feeds.some((f) => f.frames.some((fr) => fr.type === "upsert" && fr.item.id === id && fr.item.status === "offline"));
    if (feeds.length) await until(() => online.every(offline), "the members' lists to show the sessions offline");
    await until(() => feeds.every((f) => Date.now() - f.lastAt() >= FEED_QUIET_MS), "the members' lists to go quiet");
  } finally {
    for (const f of feeds) f.close();
  }
}

afterAll(settleDaemons, 60_000);
