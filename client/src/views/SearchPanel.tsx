/**
 * Search inside the session (loaded on demand, the first time the header's search button is pressed):
 * a query field, results newest first with the match marked in a plain-text snippet, choosing one pages
 * the transcript to it; and the Markdown export. A popover under the header on wide screens, a
 * full-width sheet on phones. Kept mounted (hidden) between openings so the results are still there.
 */
import Download from "lucide-solid/icons/download";
import SearchIcon from "lucide-solid/icons/search";
import X from "lucide-solid/icons/x";
import { createEffect, createSignal, For, onCleanup, Show } from "solid-js";
import type { SearchHit } from "../../../shared/viewer-protocol";
import { type Ask, MIN_AUTO_QUERY_CHARS, queryProblem, SEARCH_DEBOUNCE_MS, snippetPieces, walkSearch, type WalkState } from "../session/search-logic";
import "./search-panel.css";

type Props = {
  open: boolean;
  onClose: () => void;
  ask: Ask;
  /** Brings the hit's row into view; resolves false when it could not be loaded. */
  onChoose: (hit: SearchHit) => Promise<boolean>;
  /** null: no export link (a spectator). */
  exportHref: string | null;
};

function kindLabel(hit: SearchHit): string {
  switch (hit.kind) {
    case "user":
      return hit.label ?? "Message";
    case "agent":
      return "Agent";
    case "tool":
      return hit.label ? `Tool · ${hit.label}` : "Tool";
  }
}

export function SearchPanel(props: Props) {
  const [query, setQuery] = createSignal("");
  const [ran, setRan] = createSignal<string | null>(null);
  const [walk, setWalk] = createSignal<WalkState | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [going, setGoing] = createSignal(false);
  let input!: HTMLInputElement;
  let generation = 0;

  const run = async (q: string, more = false) => {
    const bad = queryProblem(q);
    setProblem(bad);
    if (bad) return;
    const gen = ++generation;
    const prev = more ? walk() : null;
    setRan(q);
    setBusy(true);
    if (!more) setWalk(null);
    const result = await walkSearch(props.ask, q, {
      before: prev?.continueBefore ?? undefined,
      have: prev?.hits,
      stale: () => gen !== generation,
      onProgress: (s) => gen === generation && setWalk(s),
    });
    if (gen !== generation) return;
    setWalk(result);
    setProblem(result.error);
    setBusy(false);
  };

  // Typing searches by itself after a pause; Enter at once.
  createEffect(() => {
    const q = query();
    if (q.trim().length < MIN_AUTO_QUERY_CHARS || q.trim() === ran()?.trim()) return;
    const t = setTimeout(() => void run(q), SEARCH_DEBOUNCE_MS);
    onCleanup(() => clearTimeout(t));
  });
  createEffect(() => {
    if (props.open) queueMicrotask(() => input.focus());
  });

  const choose = async (hit: SearchHit) => {
    setGoing(true);
    const ok = await props.onChoose(hit);
    setGoing(false);
    if (!ok) setProblem("That message could not be loaded. Check the connection and try again.");
  };

  const status = () => {
    const w = walk();
    if (going()) return "Loading the conversation up to that message…";
    if (busy()) return w?.hits.length ? `${w.hits.length} found so far — searching older messages…` : "Searching…";
    if (!w) return "";
    const n = w.hits.length;
    const where = w.done ? "in the whole session" : "so far";
    return n === 0 ? (w.done ? "No matches in this session." : "No matches in the latest messages.") : `${n} ${n === 1 ? "match" : "matches"} ${where}, newest first.`;
  };

  return (
    <div
      class="search-panel"
      role="dialog"
      aria-label="Search this session"
      data-testid="search-panel"
      hidden={!props.open}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          props.onClose();
        }
      }}
    >
      <form
        class="search-bar"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void run(query());
        }}
      >
        <SearchIcon size={18} aria-hidden="true" class="search-icon" />
        <input
          ref={input}
          type="search"
          class="search-input"
          aria-label="Search this session"
          placeholder="Search messages, tools, commands"
          enterkeyhint="search"
          autocomplete="off"
          value={query()}
          aria-invalid={!!problem()}
          aria-describedby="search-status"
          onInput={(e) => setQuery(e.currentTarget.value)}
        />
        <button type="button" class="icon-btn" aria-label="Close search" onClick={() => props.onClose()}>
          <X size={18} />
        </button>
      </form>
      <div id="search-status" class="search-status" role="status" aria-live="polite" data-testid="search-status">
        <Show when={problem()} fallback={status()}>
          {(p) => <span class="search-problem">{p()}</span>}
        </Show>
      </div>
      <Show when={walk()?.hits.length}>
        <ul class="search-results" aria-label="Search results" aria-busy={going()}>
          <For each={walk()!.hits}>
            {(hit) => (
              <li>
                <button type="button" class="search-hit" data-testid="search-hit" disabled={going()} onClick={() => void choose(hit)}>
                  <span class={`hit-kind hit-${hit.kind}`}>{kindLabel(hit)}</span>
                  <span class="hit-snippet">
                    <For each={snippetPieces(hit.snippet, hit.marks)}>{(p) => (p.mark ? <mark>{p.text}</mark> : p.text)}</For>
                  </span>
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={!busy() && walk() && !walk()!.done && walk()!.continueBefore !== null && !walk()!.error}>
        <button type="button" class="btn btn-quiet search-more" onClick={() => void run(ran() ?? query(), true)}>
          Search older messages
        </button>
      </Show>
      <Show when={props.exportHref}>
        {(href) => (
          <div class="search-foot">
            <a class="btn btn-quiet search-export" href={href()} download="" data-testid="export-markdown">
              <Download size={16} aria-hidden="true" />
              Export as Markdown
            </a>
          </div>
        )}
      </Show>
    </div>
  );
}
