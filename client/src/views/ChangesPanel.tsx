/**
 * The changes view (issue 28 #2): the files the session changed, with their diffs. From git while the machine is
 * online (the worktree against its base, or a session's own checkout against HEAD; untracked files included), from
 * the room's log otherwise (ACP diffs and tool locations; whole session or one turn). Wide: the list beside the
 * file, unified or side by side (remembered); phone: the list, then one file, unified. Syntax highlighting loads
 * with the first file shown; a diff over COLLAPSE_LINES opens collapsed. Lines of either source, in either layout,
 * are selected for review comments (issue 28 #3).
 */
import ArrowLeft from "lucide-solid/icons/arrow-left";
import X from "lucide-solid/icons/x";
import { createEffect, createMemo, createResource, createSignal, For, Match, on, onCleanup, Show, Switch } from "solid-js";
import type { LoggedChanges } from "../../../shared/changes-from-log";
import { type PatchLine, patchLines, type SideCell, sideBySide } from "../../../shared/patch-lines";
import type { ChangedFile, WorktreeDiff } from "../../../shared/worktree";
import { type ReviewComment, reviewMessage } from "../../../shared/review-message";
import { toast } from "../lib/toasts";
import { gitApi } from "../lib/git-api";
import type { Token } from "../lib/highlight";
import { followReview } from "../session/follow-review";
import "./changes-panel.css";

/** A diff longer than this many lines opens collapsed ("Show N lines"): a generated file should not bury the rest. */
export const COLLAPSE_LINES = 400;
/** Wide enough for old beside new (below: unified only, as on a phone). */
const SPLIT_MIN_WIDTH = "(min-width: 1024px)";
/** Where the chosen layout is remembered (per browser). */
const LAYOUT_KEY = "baton.changes.layout";

type Source = "git" | "log";
type Layout = "unified" | "split";

function storedLayout(): Layout {
  try {
    return localStorage.getItem(LAYOUT_KEY) === "split" ? "split" : "unified";
  } catch {
    return "unified";
  }
}
type Row = { path: string; note: string; git?: ChangedFile; log?: { oldText: string | null; newText: string | null; hasDiff: boolean } };

export function ChangesPanel(props: {
  sessionId: string;
  /** What git's diff compares with: a worktree's base, or HEAD (a session in the person's own checkout). */
  against: "base" | "head";
  online: boolean;
  /** Owner / member: may comment and send the review. */
  canAct: boolean;
  /** The review's change count from the session socket (`review` frames): another viewer's edit moves it. */
  reviewVersion?: number;
  /** Sends one message to the agent (queued like any message while a turn runs); false when refused. */
  send: (text: string) => Promise<boolean>;
  onClose: () => void;
}) {
  // Old beside new on a wide screen when chosen (remembered); a phone always shows one column.
  const wideQuery = typeof matchMedia === "function" ? matchMedia(SPLIT_MIN_WIDTH) : null;
  const [wide, setWide] = createSignal(wideQuery?.matches ?? false);
  const onWide = (e: MediaQueryListEvent) => setWide(e.matches);
  wideQuery?.addEventListener("change", onWide);
  onCleanup(() => wideQuery?.removeEventListener("change", onWide));
  const [layout, setLayout] = createSignal<Layout>(storedLayout());
  const toggleLayout = () => {
    const next: Layout = layout() === "split" ? "unified" : "split";
    setLayout(next);
    try {
      localStorage.setItem(LAYOUT_KEY, next);
    } catch {
      /* private mode: remembered for this view only */
    }
  };
  const split = () => wide() && layout() === "split";
  const [source, setSource] = createSignal<Source>(props.online ? "git" : "log");
  const [turn, setTurn] = createSignal<number | null>(null);
  const [selected, setSelected] = createSignal<string | null>(null);
  const [git] = createResource(
    () => (source() === "git" ? props.sessionId : null),
    (id): Promise<WorktreeDiff | { error: string }> => gitApi.gitDiff(id).catch((e: Error) => ({ error: e.message })),
  );
  const [log] = createResource(
    () => (source() === "log" ? props.sessionId : null),
    (id): Promise<LoggedChanges | { error: string }> => gitApi.loggedChanges(id).catch((e: Error) => ({ error: e.message })),
  );
  // Issue 28 #2: one turn from git (between its start and end snapshots) while the machine is online; the log's otherwise.
  const turnTrees = () => {
    const l = log();
    const t = turn();
    if (source() !== "log" || props.against !== "base" || !props.online || t === null || !l || "error" in l) return null;
    return l.turns.find((x) => x.index === t)?.trees ?? null;
  };
  const [turnGit] = createResource(
    () => {
      const trees = turnTrees();
      return trees ? { id: props.sessionId, trees } : null;
    },
    (k): Promise<WorktreeDiff | { error: string }> => gitApi.gitDiff(k.id, k.trees).catch((e: Error) => ({ error: e.message })),
  );
  /** The turn's diff from git, when it has one and git answered (an error falls back to the log). */
  const turnFromGit = () => {
    const d = turnTrees() ? turnGit() : undefined;
    return d && !("error" in d) ? d : null;
  };
  const gitRows = (d: WorktreeDiff): Row[] =>
    d.files.map((f) => ({ path: f.path, note: f.binary ? `${f.status}, binary` : f.truncated ? `${f.status}, too large to show` : f.status, git: f }));
  const current = () => (source() === "git" ? git() : (turnFromGit() ?? log()));
  const error = () => {
    const c = current();
    return c && "error" in c ? c.error : null;
  };
  const rows = createMemo((): Row[] => {
    if (source() === "git") {
      const d = git();
      if (!d || "error" in d) return [];
      return gitRows(d);
    }
    const fromGit = turnFromGit();
    if (fromGit) return gitRows(fromGit);
    const l = log();
    if (!l || "error" in l) return [];
    const t = turn();
    const files = t === null ? l.files : (l.turns.find((x) => x.index === t)?.files ?? []);
    return files.map((f) => ({
      path: f.path,
      note: !f.hasDiff ? "touched (no diff logged)" : f.oldText === null ? "added" : "edited",
      log: { oldText: f.oldText, newText: f.newText, hasDiff: f.hasDiff },
    }));
  });
  const note = () => {
    const c = current();
    if (!c || "error" in c) return null;
    return "note" in c ? c.note : c.truncated ? "Some texts were too large to keep: those files are listed without their diff." : null;
  };
  const chosen = () => rows().find((r) => r.path === selected()) ?? null;
  // Issue 28 #3: the session's review, kept on the server (every viewer sees it) until sent.
  const [review, { mutate: setReview }] = createResource(() => gitApi.review(props.sessionId).catch(() => [] as ReviewComment[]));
  followReview(() => props.reviewVersion ?? 0, () => gitApi.review(props.sessionId), setReview);
  const [sending, setSending] = createSignal(false);
  const addComment = async (c: { path: string; line: number; endLine: number; quoted: string; text: string }) => {
    try {
      setReview(await gitApi.addReviewComment(props.sessionId, c));
      return true;
    } catch (err) {
      toast((err as Error).message || "Could not add the comment", "error");
      return false;
    }
  };
  const sendReview = async () => {
    const list = review() ?? [];
    if (!list.length) return;
    setSending(true);
    try {
      if (!(await props.send(reviewMessage(list)))) return;
      setReview(await gitApi.clearReview(props.sessionId));
      toast("Review sent to the agent", "info");
    } catch (err) {
      toast((err as Error).message || "Sent; the comments could not be cleared", "error");
    } finally {
      setSending(false);
    }
  };

  return (
    <div class="changes" role="dialog" aria-label="Changes" data-testid="changes-panel">
      <div class="changes-head">
        <h2>Changes</h2>
        <div class="changes-tabs" role="group" aria-label="Source">
          <button type="button" class="btn btn-sm" aria-pressed={source() === "git"} onClick={() => setSource("git")}>
            From git
          </button>
          <button type="button" class="btn btn-sm" aria-pressed={source() === "log"} onClick={() => setSource("log")}>
            From the log
          </button>
        </div>
        <Show when={source() === "log" && log() && !("error" in log()!) ? (log() as LoggedChanges) : null}>
          {(l) => (
            <select class="changes-turn" aria-label="Turn" value={turn() === null ? "" : String(turn())} onChange={(e) => setTurn(e.currentTarget.value === "" ? null : Number(e.currentTarget.value))}>
              <option value="">Whole session</option>
              <For each={l().turns}>
                {(t) => (
                  <option value={String(t.index)}>
                    Turn {t.index + 1}
                    {t.trees && props.against === "base" && props.online ? " · from git" : ""}
                  </option>
                )}
              </For>
            </select>
          )}
        </Show>
        <Show when={wide()}>
          <button type="button" class="btn btn-sm changes-layout" aria-pressed={split()} onClick={toggleLayout}>
            Side by side
          </button>
        </Show>
        <button type="button" class="icon-btn changes-close" aria-label="Close changes" onClick={() => props.onClose()}>
          <X size={18} />
        </button>
      </div>
      <Switch>
        <Match when={(source() === "git" ? git.loading : log.loading)}>
          <p class="changes-empty">Loading…</p>
        </Match>
        <Match when={error()}>
          <p class="changes-empty" role="alert">
            {error()}
            <Show when={source() === "git"}> — the log still has what the agent's tools reported: choose "From the log".</Show>
          </p>
        </Match>
        <Match when={!rows().length}>
          <p class="changes-empty">{source() === "log" ? "No changes in the log." : props.against === "base" ? "No changes against the base." : "No uncommitted changes."}</p>
        </Match>
        <Match when={true}>
          <Show when={note()}>
            <p class="changes-note">{note()}</p>
          </Show>
          <div class="changes-body" classList={{ "has-file": !!chosen() }}>
            <ul class="changes-files" aria-label="Changed files">
              <For each={rows()}>
                {(r) => (
                  <li>
                    <button type="button" class="changes-file" aria-current={selected() === r.path ? "true" : undefined} onClick={() => setSelected(r.path)}>
                      <span class="mono changes-path">{r.path}</span>
                      <span class="changes-kind">{r.note}</span>
                    </button>
                  </li>
                )}
              </For>
            </ul>
            <div class="changes-detail">
              <Show when={chosen()} fallback={<p class="changes-empty wide-only">Choose a file.</p>}>
                {(r) => (
                  <>
                    <button type="button" class="btn btn-sm changes-back" onClick={() => setSelected(null)}>
                      <ArrowLeft size={14} aria-hidden="true" /> All files
                    </button>
                    <FileDiff row={r()} split={split()} canComment={props.canAct} onComment={addComment} />
                  </>
                )}
              </Show>
            </div>
          </div>
        </Match>
      </Switch>
      <Show when={(review()?.length ?? 0) > 0}>
        <section class="review" aria-label="Review">
          <ul class="review-list">
            <For each={review()}>
              {(c) => (
                <li class="review-item">
                  <span class="mono">
                    {c.path}:{c.endLine > c.line ? `${c.line}-${c.endLine}` : c.line}
                  </span>{" "}
                  <span>{c.text}</span> <span class="review-author">— {c.author}</span>
                  <Show when={props.canAct}>
                    <button type="button" class="icon-btn compact" aria-label={`Remove the comment on ${c.path}:${c.line}`} onClick={async () => setReview(await gitApi.clearReview(props.sessionId, c.id))}>
                      <X size={14} />
                    </button>
                  </Show>
                </li>
              )}
            </For>
          </ul>
          <Show when={props.canAct}>
            <button type="button" class="btn btn-primary" disabled={sending()} onClick={() => void sendReview()}>
              {sending() ? "Sending…" : `Send review (${review()!.length})`}
            </button>
          </Show>
        </section>
      </Show>
    </div>
  );
}

/** A selection of rows (indexes into the file's unified rows, the same in both layouts), and the comment being written on it. */
type Selection = { from: number; to: number };
type Comment = { path: string; line: number; endLine: number; quoted: string; text: string };


function FileDiff(props: { row: Row; split: boolean; canComment: boolean; onComment: (c: Comment) => Promise<boolean> }) {
  const [sel, setSel] = createSignal<Selection | null>(null);
  const [draft, setDraft] = createSignal("");
  /** A tap picks a line; a tap on a later line (nothing typed yet, or with Shift) extends the range; the same line again clears it. */
  const pick = (i: number, shift: boolean) => {
    if (!props.canComment) return;
    const s = sel();
    if (s && i === s.from && s.from === s.to) return setSel(null);
    if (s && i > s.from && (shift || !draft().trim())) return setSel({ from: s.from, to: i });
    setSel({ from: i, to: i });
  };
  // The rows a file shows: a git patch's hunks, or a logged edit's texts diffed (both numbered, both commentable).
  // The text diff comes with DiffView's chunk (the transcript's), so the session page preloads no chunk more.
  const [logRows] = createResource(
    () => (props.row.log?.hasDiff ? props.row.log : null),
    (l) => import("./DiffView").then((m) => m.textPatchLines(l.oldText, l.newText ?? "")),
  );
  const lines = createMemo((): PatchLine[] | null => (props.row.git ? (props.row.git.patch ? patchLines(props.row.git.patch) : null) : (logRows() ?? null)));
  const selected = () => {
    const s = sel();
    const l = lines();
    if (!s || !l) return null;
    const picked = l.slice(s.from, s.to + 1).flatMap((x) => (x.op === "@@" ? [] : [x]));
    const nums = picked.map((x) => x.newLine ?? x.oldLine ?? 0).filter((n) => n > 0);
    if (!nums.length) return null;
    return { line: Math.min(...nums), endLine: Math.max(...nums), quoted: picked.map((x) => x.text).join("\n") };
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const s = selected();
    if (!s || !draft().trim()) return;
    if (await props.onComment({ path: props.row.path, ...s, text: draft() })) {
      setDraft("");
      setSel(null);
    }
  };
  const [open, setOpen] = createSignal(false);
  const size = createMemo(() => lines()?.filter((x) => x.op !== "@@").length ?? 0);
  const collapsed = () => !open() && size() > COLLAPSE_LINES;
  // Highlighting loads with the first file shown (its own chunk, and a grammar per language); plain until then.
  const [highlighted] = createResource(
    () => (collapsed() ? null : lines()),
    (l) =>
      import("../lib/highlight")
        .then((m) => m.highlightRows(props.row.path, l))
        .then((tokens) => ({ rows: l, tokens }), () => ({ rows: l, tokens: null })),
  );
  // Another file chosen: its own selection, and no tokens of the last one while its own load.
  createEffect(on(() => props.row.path, () => (setSel(null), setOpen(false)), { defer: true }));
  const tokensOf = (i: number) => {
    const h = highlighted();
    return h && h.rows === lines() ? (h.tokens?.[i] ?? null) : null;
  };
  const picked = (i: number) => !!sel() && i >= sel()!.from && i <= sel()!.to;
  const view = { tokens: tokensOf, picked, pick };
  return (
    <div class="changes-file-diff" data-testid="file-diff">
      <Switch>
        <Match when={props.row.git && props.row.git.patch === null}>
          <div class="diff">
            <div class="diff-path">{props.row.path}</div>
            <p class="changes-empty">{props.row.git!.binary ? "A binary file: not shown." : "Too large to show here."}</p>
          </div>
        </Match>
        <Match when={props.row.log && !props.row.log.hasDiff}>
          <div class="diff">
            <div class="diff-path">{props.row.path}</div>
            <p class="changes-empty">The agent touched this file; its tool reported no diff.</p>
          </div>
        </Match>
        <Match when={collapsed()}>
          <div class="diff">
            <div class="diff-path">{props.row.path}</div>
            <p class="changes-empty">
              A large diff, collapsed.{" "}
              <button type="button" class="btn btn-sm" onClick={() => setOpen(true)}>
                Show {size()} lines
              </button>
            </p>
          </div>
        </Match>
        <Match when={lines()}>
          {(l) => (
            <div class="diff">
              <div class="diff-path">{props.row.path}</div>
              <Show when={props.split} fallback={<UnifiedLines rows={l()} view={view} canComment={props.canComment} />}>
                <SplitLines rows={l()} view={view} canComment={props.canComment} />
              </Show>
              <Show when={selected()}>
                {(s) => (
                  <form class="review-form" onSubmit={submit}>
                    <label>
                      <span class="modal-label">
                        Comment on {props.row.path}:{s().endLine > s().line ? `${s().line}-${s().endLine}` : s().line}
                      </span>
                      <textarea rows={3} value={draft()} onInput={(e) => setDraft(e.currentTarget.value)} />
                    </label>
                    <div class="review-form-actions">
                      <button type="button" class="btn btn-sm" onClick={() => setSel(null)}>
                        Cancel
                      </button>
                      <button type="submit" class="btn btn-sm btn-primary" disabled={!draft().trim()}>
                        Add comment
                      </button>
                    </div>
                  </form>
                )}
              </Show>
            </div>
          )}
        </Match>
      </Switch>
    </div>
  );
}

type LineView = { tokens: (i: number) => Token[] | null; picked: (i: number) => boolean; pick: (i: number, shift: boolean) => void };

const opClass = (op: " " | "-" | "+") => (op === "+" ? "diff-add" : op === "-" ? "diff-del" : "diff-ctx");

/** A row's text: its highlighted tokens (text nodes inside classed spans) or, until they load, the plain text. */
function LineText(props: { text: string; tokens: Token[] | null }) {
  return (
    <Show when={props.tokens} fallback={props.text}>
      {(t) => <For each={t()}>{(tok) => (tok.cls ? <span class={tok.cls}>{tok.text}</span> : tok.text)}</For>}
    </Show>
  );
}

function UnifiedLines(props: { rows: PatchLine[]; view: LineView; canComment: boolean }) {
  return (
    <pre class="diff-lines">
      <For each={props.rows}>
        {(x, i) =>
          x.op === "@@" ? (
            <span class="diff-skip">{x.text}</span>
          ) : (
            <span
              class={opClass(x.op)}
              classList={{ "diff-picked": props.view.picked(i()) }}
              data-line={x.newLine ?? x.oldLine ?? undefined}
              onClick={props.canComment ? (e) => props.view.pick(i(), e.shiftKey) : undefined}
            >
              <span class="diff-num" aria-hidden="true">
                {x.newLine ?? x.oldLine}
              </span>
              {x.op} <LineText text={x.text} tokens={props.view.tokens(i())} />
            </span>
          )
        }
      </For>
    </pre>
  );
}

/** Old beside new: each cell picks its unified row, so a comment is made the same way as in the unified view. */
function SplitLines(props: { rows: PatchLine[]; view: LineView; canComment: boolean }) {
  const pairs = createMemo(() => sideBySide(props.rows));
  const cell = (c: SideCell | null, side: "old" | "new") =>
    c ? (
      <span
        class={`diff-cell ${opClass(c.line.op)}`}
        classList={{ "diff-picked": props.view.picked(c.index) }}
        data-line={(side === "old" ? c.line.oldLine : c.line.newLine) ?? undefined}
        data-side={side}
        onClick={props.canComment ? (e) => props.view.pick(c.index, e.shiftKey) : undefined}
      >
        <span class="diff-num" aria-hidden="true">
          {side === "old" ? c.line.oldLine : c.line.newLine}
        </span>
        <LineText text={c.line.text} tokens={props.view.tokens(c.index)} />
      </span>
    ) : (
      <span class="diff-cell diff-none" data-side={side} />
    );
  return (
    <div class="diff-lines diff-split" data-testid="diff-split">
      <For each={pairs()}>
        {(r) =>
          r.kind === "hunk" ? (
            <span class="diff-skip diff-split-hunk">{r.text}</span>
          ) : (
            <>
              {cell(r.left, "old")}
              {cell(r.right, "new")}
            </>
          )
        }
      </For>
    </div>
  );
}
