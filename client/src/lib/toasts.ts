/** App-wide toasts: a signal list; info fades after 4 s, errors after 7 s; same text is not stacked. */
import { createSignal } from "solid-js";

export type Toast = { id: number; kind: "info" | "error"; text: string };
const TOAST_MS = { info: 4_000, error: 7_000 } as const;
const MAX_TOASTS = 4;

const [toasts, setToasts] = createSignal<Toast[]>([]);
const timers = new Map<number, ReturnType<typeof setTimeout>>();
let next = 0;

export { toasts };

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
