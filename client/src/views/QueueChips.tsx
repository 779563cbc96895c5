import ChevronDown from "lucide-solid/icons/chevron-down";
import ChevronUp from "lucide-solid/icons/chevron-up";
import Clock from "lucide-solid/icons/clock";
import CornerDownRight from "lucide-solid/icons/corner-down-right";
import Ellipsis from "lucide-solid/icons/ellipsis";
import GripVertical from "lucide-solid/icons/grip-vertical";
import Pencil from "lucide-solid/icons/pencil";
import X from "lucide-solid/icons/x";
import { createSignal, For, Show } from "solid-js";
import { promptPreview } from "../../../shared/blocks";
import type { QueueEntry, SteerOutcome } from "../../../shared/viewer-protocol";
import { chipLabel, chipNote, moveTarget } from "../session/queue-logic";

type Props = {
  entries: QueueEntry[];
  canAct: boolean;
  /** The agent advertised steering and a turn runs: offer "send into the running turn". */
  steering: boolean;
  steer?: Record<string, SteerOutcome>;
  viewerId?: string | null;
  onCancel: (id: string) => void;
  onTakeBack: (id: string) => void;
  onSteer: (id: string) => void;
  onMove: (id: string, before: string | null) => void;
};

/** The queue: chips floating above the composer card, right-aligned. Never a transcript row. */
export function QueueChips(props: Props) {
  const [dragging, setDragging] = createSignal<string | null>(null);
  const [over, setOver] = createSignal<string | null>(null);
  /** Narrow screens fold steer / move into a per-chip "⋯" menu. */
  const [menu, setMenu] = createSignal<string | null>(null);
  const ids = () => props.entries.map((e) => e.id);
  const move = (id: string, delta: -1 | 1) => {
    const t = moveTarget(ids(), id, delta);
    if (t) props.onMove(id, t.before);
  };
  const stacked = () => props.entries.length > 1;

  return (
    <Show when={props.entries.length}>
      <div class="chips" role="list" aria-label="Queued messages">
        <For each={props.entries}>
          {(e, i) => {
            const busy = () => e.state === "steering";
            const note = () => chipNote(e, props.steer?.[e.id]);
            const byOther = () => !!props.viewerId && e.author.id !== props.viewerId;
            return (
              <div
                class={`chip chip-${e.state}`}
                classList={{ dragging: dragging() === e.id, "drop-target": over() === e.id && dragging() !== e.id }}
                role="listitem"
                data-testid="queue-chip"
                data-entry-id={e.id}
                tabindex="0"
                aria-label={`${chipLabel(e, i(), props.entries.length)}: ${promptPreview(e.blocks, 80)}`}
                title={`Queued by ${e.author.name} — sends when the agent is idle`}
                draggable={props.canAct && stacked()}
                onDragStart={(ev) => {
                  setDragging(e.id);
                  ev.dataTransfer?.setData("text/plain", e.id);
                  if (ev.dataTransfer) ev.dataTransfer.effectAllowed = "move";
                }}
                onDragEnd={() => {
                  setDragging(null);
                  setOver(null);
                }}
                onDragOver={(ev) => {
                  if (!dragging()) return;
                  ev.preventDefault();
                  setOver(e.id);
                }}
                onDrop={(ev) => {
                  ev.preventDefault();
                  const from = dragging();
                  setDragging(null);
                  setOver(null);
                  if (!from || from === e.id) return;
                  // Dropping on an entry puts the dragged one in its place.
                  const order = ids();
                  const before = order.indexOf(from) < order.indexOf(e.id) ? (order[order.indexOf(e.id) + 1] ?? null) : e.id;
                  props.onMove(from, before);
                }}
                onKeyDown={(ev) => {
                  if (!props.canAct || !ev.altKey) return;
                  if (ev.key === "ArrowUp") {
                    ev.preventDefault();
                    move(e.id, -1);
                  } else if (ev.key === "ArrowDown") {
                    ev.preventDefault();
                    move(e.id, 1);
                  }
                }}
              >
                <Show when={props.canAct && stacked()}>
                  <span class="chip-grip" aria-hidden="true">
                    <GripVertical size={14} />
                  </span>
                </Show>
                <span class="chip-clock" aria-hidden="true">
                  <Clock size={15} />
                </span>
                <span class="chip-label">{chipLabel(e, i(), props.entries.length)}</span>
                <Show when={byOther()}>
                  <span class="chip-author">{e.author.name}</span>
                </Show>
                <span class="chip-preview">{promptPreview(e.blocks, 120)}</span>
                <Show when={note()}>
                  <span class="chip-note" data-testid="chip-note">
                    {note()}
                  </span>
                </Show>
                <Show when={props.canAct}>
                  <span class="chip-actions">
                    <Show when={stacked() || props.steering}>
                      <button
                        class="icon-btn chip-more-btn"
                        aria-label="More actions"
                        aria-expanded={menu() === e.id}
                        onClick={() => setMenu((m) => (m === e.id ? null : e.id))}
                      >
                        <Ellipsis size={18} />
                      </button>
                    </Show>
                    <span class="chip-extra" classList={{ open: menu() === e.id }} onClick={() => setMenu(null)}>
                    <Show when={stacked()}>
                      <button class="icon-btn compact" aria-label="Move earlier" title="Move earlier (Alt+↑)" disabled={i() === 0 || busy()} onClick={() => move(e.id, -1)}>
                        <ChevronUp size={16} />
                      </button>
                      <button
                        class="icon-btn compact"
                        aria-label="Move later"
                        title="Move later (Alt+↓)"
                        disabled={i() === props.entries.length - 1 || busy()}
                        onClick={() => move(e.id, 1)}
                      >
                        <ChevronDown size={16} />
                      </button>
                    </Show>
                    <Show when={props.steering}>
                      <button
                        class="icon-btn"
                        data-testid="chip-steer"
                        aria-label="Send into the running turn"
                        title="Steer: send into the running turn now"
                        disabled={busy()}
                        onClick={() => props.onSteer(e.id)}
                      >
                        <CornerDownRight size={17} />
                      </button>
                    </Show>
                    </span>
                    <button class="icon-btn" data-testid="chip-edit" aria-label="Take back to draft" title="Take back to draft" disabled={busy()} onClick={() => props.onTakeBack(e.id)}>
                      <Pencil size={16} />
                    </button>
                    <button class="icon-btn" data-testid="chip-cancel" aria-label="Cancel queued message" title="Cancel" onClick={() => props.onCancel(e.id)}>
                      <X size={18} />
                    </button>
                  </span>
                </Show>
              </div>
            );
          }}
        </For>
      </div>
    </Show>
  );
}
