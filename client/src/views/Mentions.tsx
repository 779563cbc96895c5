/**
 * The Sender's "@" mentions (issue 29 #3), loaded on demand (session/mentions-on-demand.ts) so the session page
 * paints without them: the file picker — the daemon's files (file-search.ts) in the popover and keyboard model
 * the "/" picker uses too — what a pick writes into the draft (mention-logic.ts), and the chips drawn under the
 * textarea's text. The Sender keeps the textarea and hands its keys here (MentionApi).
 */
import { createEffect, createMemo, For, onCleanup, onMount, Show } from "solid-js";
import type { PromptBlock } from "../../../shared/blocks";
import type { Draft } from "../session/composer-logic";
import { createPicker } from "../session/create-picker";
import { createFileSearch, type FilesAnswer } from "../session/file-search";
import { applyMention, mentionLink, mentionQuery, mentionSegments, pruneMentions } from "../session/mention-logic";
import { PickerPopover } from "./PickerPopover";

export { fetchFiles } from "../session/file-search";

/** A user row's text with its mention chips (issue 29 #3). */
export function MentionText(props: { text: string; blocks: readonly PromptBlock[] }) {
  return <For each={mentionSegments(props.text, props.blocks)}>{(seg) => (seg.mention ? <mark class="mention-chip">{seg.text}</mark> : seg.text)}</For>;
}

/** Whether `block` is a link shown as a chip in `text` (so not again as a pill). */
export function isChip(text: string, block: PromptBlock): boolean {
  return block.type === "resource_link" && mentionSegments(text, [block]).some((seg) => seg.mention);
}

/** What the Sender shares with the picker: its draft, caret and textarea, and how to write into the draft. */
export type SenderBridge = {
  draft: () => Draft;
  caret: () => number;
  input: () => HTMLTextAreaElement;
  /** The picker may open (the viewer can act, not closed by Escape at this text). */
  enabled: () => boolean;
  files: (query: string) => Promise<FilesAnswer>;
  write: (draft: Draft, caret: number) => void;
  dismiss: () => void;
  /** Receives the picker's keys and ARIA state once, when it is created. */
  expose: (api: MentionApi) => void;
};

/** What the picker gives the Sender's textarea: its keys, its ARIA state, and the text edit rule for links. */
export type MentionApi = {
  open: () => boolean;
  onKey: (e: KeyboardEvent, composing: boolean) => boolean;
  listId: () => string | undefined;
  activeId: () => string | undefined;
  /** For the Sender's polite live region: how many files, or the status line. */
  announcement: () => string;
  prune: (before: string, next: Draft) => Draft;
};

/** The "@" picker above the composer and the chips over the textarea's text. */
export function MentionLayer(s: SenderBridge) {
  const at = createMemo(() => (s.enabled() ? mentionQuery(s.draft().text, s.caret()) : null));
  const search = createFileSearch({ query: () => at()?.query ?? null, list: (q) => s.files(q) });
  const pick = (rel: string) => {
    const where = at();
    const root = search.root();
    if (!where || root === null) return;
    const next = applyMention(s.draft(), where, mentionLink(root, rel));
    s.write(next.draft, next.caret);
  };
  const picker = createPicker({ items: search.files, isOpen: () => at() !== null, resetOn: () => at()?.query, onPick: pick, onClose: () => s.dismiss() });
  const count = () => search.files().length;
  const listShown = () => at() !== null && count() > 0;
  s.expose({
    open: () => at() !== null,
    onKey: picker.onKey,
    listId: () => (listShown() ? picker.listId : undefined),
    activeId: () => (listShown() ? picker.optionId(picker.active()) : undefined),
    announcement: () => (at() === null ? "" : (search.status() ?? `${count()} ${count() === 1 ? "file" : "files"}`)),
    prune: pruneMentions,
  });
  return (
    <>
      <Show when={at()}>
        <PickerPopover picker={picker} label="Files" testId="file-list" items={search.files()} status={search.status()} onPick={pick}>
          {(rel) => <FileOption path={rel} />}
        </PickerPopover>
      </Show>
      <MentionChips draft={s.draft} input={s.input} />
    </>
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

/**
 * The mention chips: a copy of the draft's text laid exactly over the textarea (its box, font and scroll), the
 * text itself transparent, each `@path` of a link tinted. Over, not under: the textarea stays the only thing
 * that takes input, and the translucent tint lets its text show through.
 */
function MentionChips(props: { draft: () => Draft; input: () => HTMLTextAreaElement }) {
  let backdrop: HTMLDivElement | undefined;
  const segments = createMemo(() => mentionSegments(props.draft().text, props.draft().attachments));
  const place = () => {
    const input = props.input();
    if (!backdrop || !input) return;
    Object.assign(backdrop.style, { top: `${input.offsetTop}px`, left: `${input.offsetLeft}px`, width: `${input.clientWidth}px`, height: `${input.clientHeight}px` });
    backdrop.scrollTop = input.scrollTop;
  };
  createEffect(() => {
    segments();
    queueMicrotask(place);
  });
  onMount(() => {
    const input = props.input();
    input.addEventListener("scroll", place);
    // The textarea's own size, and the composer's: a row appearing above it (attachments) moves it down.
    const resized = typeof ResizeObserver === "function" ? new ResizeObserver(place) : null;
    resized?.observe(input);
    if (input.offsetParent) resized?.observe(input.offsetParent);
    onCleanup(() => {
      input.removeEventListener("scroll", place);
      resized?.disconnect();
    });
  });
  return (
    <Show when={segments().some((seg) => seg.mention)}>
      <div class="composer-backdrop composer-input" ref={(el) => ((backdrop = el), place())} aria-hidden="true" data-testid="mention-chips">
        <For each={segments()}>{(seg) => (seg.mention ? <mark class="mention-chip">{seg.text}</mark> : seg.text)}</For>
        {"\n"}
      </div>
    </Show>
  );
}
