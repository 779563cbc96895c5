import GitBranch from "lucide-solid/icons/git-branch";
import { For, Show } from "solid-js";
import type { WorktreeChoice } from "../session/worktree-choice";

/** New session's "Work in a new worktree" with its base and branch, or why it is off (issue 28 #1). */
export function WorktreeFields(props: { choice: WorktreeChoice }) {
  const c = props.choice;
  const repo = () => {
    const s = c.state();
    return s.kind === "repo" ? s.repo : null;
  };
  const note = () => {
    const s = c.state();
    switch (s.kind) {
      case "idle":
        return "Choose a directory in a git repository";
      case "checking":
        return "Checking the directory…";
      case "none":
        return `Off: ${s.reason}`;
      case "repo":
        return c.on() ? "" : `Runs in ${s.repo.name} as it is checked out`;
    }
  };
  return (
    <fieldset class="worktree" data-testid="worktree-fields">
      <div class="wt-head">
        <label class="wt-toggle">
          <input type="checkbox" checked={c.on()} disabled={!repo()} onChange={(e) => c.setOn(e.currentTarget.checked)} />
          <GitBranch size={15} aria-hidden="true" />
          <span>Work in a new worktree</span>
        </label>
        <Show when={note()}>
          <span class="wt-note" data-testid="worktree-note">
            {note()}
          </span>
        </Show>
      </div>
      <Show when={c.on() && repo()}>
        {(r) => (
          <div class="wt-fields">
            <label>
              <span class="field-label">Base branch</span>
              <select value={c.base()} onChange={(e) => c.setBase(e.currentTarget.value)}>
                <For each={r().branches}>
                  {(b) => (
                    <option value={b} selected={b === c.base()}>
                      {b}
                    </option>
                  )}
                </For>
              </select>
            </label>
            <label class="grow">
              <span class="field-label">New branch</span>
              <input value={c.branch()} autocapitalize="off" autocomplete="off" spellcheck={false} onInput={(e) => c.setBranch(e.currentTarget.value)} />
            </label>
          </div>
        )}
      </Show>
    </fieldset>
  );
}
