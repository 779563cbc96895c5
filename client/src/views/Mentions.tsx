/**
 * The Sender's "@" file picker (issue 29 #3), loaded on demand (session/mentions-on-demand.ts): the files from the
 * daemon (file-search.ts) in the popover and keyboard model the "/" picker uses too, and what a pick writes into
 * the draft (mention-logic.ts). The Sender keeps the textarea; this hands it the picker's keys and ARIA state.
 */
import { Show } from "solid-js";
import type { Draft } from "../session/composer-logic";
import { createPicker, type Picker } from "../session/create-picker";
import { createFileSearch, type FilesAnswer } from "../session/file-search";
import { applyMention, mentionLink } from "../session/mention-logic";
import { PickerPopover } from "./PickerPopover";

export { fetchFiles } from "../session/file-search";
export { mentionSegments, pruneMentions } from "../session/mention-logic";

export type FilePickerState = {
  picker: Picker;
  /** The listbox is on screen (the picker may show only its status line). */
  listShown: () => boolean;
  /** For the Sender's polite live region: how many files, or the status line. */
  announcement: () => string;
};

export function FilePicker(props: {
  /** The "@…" word being typed; null while the picker is closed. */
  at: { start: number; end: number; query: string } | null;
  draft: Draft;
  files: (query: string) => Promise<FilesAnswer>;
  onPick: (draft: Draft, caret: number) => void;
  onClose: () => void;
  /** Receives the picker's keys and ARIA state once, when the picker is created. */
  expose: (state: FilePickerState) => void;
}) {
  const search = createFileSearch({ query: () => props.at?.query ?? null, list: (q) => props.files(q) });
  const pick = (rel: string) => {
    const at = props.at;
    const root = search.root();
    if (!at || root === null) return;
    const next = applyMention(props.draft, at, mentionLink(root, rel));
    props.onPick(next.draft, next.caret);
  };
  const picker = createPicker({ items: search.files, isOpen: () => props.at !== null, resetOn: () => props.at?.query, onPick: pick, onClose: () => props.onClose() });
  const count = () => search.files().length;
  props.expose({
    picker,
    listShown: () => props.at !== null && count() > 0,
    announcement: () => (props.at === null ? "" : (search.status() ?? `${count()} ${count() === 1 ? "file" : "files"}`)),
  });
  return (
    <Show when={props.at}>
      <PickerPopover picker={picker} label="Files" testId="file-list" items={search.files()} status={search.status()} onPick={pick}>
        {(rel) => <FileOption path={rel} />}
      </PickerPopover>
    </Show>
  );
}

/** A file in the picker: its name first, the folder it is in after (paths are long on a phone). */
function FileOption(props: { path: string }) {
  const cut = () => props.path.lastIndexOf("/");
  return (
    <>
      <span class="cmd-name">{props.path.slice(cut() + 1)}</span>
      <Show when={cut() > 0}>
        <span class="cmd-desc">{props.path.slice(0, cut())}</span>
      </Show>
    </>
  );
}
