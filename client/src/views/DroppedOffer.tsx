import ListPlus from "lucide-solid/icons/list-plus";
import Undo2 from "lucide-solid/icons/undo-2";
import X from "lucide-solid/icons/x";
import { createSignal, Show } from "solid-js";
import { promptPreview } from "../../../shared/prompt-preview";
import type { QueueEntry } from "../../../shared/viewer-protocol";

/**
 * What a Stop dropped, offered to every viewer: back into the queue ("Re-queue": the first runs now
 * when idle, the rest queue behind it) or into this viewer's draft. Nothing typed is lost.
 */
export function DroppedOffer(props: {
  entries: QueueEntry[];
  canAct: boolean;
  onRequeue: () => Promise<unknown>;
  onRestore: () => unknown;
  onDismiss: () => void;
}) {
  const [busy, setBusy] = createSignal(false);
  const count = () => props.entries.length;
  return (
    <Show when={count()}>
      <div class="dropped" data-testid="dropped-offer">
        <Undo2 size={16} aria-hidden="true" />
        <span class="dropped-text">
          <span class="dropped-title">Dropped by Stop{count() > 1 ? ` (${count()})` : ""}</span>
          <span class="mono dropped-preview">{promptPreview(props.entries[0]!.blocks, 80)}</span>
        </span>
        <Show when={props.canAct}>
          <button
            class="btn btn-quiet btn-sm"
            data-testid="requeue-dropped"
            aria-label="Re-queue"
            title="Send again in the same order: the first runs now if the agent is idle, the rest wait in the queue"
            disabled={busy()}
            onClick={async () => {
              setBusy(true);
              try {
                await props.onRequeue();
              } finally {
                setBusy(false);
              }
            }}
          >
            <ListPlus size={15} aria-hidden="true" />
            <span>Re-queue</span>
          </button>
        </Show>
        <button class="btn btn-quiet btn-sm" data-testid="restore-dropped" aria-label="Restore to draft" disabled={busy()} onClick={() => props.onRestore()}>
          <span class="wide-only">Restore to draft</span>
          <span class="narrow-only">To draft</span>
        </button>
        <button class="icon-btn" aria-label="Dismiss" data-testid="dismiss-dropped" onClick={() => props.onDismiss()}>
          <X size={16} />
        </button>
      </div>
    </Show>
  );
}
