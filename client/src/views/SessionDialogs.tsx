/** The session list's dialogs: rename, delete, archive (a running session, or one with a worktree), and a yes/no confirmation. */
import { createResource, createSignal, type JSX, Show } from "solid-js";
import type { SessionListItem } from "../../../shared/session-list";
import { displayTitle, MAX_SESSION_TITLE } from "../../../shared/session-list-rules";
import { api } from "../lib/api";
import { archiveAsksFirst, checkTitle, offersAgentDelete } from "../session/list-lifecycle";
import { Modal } from "./Modal";
import { createWorktreeRemoval, WorktreeRemovalFields } from "./WorktreeRemoval";

export function RenameDialog(props: { session: SessionListItem; onSave: (title: string) => Promise<boolean>; onClose: () => void }) {
  const [value, setValue] = createSignal(props.session.customTitle ?? displayTitle(props.session));
  const [error, setError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const checked = checkTitle(value());
    if ("error" in checked) return setError(checked.error);
    setBusy(true);
    const ok = await props.onSave(checked.title);
    setBusy(false);
    if (ok) props.onClose();
  };
  return (
    <Modal title="Rename session" onClose={props.onClose} testId="rename-dialog">
      <form onSubmit={submit} novalidate>
        <label class="modal-field">
          <span class="modal-label">Title</span>
          <input
            data-autofocus
            value={value()}
            aria-invalid={error() ? "true" : undefined}
            aria-describedby="rename-error"
            onInput={(e) => {
              setValue(e.currentTarget.value);
              setError(null);
            }}
          />
        </label>
        <p id="rename-error" class="modal-error" role="alert">
          {error() ?? ""}
        </p>
        <p class="modal-help">Up to {MAX_SESSION_TITLE} characters. Everyone in the session sees it.</p>
        <div class="modal-actions">
          <button type="button" class="btn" onClick={() => props.onClose()}>
            Cancel
          </button>
          <button type="submit" class="btn btn-primary" disabled={busy()}>
            {busy() ? "Saving…" : "Save"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function DeleteDialog(props: { session: SessionListItem; onDelete: (deleteAgentSession: boolean) => Promise<boolean>; onClose: () => void }) {
  const [alsoAgent, setAlsoAgent] = createSignal(false);
  const [busy, setBusy] = createSignal(false);
  // What the session's agent advertises lives with its machine (the owner's machines list); a failed read
  // offers no checkbox rather than one that cannot work.
  const [machines] = createResource(() => api.machines().catch(() => []));
  // The worktree as the session says it now (the list's first paint carries rows without it).
  const [current] = createResource(() => api.session(props.session.id).then((r) => r.session.worktree ?? null).catch(() => props.session.worktree ?? null));
  const worktree = createWorktreeRemoval(() => props.session.id, () => current() ?? null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    if (!(await worktree.run())) return setBusy(false);
    const ok = await props.onDelete(alsoAgent());
    setBusy(false);
    if (ok) props.onClose();
  };
  return (
    <Modal title="Delete session?" onClose={props.onClose} testId="delete-dialog" danger>
      <form onSubmit={submit}>
        <p class="modal-text">
          <strong>{displayTitle(props.session)}</strong> and its whole transcript will be deleted for everyone in it. Anyone watching it is sent back to
          their list. This cannot be undone.
        </p>
        <Show when={offersAgentDelete(props.session, machines())}>
          <label class="modal-check">
            <input type="checkbox" checked={alsoAgent()} onChange={(e) => setAlsoAgent(e.currentTarget.checked)} />
            <span>
              Also delete the agent's own session
              <span class="modal-help">{props.session.agentLabel} keeps its own copy on {props.session.machineName}; this removes it too.</span>
            </span>
          </label>
        </Show>
        <WorktreeRemovalFields step={worktree} />
        <div class="modal-actions">
          <button type="button" class="btn" data-autofocus onClick={() => props.onClose()}>
            Cancel
          </button>
          <button type="submit" class="btn btn-danger" disabled={busy()}>
            {busy() ? "Deleting…" : "Delete"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * Archive, when it has something to ask (issue 28 #1): a running session says the turn goes on; a session in a
 * worktree offers to remove it, like Delete (kept, with what it holds, until "Remove it anyway").
 */
export function ArchiveDialog(props: { session: SessionListItem; onArchive: (confirmRunning: boolean) => Promise<boolean>; onClose: () => void }) {
  const [busy, setBusy] = createSignal(false);
  const running = archiveAsksFirst(props.session);
  // A running row from the first paint may not say whether it has a worktree: then the session is asked.
  const [current] = createResource(() =>
    props.session.worktree !== undefined ? props.session.worktree : api.session(props.session.id).then((r) => r.session.worktree ?? null, () => null),
  );
  const worktree = createWorktreeRemoval(() => props.session.id, () => current() ?? null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    if (!(await worktree.run())) return setBusy(false);
    const ok = await props.onArchive(running);
    setBusy(false);
    if (ok) props.onClose();
  };
  return (
    <Modal title={running ? "Archive a running session?" : "Archive session?"} onClose={props.onClose} testId={running ? "archive-running-dialog" : "archive-dialog"}>
      <form onSubmit={submit}>
        <p class="modal-text">
          <strong>{displayTitle(props.session)}</strong>
          {running
            ? ` is ${props.session.needsYou ? "waiting for an answer" : "running a turn"}. Archiving hides it from the list; the turn is not stopped.`
            : " is hidden from the list; Unarchive brings it back."}
        </p>
        <WorktreeRemovalFields step={worktree} />
        <div class="modal-actions">
          <button type="button" class="btn" data-autofocus onClick={() => props.onClose()}>
            Cancel
          </button>
          <button type="submit" class="btn btn-primary" disabled={busy()}>
            {busy() ? "Archiving…" : "Archive"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function ConfirmDialog(props: { title: string; confirm: string; children: JSX.Element; onConfirm: () => Promise<boolean>; onClose: () => void; testId?: string }) {
  const [busy, setBusy] = createSignal(false);
  return (
    <Modal title={props.title} onClose={props.onClose} testId={props.testId}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          const ok = await props.onConfirm();
          setBusy(false);
          if (ok) props.onClose();
        }}
      >
        {props.children}
        <div class="modal-actions">
          <button type="button" class="btn" data-autofocus onClick={() => props.onClose()}>
            Cancel
          </button>
          <button type="submit" class="btn btn-primary" disabled={busy()}>
            {busy() ? "Working…" : props.confirm}
          </button>
        </div>
      </form>
    </Modal>
  );
}
