import { createSignal, For, Show } from "solid-js";
import type { SessionListStore } from "../session/create-session-list";
import { IDLE_DAYS_CHOICES, IDLE_DAYS_DEFAULT } from "../session/list-lifecycle";
import { archivableSelection } from "../session/list-state";
import { ConfirmDialog } from "./SessionDialogs";

/** Selection mode's bar: archive the selected sessions, or every idle one quiet for N days. */
export function BulkArchiveBar(props: { list: SessionListStore; onDone: () => void }) {
  const [askIdle, setAskIdle] = createSignal(false);
  const [days, setDays] = createSignal<number>(IDLE_DAYS_DEFAULT);
  const count = () => props.list.selection().size;
  const ids = () => archivableSelection(props.list.selection(), props.list.state().rows);
  return (
    <div class="bulk-bar" role="toolbar" aria-label="Bulk actions" data-testid="bulk-bar">
      <span class="bulk-count" aria-live="polite">
        {count()} selected
      </span>
      <button class="btn btn-sm" onClick={() => (count() ? props.list.clearSelection() : props.list.selectAll())}>
        {count() ? "Clear" : "Select all"}
      </button>
      <button
        class="btn btn-sm btn-primary"
        disabled={ids().length === 0}
        onClick={async () => {
          if (await props.list.bulkArchive({ ids: ids() })) props.onDone();
        }}
      >
        Archive selected
      </button>
      <button class="btn btn-sm" onClick={() => setAskIdle(true)}>
        Archive idle…
      </button>
      <Show when={askIdle()}>
        <ConfirmDialog
          title="Archive idle sessions"
          confirm="Archive"
          testId="archive-idle-dialog"
          onConfirm={async () => (await props.list.bulkArchive({ idleOlderThanDays: days() })) !== null}
          onClose={() => setAskIdle(false)}
        >
          <label class="modal-field">
            <span class="modal-label">Every idle session with no activity for</span>
            <select aria-label="Days without activity" value={String(days())} onChange={(e) => setDays(Number(e.currentTarget.value))}>
              <For each={IDLE_DAYS_CHOICES}>{(d) => <option value={d} selected={d === days()}>{d === 1 ? "1 day" : `${d} days`}</option>}</For>
            </select>
          </label>
          <p class="modal-help">Running sessions and ones waiting for an answer are left alone. Archived sessions stay under “Archived only”.</p>
        </ConfirmDialog>
      </Show>
    </div>
  );
}
