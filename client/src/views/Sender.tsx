import ArrowUp from "lucide-solid/icons/arrow-up";
import ChevronDown from "lucide-solid/icons/chevron-down";
import Clock from "lucide-solid/icons/clock";
import Settings2 from "lucide-solid/icons/settings-2";
import Square from "lucide-solid/icons/square";
import { createEffect, createMemo, createSignal, createUniqueId, For, on, onMount, Show, Suspense } from "solid-js";
import type { Command } from "../../../shared/fold";
import type { ConfigState } from "../../../shared/viewer-protocol";
import type { ImageFitter } from "../composer/attach-files";
import { createPopover } from "../lib/create-popover";
import {
  APPLIES_NEXT_TURN,
  composerButtons,
  type Attachment,
  type ConfigWrite,
  type Draft,
  isDraftEmpty,
  isSendKey,
  optionsFor,
  selectorsFor,
} from "../session/composer-logic";
import { createPicker } from "../session/create-picker";
import type { FilesAnswer } from "../session/file-search";
import { mentions } from "../session/mentions-on-demand";
import { applyCommand, commandName, filterCommands, slashQuery } from "../session/slash-logic";
import type { MentionApi } from "./Mentions";
import { OptionList } from "./OptionList";
import { PickerPopover } from "./PickerPopover";
import { lazyChunk } from "../lib/load-chunk";

/** Attachments and the attach / dictation buttons load after the first paint (the session page's initial JS has a budget). */
const AttachmentTray = lazyChunk(() => import("./ComposerTools").then((m) => ({ default: m.AttachmentTray })));
const ComposerTools = lazyChunk(() => import("./ComposerTools"));
/** The options sheet's rows: rendered only when it is open. */
const OptionsSheet = lazyChunk(() => import("./OptionsSheet"));

type Props = {
  draft: Draft;
  onDraft: (d: Draft) => void;
  turnActive: boolean;
  canAct: boolean;
  config: ConfigState | null;
  onSend: () => void;
  onStop: () => void;
  /** A config write: a pill, or an option of the options sheet (booleans write a boolean). */
  onSelect: (spec: ConfigWrite, value: string | boolean) => void;
  /** The agent's slash commands (`available_commands_update`): "/" at the start opens a picker. */
  commands?: readonly Command[];
  /** Why sending is impossible right now (shown as the placeholder), if it is. */
  placeholder?: string;
  /** The session directory's files matching a query (the "@" picker); without it "@" opens nothing. */
  files?: (query: string) => Promise<FilesAnswer>;
  /** Receives a function that focuses the textarea (after a take-back, for instance). */
  focusRef?: (focus: () => void) => void;
  /** Says what could not be attached (and why); the draft is kept. */
  onError?: (message: string) => void;
  /** Resizes an attached image (the component tests give a real codec; the browser's canvas otherwise). */
  fitImage?: ImageFitter;
};

const MAX_HEIGHT_VH = 0.4;

export function Sender(props: Props) {
  let input!: HTMLTextAreaElement;
  // A setting changed while a turn runs: said beside the controls until the turn ends (not a toast).
  const [changedMidTurn, setChangedMidTurn] = createSignal<string | null>(null);
  createEffect(() => {
    if (!props.turnActive) setChangedMidTurn(null);
  });
  const select = (spec: ConfigWrite, value: string | boolean) => {
    if (props.turnActive) setChangedMidTurn(spec.label);
    props.onSelect(spec, value);
  };
  let composing = false;
  let composedAt = 0;
  const onError = (m: string) => props.onError?.(m);
  // ---- attachments (picker, camera, paste, drop): the rules and the image fitting load on the first one
  const addFiles = (files: File[]) =>
    void import("./ComposerTools").then((m) =>
      m.attachFiles(files, { draft: () => props.draft, onDraft: (d) => props.onDraft(d), config: () => props.config, canAct: () => props.canAct, onError, fitImage: props.fitImage }),
    );
  const takeFiles = (e: Event, list: FileList | null | undefined) => {
    if (!list?.length || !props.canAct) return;
    e.preventDefault();
    addFiles([...list]);
  };

  const grow = () => {
    if (!input) return;
    input.style.height = "auto";
    const max = Math.max(120, window.innerHeight * MAX_HEIGHT_VH);
    input.style.height = `${Math.min(input.scrollHeight, max)}px`;
  };
  // External draft changes (take-back, restore, send) resize too.
  createEffect(on(() => props.draft.text, () => queueMicrotask(grow)));
  onMount(() => {
    grow();
    props.focusRef?.(() => {
      input.focus();
      const end = input.value.length;
      input.setSelectionRange(end, end);
    });
  });

  // ---- the pickers: "/" commands and "@" files, one popover and one keyboard model
  const [caret, setCaret] = createSignal(0);
  /** The draft text Esc closed a picker at: it stays closed until the text changes. */
  const [dismissedAt, setDismissedAt] = createSignal<string | null>(null);
  const trackCaret = () => input && setCaret(input.selectionStart ?? input.value.length);
  /** Puts `text` in the draft with the caret (or a selection) at `selection`, focus kept in the textarea. */
  const writeDraft = (draft: Draft, selection: [number, number]) => {
    setCaret(selection[1]);
    props.onDraft(draft);
    queueMicrotask(() => {
      input.focus();
      input.setSelectionRange(selection[0], selection[1]);
      setCaret(selection[1]);
      grow();
    });
  };

  const hasCommands = () => (props.commands?.length ?? 0) > 0;
  const query = () => slashQuery(props.draft.text, caret());
  const matches = createMemo(() => {
    const q = query();
    return q === null || !props.commands ? [] : filterCommands(props.commands, q);
  });
  const slashOpen = () => props.canAct && matches().length > 0 && dismissedAt() !== props.draft.text;
  const pickCommand = (c: Command) => {
    const next = applyCommand(props.draft.text, c);
    writeDraft({ ...props.draft, text: next.text }, next.selection);
  };
  const slash = createPicker({ items: matches, isOpen: slashOpen, resetOn: query, onPick: pickCommand, onClose: () => setDismissedAt(props.draft.text) });

  // "@": the file picker and the chips load on demand (Mentions.tsx), warmed after the first paint; until then "@" just types.
  const code = mentions.current;
  onMount(() => props.files && mentions.warm());
  const [at, setAt] = createSignal<MentionApi | null>(null);

  // ---- config options sheet
  const optionsPop = createPopover("above-composer");
  const optionsOpen = optionsPop.open;
  const options = () => optionsFor(props.config);
  const hasExtraOptions = () => options().some((o) => !o.main);

  const hasDraft = () => !isDraftEmpty(props.draft);
  const buttons = () => composerButtons({ turnActive: props.turnActive, hasDraft: hasDraft(), canAct: props.canAct });
  const selectors = () => selectorsFor(props.config);
  const placeholder = () =>
    props.placeholder ?? (!props.canAct ? "Read-only — you are viewing this session" : props.turnActive ? "Queue a follow-up…" : "Message the agent…");

  /** A mentioned file is its chip in the text (where the chips are drawn): no pill for it above. */
  const hasPill = (a: Attachment) => !(props.files && code()?.isChip(props.draft.text, a));
  const trySend = () => {
    if (props.canAct && hasDraft()) props.onSend();
  };

  return (
    <div class="composer" classList={{ running: props.turnActive }} data-testid="composer"
      onPaste={(e) => takeFiles(e, e.clipboardData?.files)}
      onDragOver={(e) => props.canAct && e.dataTransfer?.types.includes("Files") && e.preventDefault()}
      onDrop={(e) => takeFiles(e, e.dataTransfer?.files)}
    >
      <Show when={props.draft.attachments.some(hasPill)}>
        <Suspense>
          <AttachmentTray
            attachments={props.draft.attachments}
            shown={hasPill}
            onRemove={(i) => props.onDraft({ ...props.draft, attachments: props.draft.attachments.filter((_, j) => j !== i) })}
          />
        </Suspense>
      </Show>
      <span class="sr-only" aria-live="polite" data-testid="slash-count">
        {slashOpen() ? `${matches().length} ${matches().length === 1 ? "command" : "commands"}` : (at()?.announcement() ?? "")}
      </span>
      <Show when={slashOpen()}>
        <PickerPopover picker={slash} label="Commands" testId="slash-list" items={matches()} onPick={pickCommand}>
          {(c) => (
            <>
              <span class="cmd-name">/{commandName(c)}</span>
              <span class="cmd-desc">{c.description}</span>
            </>
          )}
        </PickerPopover>
      </Show>
      <Show when={props.files && code()}>
        {(m) =>
          m().MentionLayer({
            draft: () => props.draft,
            caret,
            input: () => input,
            enabled: () => props.canAct && dismissedAt() !== props.draft.text,
            files: (q) => props.files!(q),
            write: (draft, to) => writeDraft(draft, [to, to]),
            dismiss: () => setDismissedAt(props.draft.text),
            expose: (api) => setAt(() => api),
          })
        }
      </Show>
      <textarea
        ref={input}
        data-testid="composer-input"
        class="composer-input"
        aria-label="Message"
        // A textarea keeps its implicit textbox role (an editable combobox must be single-line, ARIA 1.2).
        aria-haspopup={hasCommands() || props.files ? "listbox" : undefined}
        aria-autocomplete={slashOpen() || at()?.open() ? "list" : undefined}
        aria-controls={slashOpen() ? slash.listId : at()?.listId()}
        aria-activedescendant={slashOpen() ? slash.optionId(slash.active()) : at()?.activeId()}
        onKeyUp={trackCaret}
        onClick={trackCaret}
        onBlur={() => setDismissedAt(props.draft.text)}
        onFocus={() => setDismissedAt(null)}
        rows={1}
        placeholder={placeholder()}
        disabled={!props.canAct}
        value={props.draft.text}
        enterkeyhint={props.turnActive ? "enter" : "send"}
        onInput={(e) => {
          setCaret(e.currentTarget.selectionStart ?? e.currentTarget.value.length);
          const next = { ...props.draft, text: e.currentTarget.value };
          props.onDraft(at()?.prune(props.draft.text, next) ?? next);
          grow();
        }}
        onCompositionStart={() => (composing = true)}
        onCompositionEnd={() => {
          composing = false;
          composedAt = Date.now();
        }}
        onKeyDown={(e) => {
          if (slash.onKey(e, composing) || at()?.onKey(e, composing)) return;
          if (!isSendKey(e)) return;
          // Safari fires the IME's confirming Enter just after compositionend.
          if (composing || Date.now() - composedAt < 50) return;
          e.preventDefault();
          trySend();
        }}
      />
      <Show when={changedMidTurn()}>
        <div class="composer-note" data-testid="applies-next-turn" role="status">
          {changedMidTurn()} changed — applies from the next turn
        </div>
      </Show>
      <div class="composer-bar">
        {/* Until the agent's settings first arrive (with the join), a phone keeps their row's height: the pills then fill it in place instead of pushing the composer and the transcript up (a layout shift). */}
        <div class="selects" classList={{ "config-pending": props.config === null }}>
          <For each={selectors()}>
            {(spec) => (
              <label class="select-pill" title={props.turnActive ? APPLIES_NEXT_TURN : spec.description}>
                {/* The current value in full; the native select lies over it (its own width is its longest option's). */}
                <span class="pill-value" aria-hidden="true">
                  {spec.options.find((o) => o.value === spec.value)?.name ?? spec.value}
                </span>
                <select
                  data-testid={spec.testId}
                  aria-label={spec.label}
                  title={props.turnActive ? APPLIES_NEXT_TURN : spec.description}
                  disabled={!props.canAct}
                  value={spec.value}
                  onChange={(e) => select(spec, e.currentTarget.value)}
                >
                  <OptionList options={spec.options} value={spec.value} />
                </select>
                <ChevronDown size={14} class="select-chev" aria-hidden="true" />
              </label>
            )}
          </For>
        </div>
        {/* With options beyond the pills: always. Otherwise on phones only, where the sheet is the place the pills' full labels read best. */}
        <Show when={options().length > 0}>
          <div class="options" classList={{ "narrow-flex": !hasExtraOptions() }} data-extra={hasExtraOptions()}>
            <button
              class="icon-btn options-btn"
              aria-label="More options"
              aria-expanded={optionsOpen()}
              aria-haspopup="dialog"
              popovertarget={optionsPop.id}
              ref={optionsPop.button}
              title="Agent options"
              data-testid="options-button"
            >
              <Settings2 size={18} aria-hidden="true" />
            </button>
            <div ref={optionsPop.panel} id={optionsPop.id} popover="auto" tabindex="-1" class="options-sheet" role="dialog" aria-label="Agent options" data-testid="options-sheet">
              <Show when={optionsOpen()}>
                <Suspense>
                  <OptionsSheet options={options()} turnActive={props.turnActive} canAct={props.canAct} onSelect={select} />
                </Suspense>
              </Show>
            </div>
          </div>
        </Show>
        <div class="composer-tools">
          <Suspense>
            <ComposerTools
              config={props.config}
              canAct={props.canAct}
              onFiles={addFiles}
              text={() => props.draft.text}
              onText={(text) => props.onDraft({ ...props.draft, text })}
              onError={onError}
            />
          </Suspense>
        </div>
        <div class="actions">
          <Show when={buttons().stop}>
            <button class="btn btn-stop" data-testid="stop-button" aria-label="Stop" title="Stop the turn (queued messages are dropped)" onClick={() => props.onStop()}>
              <Square size={14} fill="currentColor" aria-hidden="true" />
              <span class="btn-label">Stop</span>
            </button>
          </Show>
          <Show when={buttons().send}>
            <button
              class="btn btn-send"
              classList={{ queue: props.turnActive }}
              data-testid="send-button"
              title={buttons().sendTitle}
              aria-label={buttons().sendTitle}
              disabled={!hasDraft()}
              onClick={trySend}
            >
              {props.turnActive ? <Clock size={16} aria-hidden="true" /> : <ArrowUp size={18} aria-hidden="true" />}
              <span class="btn-label">{buttons().sendLabel}</span>
            </button>
          </Show>
        </div>
      </div>
    </div>
  );
}
