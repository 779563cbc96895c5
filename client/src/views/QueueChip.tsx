import ChevronDown from "lucide-solid/icons/chevron-down";
import ChevronUp from "lucide-solid/icons/chevron-up";
import Clock from "lucide-solid/icons/clock";
import CornerDownRight from "lucide-solid/icons/corner-down-right";
import Ellipsis from "lucide-solid/icons/ellipsis";
import GripVertical from "lucide-solid/icons/grip-vertical";
import Pencil from "lucide-solid/icons/pencil";
import RotateCw from "lucide-solid/icons/rotate-cw";
import X from "lucide-solid/icons/x";
import { type Accessor, createContext, For, onMount, type Setter, Show, useContext } from "solid-js";
import { promptPreview } from "../../../shared/prompt-preview";
import type { QueueEntry, SteerOutcome } from "../../../shared/viewer-protocol";
import { imagesOf, isSendKey } from "../session/composer-logic";
import type { createChipDrag } from "../session/create-chip-drag";
import { LazyImageThumb } from "./LazyImageThumb";
import { type ChipEditMode, chipLabel, chipNote, editedBlocks, entryText, retryAction } from "../session/queue-logic";

/**
 * What a chip does to its entry: the session's actions (session/session-actions.ts) fit as they are.
 * Results are not read here (the actions toast what needs saying), except an edit's "may the editor close".
 */
export type QueueActions = {
  cancel(id: string): unknown;
  takeBack(id: string): unknown;
  steer(id: string): unknown;
  /** Resolves once the room answered (the list shows the new order until then). */
  move(id: string, before: string | null): unknown;
  /** Saves an in-place edit; resolves true when the editor may close. */
  edit(entry: QueueEntry, text: string): Promise<boolean>;
  /** The entry under an open editor left the queue: keep the unsaved text. */
  editLost(entry: QueueEntry, text: string): void;
  /** Explicit retry of an unconfirmed (indeterminate) entry. */
  retry(id: string): unknown;
};

export type Editing = { entry: QueueEntry; original: string; text: string };

/** The list's state a chip reads and acts on (QueueChips provides it). */
export type ChipList = {
  actions: QueueActions;
  canAct: () => boolean;
  /** The agent advertised steering and a turn runs. */
  steering: () => boolean;
  turnActive: () => boolean;
  count: () => number;
  stacked: () => boolean;
  mode: () => ChipEditMode;
  steerOutcome: (id: string) => SteerOutcome | undefined;
  viewerId: () => string | null | undefined;
  /** The chip whose ⋯ menu is open. */
  menu: Accessor<string | null>;
  setMenu: Setter<string | null>;
  editing: Accessor<Editing | null>;
  setEditing: Setter<Editing | null>;
  saving: Accessor<boolean>;
  drag: ReturnType<typeof createChipDrag>;
  /** Moves a chip one place up or down (`refocus`: keep focus on it through the re-renders). */
  step(id: string, delta: -1 | 1, refocus: boolean): void;
  startEdit(entry: QueueEntry): void;
  save(): Promise<unknown>;
  chipEl(id: string): HTMLElement | null;
};

export const ChipListContext = createContext<ChipList>();

/** One queued message: clock, label, preview, note, and its actions (or its in-place editor). */
export function QueueChip(props: { entry: QueueEntry; index: number }) {
  const list = useContext(ChipListContext);
  if (!list) throw new Error("QueueChip outside QueueChips");
  const e = props.entry;
  const busy = () => e.state === "steering";
  const unconfirmed = () => e.state === "indeterminate";
  const note = () => chipNote(e, list.steerOutcome(e.id));
  const byOther = () => !!list.viewerId() && e.author.id !== list.viewerId();
  const isEditing = () => list.editing()?.entry.id === e.id;
  const canReorder = () => list.canAct() && list.stacked() && !list.editing() && !busy();
  const retry = () => retryAction(!!list.turnActive());
  return (
    <div
      class={`chip chip-${e.state}`}
      classList={{ dragging: list.drag.dragging() === e.id, editing: isEditing() }}
      style={{ transform: list.drag.offset(e.id, props.index) ? `translateY(${list.drag.offset(e.id, props.index)}px)` : undefined }}
      role="listitem"
      data-testid="queue-chip"
      data-entry-id={e.id}
      tabindex="0"
      aria-keyshortcuts={list.canAct() && list.stacked() ? "Alt+ArrowUp Alt+ArrowDown" : undefined}
      aria-label={`${chipLabel(e, props.index, list.count())}: ${promptPreview(e.blocks, 80)}`}
      title={isEditing() ? undefined : `Queued by ${e.author.name} — sends when the agent is idle`}
      onKeyDown={(ev) => {
        if (!canReorder() || !ev.altKey || ev.target !== ev.currentTarget) return;
        if (ev.key === "ArrowUp" || ev.key === "ArrowDown") {
          ev.preventDefault();
          list.step(e.id, ev.key === "ArrowUp" ? -1 : 1, true);
        }
      }}
    >
      <Show when={list.canAct() && list.stacked()}>
        <span
          class="chip-grip"
          classList={{ disabled: !canReorder() }}
          data-testid="chip-grip"
          aria-hidden="true"
          title="Drag to reorder"
          onPointerDown={(ev) => canReorder() && list.drag.start(ev, e.id)}
          onPointerMove={(ev) => list.drag.move(ev)}
          onPointerUp={(ev) => list.drag.end(ev)}
          onPointerCancel={() => list.drag.cancel()}
        >
          <GripVertical size={16} />
        </span>
      </Show>
      <span class="chip-clock" aria-hidden="true">
        <Clock size={15} />
      </span>
      <span class="chip-label">{chipLabel(e, props.index, list.count())}</span>
      <Show when={byOther()}>
        <span class="chip-author">{e.author.name}</span>
      </Show>
      <Show when={!isEditing()}>
        <For each={imagesOf(e.blocks)}>{(b, i) => <LazyImageThumb mimeType={b.mimeType} data={b.data} label={`Queued image ${i() + 1}`} class="chip-image" />}</For>
        <span class="chip-preview">{promptPreview(e.blocks, 120, { images: false })}</span>
      </Show>
      <Show when={note()}>
        <span class="chip-note" data-testid="chip-note">
          {note()}
        </span>
      </Show>
      <Show when={isEditing()}>
        <span class="chip-spacer" />
      </Show>
      <Show when={list.canAct() && !isEditing()}>
        <span class="chip-actions">
          <Show when={unconfirmed()}>
            <button class="btn btn-quiet btn-sm chip-retry" data-testid="chip-retry" title={retry().title} onClick={() => void list.actions.retry(e.id)}>
              <RotateCw size={15} aria-hidden="true" />
              {retry().label}
            </button>
          </Show>
          <Show when={list.stacked() || (list.steering() && !unconfirmed())}>
            <button
              class="icon-btn chip-more-btn"
              aria-label="More actions"
              aria-expanded={list.menu() === e.id}
              data-testid="chip-more"
              onClick={() => list.setMenu((m) => (m === e.id ? null : e.id))}
            >
              <Ellipsis size={18} />
            </button>
          </Show>
          <span class="chip-extra" classList={{ open: list.menu() === e.id }} onClick={() => list.setMenu(null)}>
            <Show when={list.stacked()}>
              <button
                class="icon-btn compact"
                aria-label="Move earlier"
                title="Move earlier (Alt+↑)"
                disabled={props.index === 0 || !canReorder()}
                onClick={() => list.step(e.id, -1, false)}
              >
                <ChevronUp size={16} />
                <span class="menu-label">Move earlier</span>
              </button>
              <button
                class="icon-btn compact"
                aria-label="Move later"
                title="Move later (Alt+↓)"
                disabled={props.index === list.count() - 1 || !canReorder()}
                onClick={() => list.step(e.id, 1, false)}
              >
                <ChevronDown size={16} />
                <span class="menu-label">Move later</span>
              </button>
            </Show>
            <Show when={list.steering() && !unconfirmed()}>
              <button
                class="icon-btn"
                data-testid="chip-steer"
                aria-label="Send into the running turn"
                title="Steer: send into the running turn now"
                disabled={busy()}
                onClick={() => void list.actions.steer(e.id)}
              >
                <CornerDownRight size={17} />
                <span class="menu-label">Steer into the turn</span>
              </button>
            </Show>
          </span>
          <button
            class="icon-btn"
            data-testid="chip-edit"
            aria-label={list.mode() === "inline" ? "Edit queued message" : "Take back to draft"}
            title={list.mode() === "inline" ? "Edit in place (keeps its place in the queue)" : "Take back to draft"}
            disabled={busy() || !!list.editing()}
            onClick={() => list.startEdit(e)}
          >
            <Pencil size={16} />
          </button>
          <button
            class="icon-btn"
            data-testid="chip-cancel"
            aria-label="Cancel queued message"
            title={busy() ? "Being delivered into the running turn — wait for the outcome" : "Cancel"}
            disabled={busy()}
            onClick={() => void list.actions.cancel(e.id)}
          >
            <X size={18} />
          </button>
        </span>
      </Show>
      <Show when={isEditing() && list.editing()}>
        {(ed) => (
          <ChipEditor
            text={ed().text}
            changedElsewhere={entryText(e.blocks) !== ed().original}
            saving={list.saving()}
            canSave={!!editedBlocks(ed().entry.blocks, ed().text)}
            onText={(text) => list.setEditing({ ...ed(), text })}
            onSave={() => void list.save()}
            onClose={() => {
              list.setEditing(null);
              list.chipEl(e.id)?.focus();
            }}
            onTakeBack={() => {
              list.setEditing(null);
              void list.actions.takeBack(e.id);
            }}
          />
        )}
      </Show>
    </div>
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
