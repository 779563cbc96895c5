/**
 * The auth-mode files' settleDaemons (harness.ts's needs dev identity): each tunnel a test opened is closed, and
 * the file waits until every user's session list heard its sessions go offline. A file that ends with the
 * Machine → room → feed calls in flight fails the run with an unhandled "Closing rpc while "resolve" was pending".
 */
import { exports } from "cloudflare:workers";
import { SessionFeedFrame } from "../../shared/session-list";
import { ORIGIN, type TestDaemon, waitFor } from "./harness";

/** Who sees which of the machine's sessions (their feeds hear the machine go offline). */
export type Watchers = { headers: Record<string, string>; sessionIds: string[] }[];

const tracked: { daemon: TestDaemon; watchers: Watchers }[] = [];

/** Remember a test daemon and who follows its sessions; `settleTracked` ends them. */
export function track(daemon: TestDaemon, watchers: Watchers): void {
  tracked.push({ daemon, watchers });
}

export async function settleTracked(): Promise<void> {
  for (const { daemon, watchers } of tracked.splice(0)) {
    // Closed by its test: the rooms heard it then.
    if (!daemon.welcomed) continue;
    const feeds = await Promise.all(
      watchers.map(async (w) => {
        const res = await exports.default.fetch(`${ORIGIN}/api/sessions/feed`, { headers: { Upgrade: "websocket", Origin: ORIGIN, ...w.headers } });
        const ws = res.webSocket!;
        ws.accept();
        const offline = new Set<string>();
        ws.addEventListener("message", (e) => {
          const f = SessionFeedFrame.parse(JSON.parse(e.data as string));
          if (f.type === "upsert" && f.item.status === "offline") offline.add(f.item.id);
        });
        return { ws, offline, want: w.sessionIds };
      }),
    );
    daemon.close();
    for (const f of feeds) {
      await waitFor(() => f.want.every((id) => f.offline.has(id)), "the sessions offline on every feed", 10_000).catch(() => {});
      f.ws.close(1000, "bye");
    }
  }
}
