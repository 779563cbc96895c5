import ChevronDown from "lucide-solid/icons/chevron-down";
import ChevronUp from "lucide-solid/icons/chevron-up";
import Clock from "lucide-solid/icons/clock";
import CornerDownRight from "lucide-solid/icons/corner-down-right";
import Ellipsis from "lucide-solid/icons/ellipsis";
import GripVertical from "lucide-solid/icons/grip-vertical";
import Pencil from "lucide-solid/icons/pencil";
import RotateCw from "lucide-solid/icons/rotate-cw";
import X from "lucide-solid/icons/x";
import { batch, createEffect, createMemo, createSignal, For, on, onCleanup, onMount, Show } from "solid-js";
import { createDismiss } from "../lib/create-dismiss";
import { promptPreview } from "../../../shared/blocks";
import type { QueueEntry, SteerOutcome } from "../../../shared/viewer-protocol";
import { isSendKey } from "../session/composer-logic";
import { createChipDrag } from "../session/create-chip-drag";
import {
  applyMove,
  chipLabel,
  chipNote,
  editedBlocks,
  editMode,
  entryText,
  isEditDirty,
  moveTarget,
  orderBy,
  retryAction,
} from "../session/queue-logic";

type Props = {
  entries: QueueEntry[];
  canAct: boolean;
  /** The agent advertised steering and a turn runs: offer "send into the running turn". */
  steering: boolean;
  turnActive?: boolean;
  /** The session's queue depth setting: above 1, ✎ edits in place instead of taking back. */
  queueDepth?: number;
  steer?: Record<string, SteerOutcome>;
  viewerId?: string | null;
  onCancel: (id: string) => void;
  onTakeBack: (id: string) => void;
  onSteer: (id: string) => void;
  onMove: (id: string, before: string | null) => unknown;
  /** Saves an in-place edit; resolves true when the editor may close. */
  onEdit: (entry: QueueEntry, text: string) => Promise<boolean>;
  /** The entry under an open editor left the queue: keep the unsaved text. */
  onEditLost: (entry: QueueEntry, text: string) => void;
  /** Explicit retry of an unconfirmed (indeterminate) entry. */
  onRetry: (id: string) => void;
};

type Editing = { entry: QueueEntry; original: string; text: string };

/** The queue: chips floating above the composer card, right-aligned. Never a transcript row. */
export function QueueChips(props: Props) {
  /** The order a move will produce, shown until the room answers (no jump back while it travels). */
  const [pending, setPending] = createSignal<string[] | null>(null);
  /** Narrow screens fold steer / move into a per-chip "⋯" menu. */
  const [menu, setMenu] = createSignal<string | null>(null);
  const [editing, setEditing] = createSignal<Editing | null>(null);
  const [saving, setSaving] = createSignal(false);
  let list: HTMLDivElement | undefined;
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
  const chipEls = () => Array.from(list?.querySelectorAll<HTMLElement>("[data-entry-id]") ?? []);
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
    void Promise.resolve(props.onMove(id, before)).finally(() => setPending(null));
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
    if (isEditDirty(ed.original, ed.text)) props.onEditLost(ed.entry, ed.text);
    setEditing(null);
  });

  const startEdit = (e: QueueEntry) => {
    setMenu(null);
    if (mode() === "takeBack") return props.onTakeBack(e.id);
    const text = entryText(e.blocks);
    setEditing({ entry: e, original: text, text });
  };
  const save = async () => {
    const ed = editing();
    if (!ed || saving() || !editedBlocks(ed.entry.blocks, ed.text)) return;
    if (ed.text === ed.original) return setEditing(null);
    setSaving(true);
    const close = await props.onEdit(ed.entry, ed.text);
    batch(() => {
      setSaving(false);
      if (close) setEditing(null);
    });
  };

  return (
    <Show when={props.entries.length}>
      <div class="chips" classList={{ "chips-editing": !!editing(), "chips-dragging": !!drag.dragging() }} role="list" aria-label="Queued messages" ref={list}>
        <For each={shown()}>
          {(e, i) => {
            const busy = () => e.state === "steering";
            const unconfirmed = () => e.state === "indeterminate";
            const note = () => chipNote(e, props.steer?.[e.id]);
            const byOther = () => !!props.viewerId && e.author.id !== props.viewerId;
            const isEditing = () => editing()?.entry.id === e.id;
            const canReorder = () => props.canAct && stacked() && !editing() && !busy();
            const retry = () => retryAction(!!props.turnActive);
            return (
              <div
                class={`chip chip-${e.state}`}
                classList={{ dragging: drag.dragging() === e.id, editing: isEditing() }}
                style={{ transform: drag.offset(e.id, i()) ? `translateY(${drag.offset(e.id, i())}px)` : undefined }}
                role="listitem"
                data-testid="queue-chip"
                data-entry-id={e.id}
                tabindex="0"
                aria-keyshortcuts={props.canAct && stacked() ? "Alt+ArrowUp Alt+ArrowDown" : undefined}
                aria-label={`${chipLabel(e, i(), props.entries.length)}: ${promptPreview(e.blocks, 80)}`}
                title={isEditing() ? undefined : `Queued by ${e.author.name} — sends when the agent is idle`}
                onKeyDown={(ev) => {
                  if (!canReorder() || !ev.altKey || ev.target !== ev.currentTarget) return;
                  if (ev.key === "ArrowUp" || ev.key === "ArrowDown") {
                    ev.preventDefault();
                    step(e.id, ev.key === "ArrowUp" ? -1 : 1, true);
                  }
                }}
              >
                <Show when={props.canAct && stacked()}>
                  <span
                    class="chip-grip"
                    classList={{ disabled: !canReorder() }}
                    data-testid="chip-grip"
                    aria-hidden="true"
                    title="Drag to reorder"
                    onPointerDown={(ev) => canReorder() && drag.start(ev, e.id)}
                    onPointerMove={(ev) => drag.move(ev)}
                    onPointerUp={(ev) => drag.end(ev)}
                    onPointerCancel={() => drag.cancel()}
                  >
                    <GripVertical size={16} />
                  </span>
                </Show>
                <span class="chip-clock" aria-hidden="true">
                  <Clock size={15} />
                </span>
                <span class="chip-label">{chipLabel(e, i(), props.entries.length)}</span>
                <Show when={byOther()}>
                  <span class="chip-author">{e.author.name}</span>
                </Show>
                <Show when={!isEditing()}>
                  <span class="chip-preview">{promptPreview(e.blocks, 120)}</span>
                </Show>
                <Show when={note()}>
                  <span class="chip-note" data-testid="chip-note">
                    {note()}
                  </span>
                </Show>
                <Show when={isEditing()}>
                  <span class="chip-spacer" />
                </Show>
                <Show when={props.canAct && !isEditing()}>
                  <span class="chip-actions">
                    <Show when={unconfirmed()}>
                      <button class="btn btn-quiet btn-sm chip-retry" data-testid="chip-retry" title={retry().title} onClick={() => props.onRetry(e.id)}>
                        <RotateCw size={15} aria-hidden="true" />
                        {retry().label}
                      </button>
                    </Show>
                    <Show when={stacked() || (props.steering && !unconfirmed())}>
                      <button
                        class="icon-btn chip-more-btn"
                        aria-label="More actions"
                        aria-expanded={menu() === e.id}
                        data-testid="chip-more"
                        onClick={() => setMenu((m) => (m === e.id ? null : e.id))}
                      >
                        <Ellipsis size={18} />
                      </button>
                    </Show>
                    <span class="chip-extra" classList={{ open: menu() === e.id }} onClick={() => setMenu(null)}>
                      <Show when={stacked()}>
                        <button
                          class="icon-btn compact"
                          aria-label="Move earlier"
                          title="Move earlier (Alt+↑)"
                          disabled={i() === 0 || !canReorder()}
                          onClick={() => step(e.id, -1, false)}
                        >
                          <ChevronUp size={16} />
                          <span class="menu-label">Move earlier</span>
                        </button>
                        <button
                          class="icon-btn compact"
                          aria-label="Move later"
                          title="Move later (Alt+↓)"
                          disabled={i() === props.entries.length - 1 || !canReorder()}
                          onClick={() => step(e.id, 1, false)}
                        >
                          <ChevronDown size={16} />
                          <span class="menu-label">Move later</span>
                        </button>
                      </Show>
                      <Show when={props.steering && !unconfirmed()}>
                        <button
                          class="icon-btn"
                          data-testid="chip-steer"
                          aria-label="Send into the running turn"
                          title="Steer: send into the running turn now"
                          disabled={busy()}
                          onClick={() => props.onSteer(e.id)}
                        >
                          <CornerDownRight size={17} />
                          <span class="menu-label">Steer into the turn</span>
                        </button>
                      </Show>
                    </span>
                    <button
                      class="icon-btn"
                      data-testid="chip-edit"
                      aria-label={mode() === "inline" ? "Edit queued message" : "Take back to draft"}
                      title={mode() === "inline" ? "Edit in place (keeps its place in the queue)" : "Take back to draft"}
                      disabled={busy() || !!editing()}
                      onClick={() => startEdit(e)}
                    >
                      <Pencil size={16} />
                    </button>
                    <button
                      class="icon-btn"
                      data-testid="chip-cancel"
                      aria-label="Cancel queued message"
                      title={busy() ? "Being delivered into the running turn — wait for the outcome" : "Cancel"}
                      disabled={busy()}
                      onClick={() => props.onCancel(e.id)}
                    >
                      <X size={18} />
                    </button>
                  </span>
                </Show>
                <Show when={isEditing() && editing()}>
                  {(ed) => (
                    <ChipEditor
                      text={ed().text}
                      changedElsewhere={entryText(e.blocks) !== ed().original}
                      saving={saving()}
                      canSave={!!editedBlocks(ed().entry.blocks, ed().text)}
                      onText={(text) => setEditing({ ...ed(), text })}
                      onSave={() => void save()}
                      onClose={() => {
                        setEditing(null);
                        chipEl(e.id)?.focus();
                      }}
                      onTakeBack={() => {
                        setEditing(null);
                        props.onTakeBack(e.id);
                      }}
                    />
                  )}
                </Show>
              </div>
            );
          }}
        </For>
      </div>
    </Show>
  );
}

function ChipEditor(props: {
  text: string;
  changedElsewhere: boolean;
  saving: boolean;
  canSave: boolean;
  onText: (t: string) => void;
  onSave: () => void;
  onClose: () => void;
  onTakeBack: () => void;
}) {
  let input!: HTMLTextAreaElement;
  onMount(() => {
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  });
  return (
    <div class="chip-editor" data-testid="chip-editor">
      <textarea
        ref={input}
        class="chip-editor-input"
        data-testid="chip-editor-input"
        aria-label="Edit queued message"
        rows={Math.min(6, Math.max(2, props.text.split("\n").length))}
        value={props.text}
        onInput={(ev) => props.onText(ev.currentTarget.value)}
        onKeyDown={(ev) => {
          if (ev.key === "Escape") {
            ev.preventDefault();
            props.onClose();
          } else if (isSendKey(ev)) {
            ev.preventDefault();
            props.onSave();
          }
        }}
      />
      <div class="chip-editor-bar">
        <Show when={props.changedElsewhere}>
          <span class="chip-note chip-editor-note">Changed by someone else — saving replaces it</span>
        </Show>
        <button class="btn btn-quiet btn-sm" data-testid="chip-edit-draft" title="Take it out of the queue into your draft" onClick={() => props.onTakeBack()}>
          To draft
        </button>
        <button class="btn btn-quiet btn-sm" data-testid="chip-edit-cancel" onClick={() => props.onClose()}>
          Cancel
        </button>
        <button class="btn btn-primary btn-sm" data-testid="chip-edit-save" disabled={!props.canSave || props.saving} onClick={() => props.onSave()}>
          Save
        </button>
      </div>
    </div>
  );
}
