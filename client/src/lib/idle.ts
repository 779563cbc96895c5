/**
 * Work that must stay off the first paint's path (loading and warming the markdown renderer, the next
 * page's chunk): run it once the browser is idle after painting, or after IDLE_TIMEOUT_MS at the latest.
 */

/** A busy page (a long replay folding) still gets the work done within this long. */
export const IDLE_TIMEOUT_MS = 1_500;

export function whenIdle(fn: () => void): void {
  // Safari has no requestIdleCallback: wait for the next frame to paint, then a task.
  if (typeof requestIdleCallback === "function") requestIdleCallback(() => fn(), { timeout: IDLE_TIMEOUT_MS });
  else if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => setTimeout(fn, 0));
  else setTimeout(fn, 0);
}
