/** Small display formatters. */

export function timeAgo(t: number, now = Date.now()): string {
  const s = Math.round((now - t) / 1000);
  if (s < 45) return "just now";
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  if (s < 7 * 86_400) return `${Math.round(s / 86_400)} d ago`;
  return new Date(t).toLocaleDateString(undefined, { month: "short", day: "numeric" });
}

/** One formatter for every row: `toLocaleTimeString` builds a new one per call (~1 ms each on a 5k-row load). */
const CLOCK = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });

export function clockTime(t: number): string {
  return CLOCK.format(t);
}

/** `/home/ann/src/baton` → `~/src/baton`-ish short form for headers. */
export function shortPath(p: string): string {
  const m = /^\/(?:home|Users)\/[^/]+(\/.*)?$/.exec(p);
  return m ? `~${m[1] ?? ""}` : p;
}

export const SESSION_STATUS_LABEL: Record<string, string> = {
  starting: "Starting",
  idle: "Idle",
  active: "Running",
  offline: "Machine offline",
  error: "Error",
  closed: "Closed",
};

export function statusLabel(state: string): string {
  return SESSION_STATUS_LABEL[state] ?? state;
}

/** A server message ("that code is not right") as a sentence for the UI ("That code is not right."). */
export function sentence(msg: string): string {
  const t = msg.trim();
  if (!t) return t;
  return t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".");
}
