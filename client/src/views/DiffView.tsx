/** An edit's diff (a tool's `diff` content): path, then the changed lines with a little context. Loaded with the first diff shown. */
import { createMemo, For } from "solid-js";
import { lineDiff, trimContext } from "../lib/diff";

/** The changes view (issue 28) numbers logged edits with this; re-exported so lib/diff stays in this one chunk. */
export { textPatchLines } from "../lib/diff";

export function DiffView(props: { path: string; oldText: string | null; newText: string }) {
  const lines = createMemo(() => trimContext(lineDiff(props.oldText, props.newText)));
  return (
    <div class="diff">
      <div class="diff-path">{props.path}</div>
      <pre class="diff-lines">
        <For each={lines()}>
          {(l) =>
            l.op === "…" ? (
              <span class="diff-skip">⋯ {l.count} unchanged line{l.count === 1 ? "" : "s"}</span>
            ) : (
              <span class={l.op === "+" ? "diff-add" : l.op === "-" ? "diff-del" : "diff-ctx"}>
                {l.op} {l.text}
              </span>
            )
          }
        </For>
      </pre>
    </div>
  );
}
