/**
 * The changes view (issue 28 #2): the files the session changed, with their diffs. From git while the machine is
 * online (the worktree against its base, untracked files included), from the room's log otherwise (ACP diffs and
 * tool locations; whole session or one turn). Wide: the list beside the file; phone: the list, then one file.
 */
import ArrowLeft from "lucide-solid/icons/arrow-left";
import X from "lucide-solid/icons/x";
import { createMemo, createResource, createSignal, For, Match, Show, Switch } from "solid-js";
import type { LoggedChanges } from "../../../shared/changes-from-log";
import { patchLines } from "../../../shared/patch-lines";
import type { ChangedFile, WorktreeDiff } from "../../../shared/worktree";
import { type ReviewComment, reviewMessage } from "../../../shared/review-message";
import { toast } from "../lib/toasts";
import { gitApi } from "../lib/git-api";
import { DiffView } from "./DiffView";
import "./changes-panel.css";

/** A diff longer than this many lines opens collapsed: a generated file should not bury the rest. */
const COLLAPSE_LINES = 400;

type Source = "git" | "log";
type Row = { path: string; note: string; git?: ChangedFile; log?: { oldText: string | null; newText: string | null; hasDiff: boolean } };

export function ChangesPanel(props: {
  sessionId: string;
  /** What git's diff compares with: a worktree's base, or HEAD (a session in the person's own checkout). */
  against: "base" | "head";
  online: boolean;
  /** Owner / member: may comment and send the review. */
  canAct: boolean;
  /** Sends one message to the agent (queued like any message while a turn runs); false when refused. */
  send: (text: string) => Promise<boolean>;
  onClose: () => void;
}) {
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
  const current = () => (source() === "git" ? git() : log());
  const error = () => {
    const c = current();
    return c && "error" in c ? c.error : null;
  };
  const rows = createMemo((): Row[] => {
    if (source() === "git") {
      const d = git();
      if (!d || "error" in d) return [];
      return d.files.map((f) => ({ path: f.path, note: f.binary ? `${f.status}, binary` : f.truncated ? `${f.status}, too large to show` : f.status, git: f }));
    }
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
              <For each={l().turns}>{(t) => <option value={String(t.index)}>Turn {t.index + 1}</option>}</For>
            </select>
          )}
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
                    <FileDiff row={r()} canComment={props.canAct} onComment={addComment} />
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

/** A selection of lines in a git patch (indexes into its rows), and the comment being written on it. */
type Selection = { from: number; to: number };

function FileDiff(props: { row: Row; canComment: boolean; onComment: (c: { path: string; line: number; endLine: number; quoted: string; text: string }) => Promise<boolean> }) {
  const [sel, setSel] = createSignal<Selection | null>(null);
  const [draft, setDraft] = createSignal("");
  /** A tap picks a line; a tap on a later line (nothing typed yet, or with Shift) extends the range; the same line again clears it. */
  const pick = (i: number, shift: boolean) => {
    const s = sel();
    if (s && i === s.from && s.from === s.to) return setSel(null);
    if (s && i > s.from && (shift || !draft().trim())) return setSel({ from: s.from, to: i });
    setSel({ from: i, to: i });
  };
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
  const lines = createMemo(() => (props.row.git?.patch ? patchLines(props.row.git.patch) : null));
  const size = () => lines()?.length ?? (props.row.log?.newText?.split("\n").length ?? 0);
  const collapsed = () => !open() && size() > COLLAPSE_LINES;
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
            <button type="button" class="btn btn-sm" onClick={() => setOpen(true)}>
              Show the {size()}-line diff
            </button>
          </div>
        </Match>
        <Match when={lines()}>
          {(l) => (
            <div class="diff">
              <div class="diff-path">{props.row.path}</div>
              <pre class="diff-lines">
                <For each={l()}>
                  {(x, i) =>
                    x.op === "@@" ? (
                      <span class="diff-skip">{x.text}</span>
                    ) : (
                      <span
                        class={x.op === "+" ? "diff-add" : x.op === "-" ? "diff-del" : "diff-ctx"}
                        classList={{ "diff-picked": !!sel() && i() >= sel()!.from && i() <= sel()!.to }}
                        data-line={x.newLine ?? x.oldLine ?? undefined}
                        onClick={props.canComment ? (e) => pick(i(), e.shiftKey) : undefined}
                      >
                        <span class="diff-num" aria-hidden="true">
                          {x.newLine ?? x.oldLine}
                        </span>
                        {x.op} {x.text}
                      </span>
                    )
                  }
                </For>
              </pre>
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
        <Match when={props.row.log}>
          {(l) => <DiffView path={props.row.path} oldText={l().oldText} newText={l().newText ?? ""} />}
        </Match>
      </Switch>
    </div>
  );
}
