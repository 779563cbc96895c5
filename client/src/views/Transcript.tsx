import { For, Match, Show, Switch } from "solid-js";
import { promptPreview } from "../../../shared/blocks";
import type { Row } from "../../../shared/fold";
import { renderMarkdown } from "../lib/markdown";

type Props = { rows: Row[]; canAct: boolean; onPermission: (requestId: string, optionId: string) => void };

const TOOL_STATUS: Record<string, string> = { pending: "Pending", in_progress: "Running", completed: "Done", failed: "Failed" };

export function Transcript(props: Props) {
  return (
    <div class="transcript" data-testid="transcript">
      <Show when={props.rows.length === 0}>
        <p class="empty">No messages yet. Say hello — try <code>sleep 10</code>, then send another message while it runs.</p>
      </Show>
      <For each={props.rows}>
        {(row) => (
          <Switch>
            <Match when={row.kind === "user" && row}>
              {(r) => (
                <div class="row row-user" data-testid="row-user">
                  <div class="who">{r().author}</div>
                  <div class="bubble md" innerHTML={renderMarkdown(r().blocks.map((b) => (b.type === "text" ? b.text : promptPreview([b]))).join("\n\n"))} />
                </div>
              )}
            </Match>
            <Match when={row.kind === "agent" && row}>
              {(r) => <div class="row row-agent md" data-testid="row-agent" innerHTML={renderMarkdown(r().text)} />}
            </Match>
            <Match when={row.kind === "thought" && row}>
              {(r) => (
                <details class="row row-thought" data-testid="row-thought">
                  <summary>Thinking{r().open ? "…" : ""}</summary>
                  <div class="md" innerHTML={renderMarkdown(r().text)} />
                </details>
              )}
            </Match>
            <Match when={row.kind === "tool" && row}>
              {(r) => (
                <details class={`row row-tool status-${r().status}`} data-testid="row-tool" open={r().status !== "completed"}>
                  <summary>
                    <span class="tool-kind">{r().toolKind}</span>
                    <span class="tool-title">{r().title}</span>
                    <span class="tool-status">{TOOL_STATUS[r().status] ?? r().status}</span>
                  </summary>
                  <Show when={r().output}>
                    <pre class="tool-output">{r().output}</pre>
                  </Show>
                </details>
              )}
            </Match>
            <Match when={row.kind === "plan" && row}>
              {(r) => (
                <div class="row row-plan" data-testid="row-plan">
                  <div class="label">Plan</div>
                  <ol>
                    <For each={r().entries}>{(e) => <li class={`plan-${e.status}`}>{e.content}</li>}</For>
                  </ol>
                </div>
              )}
            </Match>
            <Match when={row.kind === "permission" && row}>
              {(r) => (
                <div class="row permission-card" data-testid="permission-card">
                  <div class="label">Permission requested</div>
                  <div class="perm-title">{r().title}</div>
                  <Show
                    when={r().resolved}
                    fallback={
                      <div class="perm-options">
                        <For each={r().options}>
                          {(o) => (
                            <button
                              class={`btn ${o.kind.startsWith("allow") ? "btn-primary" : ""}`}
                              disabled={!props.canAct}
                              onClick={() => props.onPermission(r().id.slice("perm:".length), o.optionId)}
                            >
                              {o.name}
                            </button>
                          )}
                        </For>
                      </div>
                    }
                  >
                    {(res) => (
                      <div class="perm-resolved">
                        {res().outcome === "cancelled"
                          ? "Cancelled"
                          : `${r().options.find((o) => o.optionId === res().optionId)?.name ?? res().optionId}${res().by ? ` — ${res().by}` : ""}`}
                      </div>
                    )}
                  </Show>
                </div>
              )}
            </Match>
            <Match when={row.kind === "error" && row}>{(r) => <div class="row row-error">{r().message}</div>}</Match>
            <Match when={row.kind === "notice" && row}>{(r) => <div class={`row row-notice notice-${r().level}`}>{r().text}</div>}</Match>
          </Switch>
        )}
      </For>
    </div>
  );
}
