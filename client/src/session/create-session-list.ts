/**
 * The live session list's store (issue 26): the feed socket, the page requests and the lifecycle calls,
 * folded by the plain rules in `list-state.ts`. Errors from the server are shown as toasts in its words.
 */
import { pageAsSent } from "../../../shared/session-list-rules";
import { createSignal, onCleanup } from "solid-js";
import type { BulkArchiveBody, BulkArchiveResult, DeleteSessionResult, SessionFeedFrame } from "../../../shared/session-list";
import { type FeedState, makeSessionFeed } from "../connection/session-feed";
import { api } from "../lib/api";
import { sentence } from "../lib/format";
import { toast } from "../lib/toasts";
import {
  abandonLoad,
  applyFirstPage,
  applyFrame,
  applyNextPage,
  beginLoad,
  DEFAULT_FILTER,
  initialListState,
  type ListFilter,
  type ListState,
  listSearch,
  pruneSelection,
  toggleSelected,
} from "./list-state";

/** The search box asks the server once typing pauses this long (not once per keystroke). */
export const TEXT_DEBOUNCE_MS = 250;
/**
 * Without the feed's hello for this long (a socket blocked on the way), the page is asked for anyway; long
 * enough that a slow connect's hello usually comes first (one page request, not two).
 */
export const HELLO_WAIT_MS = 4_000;

let checkModule: typeof import("./list-check") | null = null;
const loadCheck = () => import("./list-check").then((m) => (checkModule = m));
const checkIfLoaded = () => checkModule;

export type SessionListDeps = { api: Pick<typeof api, "sessionPage" | "updateSession" | "deleteSession" | "bulkArchive">; makeFeed: typeof makeSessionFeed };

const errorText = (e: unknown, fallback: string) => sentence((e instanceof Error && e.message) || fallback);

export function createSessionList(deps: SessionListDeps = { api, makeFeed: makeSessionFeed }) {
  const [state, setState] = createSignal<ListState>(initialListState());
  const [feedState, setFeedState] = createSignal<FeedState>("connecting");
  const [error, setError] = createSignal<string | null>(null);
  const [loadingMore, setLoadingMore] = createSignal(false);
  const [selection, setSelection] = createSignal<ReadonlySet<string>>(new Set());
  const [textDraft, setTextDraft] = createSignal("");

  const update = (f: (s: ListState) => ListState) => {
    const next = f(state());
    setState(next);
    setSelection((sel) => pruneSelection(sel, next.rows));
  };
  const applyFrames = (frames: SessionFeedFrame[]) => update((s) => frames.reduce(applyFrame, s));

  let gen = 0;
  async function loadFirst(filter: ListFilter = state().filter): Promise<void> {
    const g = ++gen;
    update((s) => beginLoad(s, filter));
    setError(null);
    try {
      const raw = await deps.api.sessionPage(listSearch(filter));
      if (g !== gen) return;
      // The check brings zod, which the home page paints without (issue 20): a page that came before it is
      // shown as the server (same origin) sent it and checked in full when the check arrives; one that does
      // not fit then is taken down with the error below.
      const loaded = checkIfLoaded();
      if (loaded) update((s) => applyFirstPage(s, loaded.parsePage(raw)));
      else {
        update((s) => applyFirstPage(s, pageAsSent(raw)));
        const check = await loadCheck();
        if (g === gen) check.parsePage(raw);
      }
    } catch (e) {
      if (g !== gen) return;
      setError(errorText(e, "Could not load sessions"));
      update(abandonLoad);
    }
  }

  async function loadMore(): Promise<void> {
    const cursor = state().nextCursor;
    if (!cursor || state().loading || loadingMore()) return;
    const g = gen;
    setLoadingMore(true);
    try {
      const [raw, check] = await Promise.all([deps.api.sessionPage(listSearch(state().filter, cursor)), loadCheck()]);
      if (g === gen) update((s) => applyNextPage(s, check.parsePage(raw)));
    } catch (e) {
      if (g === gen) toast(errorText(e, "Could not load more sessions"), "error");
    } finally {
      setLoadingMore(false);
    }
  }

  let textTimer: ReturnType<typeof setTimeout> | undefined;
  const setFilter = (patch: Partial<ListFilter>) => void loadFirst({ ...state().filter, ...patch });

  let heardHello = false;
  const helloTimer = setTimeout(() => {
    if (!heardHello) void loadFirst();
  }, HELLO_WAIT_MS);
  const feed = deps.makeFeed({
    onHello: () => {
      heardHello = true;
      clearTimeout(helloTimer);
      void loadFirst();
    },
    onFrame: (f) => applyFrames([f]),
    onState: setFeedState,
  });
  onCleanup(() => {
    clearTimeout(helloTimer);
    clearTimeout(textTimer);
    feed.close();
  });

  /** A lifecycle answer: the row it carries is applied like a feed upsert (the feed's own frame is then a no-op). */
  async function answered(raw: unknown): Promise<void> {
    const row = (await loadCheck()).rowOf(raw);
    if (row) applyFrames([{ type: "upsert", item: row }]);
    // Without the feed, the page is the only word on what changed.
    else if (feedState() !== "live") void loadFirst();
  }

  async function attempt<T>(fallback: string, run: () => Promise<T>): Promise<T | null> {
    try {
      return await run();
    } catch (e) {
      toast(errorText(e, fallback), "error");
      return null;
    }
  }

  return {
    state,
    feedState,
    error,
    loadingMore,
    selection,
    textDraft,
    retry: () => void loadFirst(),
    loadMore,
    setFilter,
    /** The search box: the list follows once typing pauses. */
    setText(text: string) {
      setTextDraft(text);
      clearTimeout(textTimer);
      textTimer = setTimeout(() => setFilter({ text: text.trim() || undefined }), TEXT_DEBOUNCE_MS);
    },
    clearFilters() {
      setTextDraft("");
      clearTimeout(textTimer);
      void loadFirst(DEFAULT_FILTER);
    },
    toggleSelected: (id: string) => setSelection((sel) => toggleSelected(sel, id)),
    selectAll: () => setSelection(new Set(state().rows.map((r) => r.id))),
    clearSelection: () => setSelection(new Set<string>()),

    async rename(id: string, title: string | null): Promise<boolean> {
      const raw = await attempt("Could not rename the session", () => deps.api.updateSession(id, { title }));
      if (raw === null) return false;
      await answered(raw);
      return true;
    },
    async setArchived(id: string, archived: boolean, confirmRunning = false): Promise<boolean> {
      const raw = await attempt(archived ? "Could not archive the session" : "Could not unarchive the session", () =>
        deps.api.updateSession(id, confirmRunning ? { archived, confirmRunning } : { archived }),
      );
      if (raw === null) return false;
      await answered(raw);
      return true;
    },
    async remove(id: string, deleteAgentSession: boolean): Promise<DeleteSessionResult | null> {
      const raw = await attempt("Could not delete the session", () => deps.api.deleteSession(id, { deleteAgentSession }));
      if (raw === null) return null;
      applyFrames([{ type: "remove", id, reason: "deleted" }]);
      const result = await attempt("The session was deleted; its answer was not understood", async () => (await loadCheck()).parseDeleteResult(raw));
      if (result?.agentSessionDeleted === false) toast(`The agent kept its own session: ${result.agentMessage || "it could not delete it"}`, "error");
      return result;
    },
    async bulkArchive(body: BulkArchiveBody): Promise<BulkArchiveResult | null> {
      const raw = await attempt("Could not archive the sessions", () => deps.api.bulkArchive(body));
      if (raw === null) return null;
      const result = await attempt("Archived; the answer was not understood", async () => (await loadCheck()).parseBulkResult(raw));
      if (!result) return null;
      setSelection(new Set<string>());
      if (feedState() !== "live") void loadFirst();
      const n = result.archived.length;
      const skipped = result.skipped.length ? ` — ${result.skipped.length} skipped (${result.skipped[0]!.reason}${result.skipped.length > 1 ? ", …" : ""})` : "";
      toast(`${n ? `Archived ${n} session${n === 1 ? "" : "s"}` : "Nothing to archive"}${skipped}`);
      return result;
    },
  };
}
export type SessionListStore = ReturnType<typeof createSessionList>;
