/**
 * The "@" picker's files (issue 29 #3): asks the server for the session directory's files matching what is typed
 * (GET /api/sessions/:id/files → the daemon's `files.list`), a pause after the last keystroke, and meanwhile
 * re-filters the last answer locally (shared/fuzzy-match.ts) so the list follows the typing at once. Failures
 * (offline machine, timeout) become the picker's status line; the draft is never touched.
 */
import { createEffect, createSignal, on, onCleanup } from "solid-js";
import { fuzzyFilter } from "../../../shared/fuzzy-match";
import { ApiError, call } from "../lib/api";

/** Files a picker shows: the daemon's own bound (shared/tunnel-ask.ts MAX_LISTED_FILES), kept here without zod. */
const SHOWN_FILES = 50;
/** The pause after a keystroke before asking the machine: one ask per word typed, not per letter. */
export const FILE_SEARCH_DEBOUNCE_MS = 120;

export type FilesAnswer = { ok: true; root: string; files: string[]; truncated: boolean } | { ok: false; code: string; message: string };

/** A `files.list` answer as the picker uses it; anything else is a BAD_REPLY (no cast of the wire). */
export function readFilesAnswer(body: unknown): FilesAnswer {
  if (typeof body === "object" && body !== null && "root" in body && "files" in body && "truncated" in body) {
    const { root, files, truncated } = body;
    if (typeof root === "string" && Array.isArray(files) && files.every((f): f is string => typeof f === "string") && typeof truncated === "boolean")
      return { ok: true, root, files, truncated };
  }
  return { ok: false, code: "BAD_REPLY", message: "The server's answer about the files did not make sense." };
}

/** What the picker says for a failed ask. */
export function filesFailureText(code: string, message: string): string {
  switch (code) {
    case "MACHINE_OFFLINE":
      return "The machine is offline: its files cannot be listed.";
    case "ASK_TIMEOUT":
      return "The machine did not answer in time. Keep typing to try again.";
    case "NETWORK":
      return "Cannot reach the server to list the files.";
    default:
      return `Files could not be listed: ${message}`;
  }
}

/** The server's list for session `sessionId`: never throws. */
export async function fetchFiles(sessionId: string, query: string): Promise<FilesAnswer> {
  try {
    return readFilesAnswer(await call<unknown>(`/api/sessions/${encodeURIComponent(sessionId)}/files?q=${encodeURIComponent(query)}`));
  } catch (err) {
    return err instanceof ApiError ? { ok: false, code: err.code, message: err.message } : { ok: false, code: "FAILED", message: String(err) };
  }
}

export type FileSearch = {
  /** The files to show for the current query, best first. */
  files: () => string[];
  /** The directory the paths are relative to (the last answer's). */
  root: () => string | null;
  /** A line for the picker instead of (or above) the list: listing, nothing found, or why not. */
  status: () => string | null;
};

/** Follows `query` (null: the picker is closed) with asks to `list`. */
export function createFileSearch(o: { query: () => string | null; list: (query: string) => Promise<FilesAnswer> }): FileSearch {
  const [answer, setAnswer] = createSignal<FilesAnswer | null>(null);
  const [pending, setPending] = createSignal(false);
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  createEffect(
    on(o.query, (q) => {
      clearTimeout(timer);
      const mine = ++seq;
      if (q === null) return setPending(false);
      setPending(true);
      timer = setTimeout(() => {
        void o.list(q).then((a) => {
          if (mine !== seq) return;
          setAnswer(a);
          setPending(false);
        });
      }, FILE_SEARCH_DEBOUNCE_MS);
    }),
  );
  onCleanup(() => clearTimeout(timer));
  const files = () => {
    const a = answer();
    const q = o.query();
    return a?.ok && q !== null ? fuzzyFilter(a.files, q, SHOWN_FILES) : [];
  };
  return {
    files,
    root: () => {
      const a = answer();
      return a?.ok ? a.root : null;
    },
    status: () => {
      if (o.query() === null) return null;
      const a = answer();
      if (files().length) return null;
      if (pending() || !a) return "Listing files…";
      if (!a.ok) return filesFailureText(a.code, a.message);
      return a.truncated ? "No matching files among those read; type more of the path." : "No matching files.";
    },
  };
}
