/** The composer draft as a signal, kept in localStorage per session so a reload loses nothing. */
import { createEffect, createSignal, on } from "solid-js";
import { MAX_VIEWER_FRAME_BYTES } from "../../../shared/limits";
import { type Draft, EMPTY_DRAFT, isDraftEmpty } from "./composer-logic";

/** A draft as large as the largest message (its text and images) is kept; a larger one lives in memory only. */
const MAX_PERSIST_CHARS = MAX_VIEWER_FRAME_BYTES;

export function createDraft(sessionId: string) {
  const key = `baton:draft:${sessionId}`;
  const [draft, setDraft] = createSignal<Draft>(load(key));
  createEffect(
    on(draft, (d) => {
      try {
        if (isDraftEmpty(d)) localStorage.removeItem(key);
        else {
          const json = JSON.stringify(d);
          if (json.length <= MAX_PERSIST_CHARS) localStorage.setItem(key, json);
        }
      } catch {
        /* storage unavailable: the draft still lives in memory */
      }
    }, { defer: true }),
  );
  return [draft, setDraft] as const;
}

function load(key: string): Draft {
  try {
    const d = JSON.parse(localStorage.getItem(key) ?? "null") as Draft | null;
    if (d && typeof d.text === "string" && Array.isArray(d.attachments)) return d;
  } catch {
    /* ignore a corrupt entry */
  }
  return EMPTY_DRAFT;
}
