import { createEffect, createMemo, createSignal, For, Match, on, onCleanup, onMount, Show, Switch, untrack } from "solid-js";
import { JOIN_WINDOW_ROWS } from "../../../shared/limits";
import type { ElicitationAction, ElicitationContent } from "../../../shared/viewer-protocol";
import type { Row } from "../../../shared/fold";
import { AgentMessage, ErrorRowView, NoticeRowView, PermissionCard, Plan, Thought, ToolCall, TurnEnd, UserMessage } from "./TranscriptRows";
import { lazyChunk } from "../lib/load-chunk";

/** Form questions are rare: their card (and its form rules) loads when one appears. */
const ElicitationCard = lazyChunk(() => import("./ElicitationCard").then((m) => ({ default: m.ElicitationCard })));

type Props = {
  rows: Row[];
  /** The viewer's own id (their rows read "You"). */
  viewerId?: string | null;
  canAct: boolean;
  /** The agent is working and has not produced the row we would show yet. */
  working?: boolean;
  empty?: string;
  /** The session's replay has not finished yet: an empty transcript is not known to be empty. */
  loading?: boolean;
  onPermission: (requestId: string, optionId: string) => void;
  /** An answer to the agent's form; resolves with the server's refusal text, or null. */
  onElicitation?: (requestId: string, action: ElicitationAction, content?: ElicitationContent) => Promise<string | null>;
  /**
   * The reader is at the bottom (stick-to-bottom). Then the rendered window slides with new rows;
   * otherwise it only grows, so nothing moves under someone reading older rows. Default: true.
   */
  following?: boolean;
  /** Older rows exist on the server (not loaded yet); false: the first row is loaded. Unset: not known. */
  hasOlder?: boolean;
  /** A page of older rows is on its way. */
  loadingOlder?: boolean;
  /** Asks the server for the page of rows before the oldest loaded; resolves once they are in `rows` (or it failed). */
  onLoadOlder?: () => Promise<unknown>;
  /**
   * A row to bring into view (a search result, already in `rows`): mounted with the rows after it,
   * scrolled to the middle, highlighted briefly and focused. `n` tells two requests for one row apart.
   */
  reveal?: { rowId: string; n: number } | null;
};

/**
 * Rows kept in the DOM from the end of the transcript; older ones mount a page at a time as the reader
 * scrolls up. A 5,000-row session then costs what ~a screenful costs, on load and while text streams
 * (bench/RESULTS.md: layout of every row on each streamed chunk dropped most frames).
 */
export const WINDOW_ROWS = JOIN_WINDOW_ROWS;
/** Older rows mounted per step as the reader scrolls up: a few screens, one short task (not a whole window). */
export const EARLIER_PAGE_ROWS = 40;
/**
 * When a long transcript lands at once (a join's replay), rows mounted per task, newest first: a
 * screenful paints with the replay's last frame and the rest of the window follows a step per task
 * (mounting the whole window there was 80–100 ms of that task's ~150 ms, bench/RESULTS.md run 7).
 */
export const LANDING_STEP_ROWS = 12;
/** How far above the viewport the top of the rows may be before the previous page mounts (or is fetched). */
const EARLIER_MARGIN_PX = 400;
/** Rows mounted above a revealed row: context to read it in (and room to scroll it to the middle). */
const REVEAL_CONTEXT_ROWS = 4;
/** How long a revealed row stays highlighted: long enough to find it on screen, short enough not to linger. */
const REVEAL_HIGHLIGHT_MS = 2500;

/** Rows were put above the ones held (an older page), not appended: `prev` is the list before. */
export function prependedRows(prev: { first?: string; last?: string; length: number }, next: readonly { id: string }[]): number {
  const grown = next.length - prev.length;
  if (grown <= 0 || prev.first === undefined || next[0]?.id === prev.first) return 0;
  return next[grown]?.id === prev.first && next[next.length - 1]?.id === prev.last ? grown : 0;
}

/**
 * Text still arriving at the end of the transcript: kept out of the live region (aria-live="off") while it
 * grows, so a screen reader does not re-read the paragraph on every streamed update. A row stops growing
 * when its turn ends or a later row follows it (a tool call, the next message); its answer is announced
 * then, once (AgentMessage mounts its finished text afresh).
 */
export function isGrowing(row: Row, isLast: boolean): boolean {
  return isLast && (row.kind === "agent" || row.kind === "thought") && row.streaming;
}

/** The first row index to render: the last `shown` rows (all when fewer). */
export function windowStart(total: number, shown: number): number {
  return Math.max(0, total - shown);
}

function scrollParent(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const y = getComputedStyle(p).overflowY;
    if (y === "auto" || y === "scroll") return p;
  }
  return null;
}

export function Transcript(props: Props) {
  const last = () => props.rows[props.rows.length - 1];
  const showWorking = () => props.working && (!last() || last()!.kind === "user" || last()!.kind === "plan");
  const [shown, setShown] = createSignal(WINDOW_ROWS);
  // A landing caps the window at a growing number of rows until it reaches WINDOW_ROWS. It is a memo,
  // not a signal set by an effect: the row list reads it, so the cap holds before any row mounts.
  const [tick, setTick] = createSignal(0);
  /** The row list as last seen, to tell an older page put on top from rows landing at the end. */
  const ends = () => ({ first: props.rows[0]?.id, last: props.rows[props.rows.length - 1]?.id, length: props.rows.length });
  let seen = untrack(ends);
  const prepended = createMemo(() => {
    const n = prependedRows(seen, props.rows);
    seen = ends();
    return n;
  });
  const landing = createMemo<{ rows: number; tick: number; cap: number | null }>(
    (prev) => {
      const rows = props.rows.length;
      const t = tick();
      if (rows - prev.rows > LANDING_STEP_ROWS && !prepended() && untrack(() => props.following) !== false) return { rows, tick: t, cap: LANDING_STEP_ROWS };
      if (prev.cap === null || t === prev.tick) return { rows, tick: t, cap: prev.cap };
      const cap = prev.cap + LANDING_STEP_ROWS;
      return { rows, tick: t, cap: cap >= WINDOW_ROWS ? null : cap };
    },
    { rows: 0, tick: 0, cap: null },
  );
  /** Rows a landing lets mount so far; null when no landing is in progress. */
  const landingCap = createMemo(() => landing().cap);
  // Each step mounted, the next one in a later task (the browser may paint in between).
  createEffect(() => {
    if (landingCap() === null) return;
    const next = setTimeout(() => setTick((t) => t + 1), 0);
    onCleanup(() => clearTimeout(next));
  });
  // New rows while the reader is up the page: grow the window so the rows they read stay mounted.
  // At the bottom: trim back to the window (the oldest rows unmount above the viewport).
  createEffect(
    on(
      () => props.rows.length,
      (n, prev) => {
        if (untrack(prepended)) return; // mounted by loadOlder, keeping the reader's place
        if (props.following === false) {
          if (prev !== undefined && n > prev) setShown((s) => s + (n - prev));
        } else if (shown() > WINDOW_ROWS) setShown(WINDOW_ROWS);
      },
    ),
  );
  createEffect(on(() => props.following, (f) => f !== false && shown() > WINDOW_ROWS && setShown(WINDOW_ROWS), { defer: true }));
  const start = () => windowStart(props.rows.length, landingCap() ?? shown());
  const visible = () => (start() === 0 ? props.rows : props.rows.slice(start()));

  let sentinel: HTMLDivElement | undefined;
  /** Mounts `n` more rows above, keeping what is on screen where it was. */
  const mountAbove = (n: number) => {
    const scroller = sentinel ? scrollParent(sentinel) : null;
    const top = scroller?.scrollTop ?? 0;
    const before = scroller?.scrollHeight ?? 0;
    setShown((s) => s + n);
    if (!scroller) return;
    const grown = scroller.scrollHeight - before;
    // Browsers with scroll anchoring have already kept the view in place (not at scrollTop 0); Safari has not.
    if (scroller.scrollTop === top) scroller.scrollTop = top + grown;
  };
  const canLoadOlder = () => start() === 0 && props.hasOlder === true && !!props.onLoadOlder;
  /** The previous page: mounted from the rows held, else asked from the server (then mounted the same way). */
  const showEarlier = () => {
    if (start() > 0) return mountAbove(EARLIER_PAGE_ROWS);
    if (!canLoadOlder() || props.loadingOlder) return;
    const had = props.rows.length;
    void props.onLoadOlder!().then(() => {
      const added = props.rows.length - had;
      if (added <= 0) return; // failed (offline…): the reader's next scroll or the button asks again
      mountAbove(added);
      // Still at the top (a short page): the observer will not fire again by itself.
      requestAnimationFrame(() => sentinelNearTop() && showEarlier());
    });
  };
  const sentinelNearTop = (): boolean => {
    const scroller = sentinel ? scrollParent(sentinel) : null;
    if (!sentinel || !scroller) return false;
    return sentinel.getBoundingClientRect().bottom > scroller.getBoundingClientRect().top - EARLIER_MARGIN_PX;
  };
  onMount(() => {
    if (!sentinel || typeof IntersectionObserver === "undefined") return;
    // Reaching the top of the rendered rows loads the previous page (the button is the fallback).
    // Not while a landing mounts its window: the few rows of its first step leave the sentinel in view.
    const io = new IntersectionObserver(
      (entries) => entries.some((e) => e.isIntersecting) && (start() > 0 || canLoadOlder()) && landingCap() === null && showEarlier(),
      // The scroller as root: a margin on the viewport would not reach past the scroller's clipping.
      { root: scrollParent(sentinel), rootMargin: `${EARLIER_MARGIN_PX}px 0px 0px 0px` },
    );
    io.observe(sentinel);
    onCleanup(() => io.disconnect());
  });
  let root: HTMLDivElement | undefined;
  createEffect(
    on(
      () => props.reveal,
      (r) => {
        if (!r) return;
        const index = untrack(() => props.rows.findIndex((row) => row.id === r.rowId));
        if (index < 0) return;
        const need = props.rows.length - index + REVEAL_CONTEXT_ROWS;
        if (untrack(shown) < need) setShown(need);
        // The row mounts with this update; find it once the DOM has it.
        queueMicrotask(() => {
          const slot = root?.querySelector(`[data-row-id="${CSS.escape(r.rowId)}"]`);
          const el = slot?.firstElementChild;
          if (!(el instanceof HTMLElement)) return;
          el.scrollIntoView({ block: "center" });
          el.classList.add("row-found");
          el.tabIndex = -1;
          el.focus({ preventScroll: true });
          setTimeout(() => el.classList.remove("row-found"), REVEAL_HIGHLIGHT_MS);
        });
      },
      { defer: true },
    ),
  );
  return (
    <div ref={root} class="transcript" data-testid="transcript" role="log" aria-live="polite" aria-relevant="additions" aria-busy={landingCap() !== null}>
      <div ref={sentinel} class="transcript-earlier">
        <Switch>
          <Match when={start() > 0}>
            <button class="btn btn-quiet btn-sm" data-testid="show-earlier" onClick={showEarlier}>
              Show earlier messages ({start().toLocaleString()})
            </button>
          </Match>
          <Match when={props.loadingOlder}>
            <p class="transcript-edge" role="status" data-testid="loading-earlier">
              Loading earlier messages…
            </p>
          </Match>
          <Match when={canLoadOlder()}>
            <button class="btn btn-quiet btn-sm" data-testid="show-earlier" onClick={showEarlier}>
              Load earlier messages
            </button>
          </Match>
          <Match when={props.hasOlder === false && props.rows.length > 0}>
            <p class="transcript-edge" data-testid="session-start">
              Beginning of the session
            </p>
          </Match>
        </Switch>
      </div>
      <Show when={props.rows.length === 0 && props.loading}>
        <div class="transcript-empty" role="status" data-testid="transcript-loading">
          <p class="empty-sub">Loading the session…</p>
        </div>
      </Show>
      <Show when={props.rows.length === 0 && !props.working && !props.loading}>
        <div class="transcript-empty">
          <p class="empty-title">No messages yet</p>
          <p class="empty-sub">{props.empty ??
              (props.canAct
                ? "Say hello. While the agent works, you can queue the next message."
                : "You are following this session read-only; messages appear here as they are sent.")}</p>
        </div>
      </Show>
      <For each={visible()}>
        {(row) => {
          const growing = () => isGrowing(row, row === last());
          return (
          <div class="row-slot" data-row-id={row.id} aria-live={growing() ? "off" : undefined}>
          <Switch>
            <Match when={row.kind === "user" && row}>{(r) => <UserMessage row={r()} mine={!!props.viewerId && r().author.id === props.viewerId} />}</Match>
            <Match when={row.kind === "agent" && row}>{(r) => <AgentMessage row={r()} growing={growing()} />}</Match>
            <Match when={row.kind === "thought" && row}>{(r) => <Thought row={r()} />}</Match>
            <Match when={row.kind === "tool" && row}>{(r) => <ToolCall row={r()} />}</Match>
            <Match when={row.kind === "plan" && row}>{(r) => <Plan row={r()} />}</Match>
            <Match when={row.kind === "permission" && row}>{(r) => <PermissionCard row={r()} canAct={props.canAct} onRespond={props.onPermission} />}</Match>
            <Match when={row.kind === "elicitation" && row}>
              {(r) => <ElicitationCard row={r()} canAct={props.canAct && !!props.onElicitation} onRespond={props.onElicitation ?? (async () => null)} />}
            </Match>
            <Match when={row.kind === "error" && row}>{(r) => <ErrorRowView message={r().message} code={r().code} />}</Match>
            <Match when={row.kind === "notice" && row}>{(r) => <NoticeRowView level={r().level} text={r().text} />}</Match>
            <Match when={row.kind === "turn_end" && row}>{(r) => <TurnEnd stopReason={r().stopReason} />}</Match>
          </Switch>
          </div>
          );
        }}
      </For>
      <Show when={showWorking()}>
        <div class="row row-working" data-testid="working" role="img" aria-label="The agent is working">
          <span class="typing">
            <i />
            <i />
            <i />
          </span>
        </div>
      </Show>
    </div>
  );
}
