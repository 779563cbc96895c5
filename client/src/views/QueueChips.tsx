import { batch, createEffect, createMemo, createSignal, For, on, onCleanup, Show } from "solid-js";
import type { QueueEntry, SteerOutcome } from "../../../shared/viewer-protocol";
import { createDismiss } from "../lib/create-dismiss";
import { createChipDrag } from "../session/create-chip-drag";
import { applyMove, editedBlocks, editMode, entryText, isEditDirty, moveTarget, orderBy } from "../session/queue-logic";
import { type ChipList, ChipListContext, type Editing, type QueueActions, QueueChip } from "./QueueChip";

type Props = {
  entries: QueueEntry[];
  /** What the chips do: the session's actions. */
  actions: QueueActions;
  canAct: boolean;
  /** The agent advertised steering and a turn runs: offer "send into the running turn". */
  steering: boolean;
  turnActive?: boolean;
  /** The session's queue depth setting: above 1, ✎ edits in place instead of taking back. */
  queueDepth?: number;
  steer?: Record<string, SteerOutcome>;
  viewerId?: string | null;
};

/**
 * The queue: a list of QueueChip floating above the composer card, right-aligned. Never a transcript row.
 * The list holds what spans chips: the order shown while a move travels, focus through re-renders, the
 * drag, the one open ⋯ menu and the one open editor.
 */
export function QueueChips(props: Props) {
  /** The order a move will produce, shown until the room answers (no jump back while it travels). */
  const [pending, setPending] = createSignal<string[] | null>(null);
  /** Narrow screens fold steer / move into a per-chip "⋯" menu. */
  const [menu, setMenu] = createSignal<string | null>(null);
  const [editing, setEditing] = createSignal<Editing | null>(null);
  const [saving, setSaving] = createSignal(false);
  let listEl: HTMLDivElement | undefined;
  // A tap anywhere else (or Escape) closes the ⋯ menu.
  createDismiss({
    isOpen: () => menu() !== null,
    close: () => setMenu(null),
    inside: (t) => !!(t as Element | null)?.closest?.(".chip-extra, .chip-more-btn"),
  });

  const shown = createMemo(() => orderBy(props.entries, pending()));
  const ids = () => shown().map((e) => e.id);
  const stacked = () => props.entries.length > 1;
  const mode = () => editMode(props.queueDepth ?? 1);
  const chipEls = () => Array.from(listEl?.querySelectorAll<HTMLElement>("[data-entry-id]") ?? []);
  const chipEl = (id: string) => chipEls().find((el) => el.dataset["entryId"] === id) ?? null;

  // A chip moved from the keyboard loses focus whenever the list re-renders around it — the optimistic
  // order, the room's queue_state, the ack — in whichever order they land (a reconnect's replay can
  // hold the queue_state until after the ack). It keeps focus through every one of them until the
  // reader focuses something else.
  let keepFocus: string | null = null;
  const restoreFocus = () => {
    const el = keepFocus ? chipEl(keepFocus) : null;
    if (el && (document.activeElement === document.body || document.activeElement === null)) el.focus();
  };
  createEffect(on(shown, () => keepFocus && queueMicrotask(restoreFocus), { defer: true }));
  const onFocusIn = (ev: FocusEvent) => {
    if (keepFocus && !(ev.target instanceof HTMLElement && ev.target.dataset["entryId"] === keepFocus)) keepFocus = null;
  };
  document.addEventListener("focusin", onFocusIn);
  onCleanup(() => document.removeEventListener("focusin", onFocusIn));

  const move = (id: string, before: string | null, refocus: boolean) => {
    if (refocus) keepFocus = id;
    setPending(applyMove(ids(), id, before));
    // Clearing `pending` re-renders the list, and the effect above gives focus back.
    void Promise.resolve(props.actions.move(id, before)).finally(() => setPending(null));
  };
  const step = (id: string, delta: -1 | 1, refocus: boolean) => {
    const t = moveTarget(ids(), id, delta);
    if (t) move(id, t.before, refocus);
  };
  const drag = createChipDrag({
    ids,
    chips: chipEls,
    onMove: (id, before) => move(id, before, false),
  });

  // The entry under the editor ran / was cancelled / dropped: its unsaved text goes to the draft.
  createEffect(() => {
    const ed = editing();
    if (!ed || saving() || props.entries.some((e) => e.id === ed.entry.id)) return;
    if (isEditDirty(ed.original, ed.text)) props.actions.editLost(ed.entry, ed.text);
    setEditing(null);
  });

  const startEdit = (e: QueueEntry) => {
    setMenu(null);
    if (mode() === "takeBack") return void props.actions.takeBack(e.id);
    const text = entryText(e.blocks);
    setEditing({ entry: e, original: text, text });
  };
  const save = async () => {
    const ed = editing();
    if (!ed || saving() || !editedBlocks(ed.entry.blocks, ed.text)) return;
    if (ed.text === ed.original) return setEditing(null);
    setSaving(true);
    const close = await props.actions.edit(ed.entry, ed.text);
    batch(() => {
      setSaving(false);
      if (close) setEditing(null);
    });
  };

  const list: ChipList = {
    get actions() {
      return props.actions;
    },
    canAct: () => props.canAct,
    steering: () => props.steering,
    turnActive: () => !!props.turnActive,
    count: () => props.entries.length,
    stacked,
    mode,
    steerOutcome: (id) => props.steer?.[id],
    viewerId: () => props.viewerId,
    menu,
    setMenu,
    editing,
    setEditing,
    saving,
    drag,
    step,
    startEdit,
    save,
    chipEl,
  };

  return (
    <ChipListContext.Provider value={list}>
      <Show when={props.entries.length}>
        <div class="chips" classList={{ "chips-editing": !!editing(), "chips-dragging": !!drag.dragging() }} role="list" aria-label="Queued messages" ref={listEl}>
          <For each={shown()}>{(e, i) => <QueueChip entry={e} index={i()} />}</For>
        </div>
      </Show>
    </ChipListContext.Provider>
  );
}
