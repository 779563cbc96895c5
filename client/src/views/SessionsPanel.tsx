import Archive from "lucide-solid/icons/archive";
import ArchiveRestore from "lucide-solid/icons/archive-restore";
import ListChecks from "lucide-solid/icons/list-checks";
import Pencil from "lucide-solid/icons/pencil";
import Trash2 from "lucide-solid/icons/trash";
import { createEffect, createMemo, createSignal, For, Match, onCleanup, Show, Switch } from "solid-js";
import type { SessionListItem } from "../../../shared/session-list";
import { api } from "../lib/api";
import { markContentShown } from "../lib/content-shown";
import { createSessionList, type SessionListStore } from "../session/create-session-list";
import { archiveAsksFirst, canDelete, canEdit } from "../session/list-lifecycle";
import { filterChoices, sameFilter, DEFAULT_FILTER } from "../session/list-state";
import { BulkArchiveBar } from "./BulkArchiveBar";
import { ArchiveDialog, DeleteDialog, RenameDialog } from "./SessionDialogs";
import { SessionFilters } from "./SessionFilters";
import type { RowAction } from "./SessionRowMenu";
import { SessionRow } from "./SessionRow";

/** "2 min ago" stays true while the page is open. */
const CLOCK_TICK_MS = 30_000;

type Dialog =
  | { kind: "rename"; session: SessionListItem }
  | { kind: "delete"; session: SessionListItem }
  | { kind: "archive"; session: SessionListItem };

/** The live session list: filters, rows with markers and menus, paging, selection and bulk archive. */
export function SessionsPanel(props: { store?: SessionListStore }) {
  const list = props.store ?? createSessionList();
  const [dialog, setDialog] = createSignal<Dialog | null>(null);
  const [selecting, setSelecting] = createSignal(false);
  const [now, setNow] = createSignal(Date.now());
  const tick = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
  onCleanup(() => clearInterval(tick));

  const s = () => list.state();
  // The first page of sessions is shown: what waits for the page's content may start (the service worker).
  createEffect(() => !s().loading && markContentShown());
  const choices = createMemo(() => filterChoices(s().latest));
  const filtered = () => !sameFilter(s().filter, DEFAULT_FILTER);

  const archive = async (row: SessionListItem) => {
    if (archiveAsksFirst(row)) return setDialog({ kind: "archive", session: row });
    // A row from the first paint does not say whether the session has a worktree: the session does.
    const worktree = row.worktree !== undefined ? row.worktree : await api.session(row.id).then((r) => r.session.worktree ?? null, () => null);
    if (worktree) setDialog({ kind: "archive", session: { ...row, worktree } });
    else void list.setArchived(row.id, true);
  };
  const actionsFor = (row: SessionListItem): RowAction[] => {
    const acts: RowAction[] = [];
    if (canEdit(row.role)) {
      acts.push({ id: "rename", label: "Rename", icon: Pencil, run: () => setDialog({ kind: "rename", session: row }) });
      acts.push(
        row.archivedAt === null
          ? { id: "archive", label: "Archive", icon: Archive, run: () => void archive(row) }
          : { id: "unarchive", label: "Unarchive", icon: ArchiveRestore, run: () => void list.setArchived(row.id, false) },
      );
      acts.push({
        id: "select",
        label: "Select",
        icon: ListChecks,
        run: () => {
          setSelecting(true);
          if (!list.selection().has(row.id)) list.toggleSelected(row.id);
        },
      });
    }
    if (canDelete(row.role)) acts.push({ id: "delete", label: "Delete…", icon: Trash2, danger: true, run: () => setDialog({ kind: "delete", session: row }) });
    return acts;
  };

  return (
    <section class="card sessions-card" aria-labelledby="sessions-heading">
      <div class="list-head">
        <h2 id="sessions-heading">Sessions</h2>
        <Show when={list.feedState() === "reconnecting" || list.feedState() === "offline"}>
          <span class="feed-state" role="status">
            {list.feedState() === "offline" ? "Offline" : "Reconnecting…"}
          </span>
        </Show>
        <button
          class="btn btn-sm btn-quiet list-select-btn"
          aria-pressed={selecting()}
          onClick={() => {
            if (selecting()) list.clearSelection();
            setSelecting((v) => !v);
          }}
        >
          <ListChecks size={16} aria-hidden="true" /> {selecting() ? "Done" : "Select"}
        </button>
      </div>

      <SessionFilters
        filter={s().filter}
        text={list.textDraft()}
        agents={choices().agents}
        machines={choices().machines}
        onText={list.setText}
        onChange={list.setFilter}
      />

      <Show when={selecting()}>
        <BulkArchiveBar list={list} onDone={() => setSelecting(false)} />
      </Show>

      <Switch>
        <Match when={s().rows.length === 0 && list.error()}>
          <p class="empty" role="alert">
            Could not load sessions: {list.error()}{" "}
            <button class="btn btn-sm" onClick={() => list.retry()}>
              Retry
            </button>
          </p>
        </Match>
        <Match when={s().rows.length === 0 && s().loading}>
          <p class="empty">Loading…</p>
        </Match>
        <Match when={s().rows.length === 0 && filtered()}>
          <p class="empty">
            No sessions match these filters.{" "}
            <button class="btn btn-sm" onClick={() => list.clearFilters()}>
              Clear filters
            </button>
          </p>
        </Match>
        <Match when={s().rows.length === 0}>
          <p class="empty">No sessions yet — start one above.</p>
        </Match>
        <Match when={s().rows.length > 0}>
          <ul class="sessions" aria-busy={s().loading}>
            <For each={s().rows}>
              {(row) => (
                <SessionRow
                  session={row}
                  now={now()}
                  actions={actionsFor(row)}
                  selecting={selecting()}
                  selected={list.selection().has(row.id)}
                  onToggle={() => list.toggleSelected(row.id)}
                />
              )}
            </For>
          </ul>
          <Show when={s().nextCursor && !s().loading}>
            <button class="btn load-more" data-testid="load-more" disabled={list.loadingMore()} onClick={() => void list.loadMore()}>
              {list.loadingMore() ? "Loading…" : "Load more"}
            </button>
          </Show>
        </Match>
      </Switch>

      <Show when={dialog()} keyed>
        {(d) => (
          <Switch>
            <Match when={d.kind === "rename"}>
              <RenameDialog session={d.session} onSave={(t) => list.rename(d.session.id, t)} onClose={() => setDialog(null)} />
            </Match>
            <Match when={d.kind === "delete"}>
              <DeleteDialog session={d.session} onDelete={async (also) => (await list.remove(d.session.id, also)) !== null} onClose={() => setDialog(null)} />
            </Match>
            <Match when={d.kind === "archive"}>
              <ArchiveDialog session={d.session} onArchive={(running) => list.setArchived(d.session.id, true, running)} onClose={() => setDialog(null)} />
            </Match>
          </Switch>
        )}
      </Show>
    </section>
  );
}
