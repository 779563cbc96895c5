import { createSignal } from "solid-js";

export type Toast = { id: number; kind: "info" | "error"; text: string };
const TOAST_MS = 4000;
const [toasts, setToasts] = createSignal<Toast[]>([]);
let next = 0;

export { toasts };
export function toast(text: string, kind: Toast["kind"] = "info"): void {
  const id = ++next;
  setToasts((t) => [...t.slice(-3), { id, kind, text }]);
  setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), TOAST_MS);
}
