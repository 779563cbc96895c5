import { For, Show } from "solid-js";
import { promptPreview } from "../../../shared/blocks";
import type { QueueEntry } from "../../../shared/viewer-protocol";

type Props = {
  entries: QueueEntry[];
  canAct: boolean;
  steering: boolean;
  onCancel: (id: string) => void;
  onTakeBack: (id: string) => void;
  onSteer: (id: string) => void;
  onMove: (id: string, before: string | null) => void;
};

const STATE_LABEL: Record<QueueEntry["state"], string> = { queued: "Queued", steering: "Steering…", indeterminate: "Unknown — retry or cancel" };

export function QueueChips(props: Props) {
  const label = (e: QueueEntry, i: number) => `${STATE_LABEL[e.state]}${props.entries.length > 1 ? ` · ${i + 1}` : ""}`;
  const move = (i: number, delta: number) => {
    const ids = props.entries.map((e) => e.id);
    const id = ids[i]!;
    const rest = ids.filter((x) => x !== id);
    const at = Math.max(0, Math.min(rest.length, i + delta));
    props.onMove(id, rest[at] ?? null);
  };
  return (
    <Show when={props.entries.length}>
      <div class="chips" aria-label="Queued messages">
        <For each={props.entries}>
          {(e, i) => (
            <div
              class={`chip chip-${e.state}`}
              data-testid="queue-chip"
              tabindex="0"
              title={`Sends when the agent is idle — queued by ${e.author.name}`}
              onKeyDown={(ev) => {
                if (!ev.altKey) return;
                if (ev.key === "ArrowUp") move(i(), -1);
                if (ev.key === "ArrowDown") move(i(), 1);
              }}
            >
              <svg class="chip-clock" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
                <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="2" />
                <path d="M12 7v5l3 2" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
              </svg>
              <span class="chip-label">{label(e, i())}</span>
              <span class="chip-preview">{promptPreview(e.blocks, 80)}</span>
              <Show when={props.canAct}>
                <Show when={props.entries.length > 1}>
                  <button class="icon-btn" aria-label="Move up" disabled={i() === 0} onClick={() => move(i(), -1)}>↑</button>
                </Show>
                <Show when={props.steering}>
                  <button class="icon-btn" data-testid="chip-steer" aria-label="Send into the running turn" title="Steer: deliver into the running turn" onClick={() => props.onSteer(e.id)}>
                    ↪
                  </button>
                </Show>
                <button class="icon-btn" data-testid="chip-edit" aria-label="Take back to draft" title="Take back to draft" onClick={() => props.onTakeBack(e.id)}>
                  ✎
                </button>
                <button class="icon-btn" data-testid="chip-cancel" aria-label="Cancel queued message" title="Cancel" onClick={() => props.onCancel(e.id)}>
                  ×
                </button>
              </Show>
            </div>
          )}
        </For>
      </div>
    </Show>
  );
}
