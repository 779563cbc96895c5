/**
 * App-wide toasts: a signal list; info fades after 4 s, errors after 7 s; same text is not stacked.
 * Only for feedback that is not visible otherwise (a refusal, a race lost): state the page shows
 * (a queue chip, a control's note) gets no toast. A view may host them in its own flow (the session
 * view, above the composer, so they cover nothing being read); elsewhere they float at the bottom.
 */
import { createSignal, onCleanup } from "solid-js";

export type Toast = { id: number; kind: "info" | "error"; text: string };
const TOAST_MS = { info: 4_000, error: 7_000 } as const;
const MAX_TOASTS = 4;

const [toasts, setToasts] = createSignal<Toast[]>([]);
const timers = new Map<number, ReturnType<typeof setTimeout>>();
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

export function dismissToast(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  setToasts((t) => t.filter((x) => x.id !== id));
}

export function toast(text: string, kind: Toast["kind"] = "info"): void {
  const same = toasts().find((t) => t.text === text && t.kind === kind);
  if (same) dismissToast(same.id);
  const id = ++next;
  setToasts((t) => [...t.slice(-(MAX_TOASTS - 1)), { id, kind, text }]);
  timers.set(
    id,
    setTimeout(() => dismissToast(id), TOAST_MS[kind]),
  );
}
