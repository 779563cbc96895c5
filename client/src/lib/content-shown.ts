/**
 * The page's first content is on screen — a session's join rendered, the home page's first page of sessions —
 * and what waits for it may start (the service worker's precache: push/register-sw.ts).
 */
let shown!: () => void;
export const contentShown = new Promise<void>((resolve) => (shown = resolve));

/** Called by the page that showed its content; later calls do nothing. */
export function markContentShown(): void {
  shown();
}
