/** "Commit…" (issue 28 #4): the person writes the message; every change in the worktree is committed. */
import { createSignal } from "solid-js";
import type { GitStatus } from "../../../shared/worktree";
import { gitApi } from "../lib/git-api";
import { toast } from "../lib/toasts";
import { ModalForm } from "./ModalForm";
import "../home.css";

export function CommitDialog(props: { sessionId: string; branch: string; files: number; onDone: (s: GitStatus) => void; onClose: () => void }) {
  const [message, setMessage] = createSignal("");
  const [error, setError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);
  const submit = async () => {
    if (!message().trim()) return setError("Write a commit message");
    setBusy(true);
    try {
      const r = await gitApi.commit(props.sessionId, message());
      props.onDone(r.status);
      toast(`Committed ${r.commit.slice(0, 7)} on ${props.branch}: ${r.summary}`, "info");
      props.onClose();
    } catch (err) {
      setError((err as Error).message || "Could not commit");
    } finally {
      setBusy(false);
    }
  };
  return (
    <ModalForm title="Commit the worktree" testId="commit-dialog" novalidate busy={busy()} submitLabel="Commit" busyLabel="Committing…" onSubmit={submit} onClose={props.onClose}>
        <p class="modal-text">
          Commits all {props.files} changed {props.files === 1 ? "file" : "files"} (new files included) on <code>{props.branch}</code>. Or ask the agent to
          write the message, in a message.
        </p>
        <label class="modal-field">
          <span class="modal-label">Commit message</span>
          <textarea
            data-autofocus
            rows={4}
            value={message()}
            aria-invalid={error() ? "true" : undefined}
            aria-describedby="commit-error"
            onInput={(e) => {
              setMessage(e.currentTarget.value);
              setError(null);
            }}
          />
        </label>
        <p id="commit-error" class="modal-error" role="alert">
          {error() ?? ""}
        </p>
    </ModalForm>
  );
}
