/**
 * App-wide toasts: a signal list; info fades after 4 s, errors after 7 s; same text is not stacked.
 * Only for feedback that is not visible otherwise (a refusal, a race lost): state the page shows
 * (a queue chip, a control's note) gets no toast. A view may host them in its own flow (the session
 * view, above the composer, so they cover nothing being read); elsewhere they float at the bottom.
 * While the pointer is over the list or the focus is in it, no toast goes (holdToasts): someone reading
 * one, or reaching for its Dismiss button, keeps it.
 */
import { createSignal, onCleanup } from "solid-js";

export type Toast = { id: number; kind: "info" | "error"; text: string };
const TOAST_MS = { info: 4_000, error: 7_000 } as const;
const MAX_TOASTS = 4;

const [toasts, setToasts] = createSignal<Toast[]>([]);
/** A toast's countdown: running (`handle`) from `since`, with `left` ms to go when it started or paused. */
type Countdown = { handle: ReturnType<typeof setTimeout> | null; left: number; since: number };
const timers = new Map<number, Countdown>();
/** Why the toasts are held (the pointer over them, the focus in them): none, they count down. */
const holds = new Set<"hover" | "focus">();
/** Time a held toast still gets once let go, however little it had left: to see it before it goes. */
const AFTER_HOLD_MIN_MS = 1_500;
let next = 0;

export { toasts };

const [inlineHosts, setInlineHosts] = createSignal(0);
/** True while a view hosts the toasts in its own layout (the floating list stays empty then). */
export const hostedInline = () => inlineHosts() > 0;
/** Called by a view that shows the toasts in its flow (see Toasts `inline`), for its lifetime. */
export function hostToastsInline(): void {
  setInlineHosts((n) => n + 1);
  onCleanup(() => setInlineHosts((n) => n - 1));
}

function run(id: number, c: Countdown): void {
  c.since = Date.now();
  c.handle = setTimeout(() => dismissToast(id), c.left);
}

function pause(c: Countdown): void {
  if (c.handle === null) return;
  clearTimeout(c.handle);
  c.handle = null;
  c.left = Math.max(AFTER_HOLD_MIN_MS, c.left - (Date.now() - c.since));
}

export function dismissToast(id: number): void {
  const c = timers.get(id);
  if (c?.handle) clearTimeout(c.handle);
  timers.delete(id);
  setToasts((t) => t.filter((x) => x.id !== id));
}

/** Holds every toast while the pointer is over the list or the focus is in it; they count on when both are gone. */
export function holdToasts(why: "hover" | "focus", held: boolean): void {
  const was = holds.size > 0;
  if (held) holds.add(why);
  else holds.delete(why);
  if (was === holds.size > 0) return;
  for (const [id, c] of timers) held ? pause(c) : run(id, c);
}

export function toast(text: string, kind: Toast["kind"] = "info"): void {
  const same = toasts().find((t) => t.text === text && t.kind === kind);
  if (same) dismissToast(same.id);
  const id = ++next;
  setToasts((t) => [...t.slice(-(MAX_TOASTS - 1)), { id, kind, text }]);
  const c: Countdown = { handle: null, left: TOAST_MS[kind], since: Date.now() };
  timers.set(id, c);
  if (holds.size === 0) run(id, c);
}
