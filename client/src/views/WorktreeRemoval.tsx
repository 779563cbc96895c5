/**
 * "Also remove its worktree" in the delete and archive dialogs (issue 28 #1): on by default; a worktree holding
 * uncommitted files or unpushed commits is kept, with why, until the person ticks "remove anyway".
 */
import { createSignal, Show } from "solid-js";
import type { SessionWorktree, WorktreeRemoval } from "../../../shared/worktree";
import { gitApi } from "../lib/git-api";

export type WorktreeRemovalStep = ReturnType<typeof createWorktreeRemoval>;

export function createWorktreeRemoval(sessionId: () => string, worktree: () => SessionWorktree | null | undefined) {
  const [wanted, setWanted] = createSignal(true);
  const [force, setForce] = createSignal(false);
  const [kept, setKept] = createSignal<WorktreeRemoval | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  return {
    worktree,
    wanted,
    setWanted,
    force,
    setForce,
    kept,
    error,
    /** Removes the worktree when wanted; false when the dialog should stay open (kept, or the machine could not). */
    async run(): Promise<boolean> {
      if (!worktree() || !wanted()) return true;
      setError(null);
      try {
        const r = await gitApi.removeWorktree(sessionId(), force());
        if (r.removed) return true;
        setKept(r);
        return false;
      } catch (err) {
        setError(`${(err as Error).message} — untick "Also remove its worktree" to go on without it.`);
        return false;
      }
    },
  };
}

export function WorktreeRemovalFields(props: { step: WorktreeRemovalStep }) {
  const s = props.step;
  return (
    <Show when={s.worktree()}>
      {(wt) => (
        <div class="wt-remove" data-testid="worktree-removal">
          <label class="modal-check">
            <input type="checkbox" checked={s.wanted()} onChange={(e) => s.setWanted(e.currentTarget.checked)} />
            <span>
              Also remove its worktree
              <span class="modal-help">
                <code>{wt().branch}</code> of {wt().repoName}, at {wt().worktreePath}
              </span>
            </span>
          </label>
          <Show when={s.wanted() && s.kept()}>
            {(k) => (
              <label class="modal-check modal-warn">
                <input type="checkbox" checked={s.force()} onChange={(e) => s.setForce(e.currentTarget.checked)} />
                <span>
                  Remove it anyway
                  <span class="modal-help" role="alert">
                    Kept: {k().reason}. Removing it loses {k().dirtyFiles ? "the uncommitted files" : "nothing uncommitted"}
                    {k().unpushedCommits ? `; the branch ${wt().branch} keeps its commits` : ""}.
                  </span>
                </span>
              </label>
            )}
          </Show>
          <Show when={s.error()}>
            <p class="modal-error" role="alert">
              {s.error()}
            </p>
          </Show>
        </div>
      )}
    </Show>
  );
}
