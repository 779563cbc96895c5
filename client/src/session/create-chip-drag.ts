/**
 * Pointer reorder of the queue chip stack by a grip handle: one path for mouse, touch and pen
 * (HTML5 drag and drop never fires on touch screens). The grip has `touch-action: none`, so a finger
 * drag moves the chip instead of scrolling. Geometry decisions are in queue-logic (pure).
 */
import { createSignal } from "solid-js";
import { dragShift, dropIndex, moveTo } from "./queue-logic";

type Drag = { id: string; pointerId: number; from: number; to: number; startY: number; dy: number; pitch: number };

export function createChipDrag(opts: {
  ids: () => string[];
  /** The chips, in order (each carries `data-entry-id`). */
  chips: () => HTMLElement[];
  onMove: (id: string, before: string | null) => void;
}) {
  const [drag, setDrag] = createSignal<Drag | null>(null);
  let mids: number[] = [];

  const start = (ev: PointerEvent, id: string) => {
    if (ev.pointerType === "mouse" && ev.button !== 0) return;
    const from = opts.ids().indexOf(id);
    if (from < 0) return;
    const rects = opts.chips().map((c) => c.getBoundingClientRect());
    mids = rects.map((r) => r.top + r.height / 2);
    const next = mids[from + 1] ?? null;
    const prev = mids[from - 1] ?? null;
    const pitch = next !== null ? next - mids[from]! : prev !== null ? mids[from]! - prev : rects[from]?.height ?? 0;
    ev.preventDefault();
    try {
      (ev.currentTarget as Element | null)?.setPointerCapture?.(ev.pointerId);
    } catch {
      /* synthetic pointer without an active pointer: moves still arrive on the grip */
    }
    setDrag({ id, pointerId: ev.pointerId, from, to: from, startY: ev.clientY, dy: 0, pitch });
  };

  const move = (ev: PointerEvent) => {
    const d = drag();
    if (!d || ev.pointerId !== d.pointerId) return;
    ev.preventDefault();
    setDrag({ ...d, dy: ev.clientY - d.startY, to: dropIndex(ev.clientY, mids, d.from) });
  };

  const end = (ev: PointerEvent) => {
    const d = drag();
    if (!d || ev.pointerId !== d.pointerId) return;
    setDrag(null);
    const t = moveTo(opts.ids(), d.id, d.to);
    if (t) opts.onMove(d.id, t.before);
  };

  return {
    dragging: () => drag()?.id ?? null,
    start,
    move,
    end,
    cancel: () => setDrag(null),
    /** The CSS translateY for chip `index` (`id`) while a drag is on. */
    offset(id: string, index: number): number {
      const d = drag();
      if (!d) return 0;
      return id === d.id ? d.dy : dragShift(index, d.from, d.to) * d.pitch;
    },
  };
}
