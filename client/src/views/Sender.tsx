import ArrowUp from "lucide-solid/icons/arrow-up";
import ChevronDown from "lucide-solid/icons/chevron-down";
import Clock from "lucide-solid/icons/clock";
import Paperclip from "lucide-solid/icons/paperclip";
import Square from "lucide-solid/icons/square";
import X from "lucide-solid/icons/x";
import { createEffect, For, on, onMount, Show } from "solid-js";
import type { ConfigState } from "../../../shared/viewer-protocol";
import {
  APPLIES_NEXT_TURN,
  attachmentLabel,
  composerButtons,
  type Draft,
  groupOptions,
  isDraftEmpty,
  isSendKey,
  type SelectSpec,
  selectorsFor,
} from "../session/composer-logic";

type Props = {
  draft: Draft;
  onDraft: (d: Draft) => void;
  turnActive: boolean;
  canAct: boolean;
  config: ConfigState | null;
  onSend: () => void;
  onStop: () => void;
  onSelect: (spec: SelectSpec, value: string) => void;
  /** Why sending is impossible right now (shown as the placeholder), if it is. */
  placeholder?: string;
  /** Receives a function that focuses the textarea (after a take-back, for instance). */
  focusRef?: (focus: () => void) => void;
};

const MAX_HEIGHT_VH = 0.4;

export function Sender(props: Props) {
  let input!: HTMLTextAreaElement;
  let composing = false;
  let composedAt = 0;

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

  const hasDraft = () => !isDraftEmpty(props.draft);
  const buttons = () => composerButtons({ turnActive: props.turnActive, hasDraft: hasDraft(), canAct: props.canAct });
  const selectors = () => selectorsFor(props.config);
  const placeholder = () =>
    props.placeholder ?? (!props.canAct ? "Read-only — you are viewing this session" : props.turnActive ? "Queue a follow-up…" : "Message the agent…");

  const trySend = () => {
    if (props.canAct && hasDraft()) props.onSend();
  };

  return (
    <div class="composer" classList={{ running: props.turnActive }} data-testid="composer">
      <Show when={props.draft.attachments.length}>
        <div class="attachments">
          <For each={props.draft.attachments}>
            {(a, i) => (
              <span class="attachment-pill">
                <Paperclip size={13} aria-hidden="true" />
                {attachmentLabel(a)}
                <button
                  class="pill-x"
                  aria-label={`Remove ${attachmentLabel(a)}`}
                  onClick={() => props.onDraft({ ...props.draft, attachments: props.draft.attachments.filter((_, j) => j !== i()) })}
                >
                  <X size={13} />
                </button>
              </span>
            )}
          </For>
        </div>
      </Show>
      <textarea
        ref={input}
        data-testid="composer-input"
        class="composer-input"
        aria-label="Message"
        rows={1}
        placeholder={placeholder()}
        disabled={!props.canAct}
        value={props.draft.text}
        enterkeyhint={props.turnActive ? "enter" : "send"}
        onInput={(e) => {
          props.onDraft({ ...props.draft, text: e.currentTarget.value });
          grow();
        }}
        onCompositionStart={() => (composing = true)}
        onCompositionEnd={() => {
          composing = false;
          composedAt = Date.now();
        }}
        onKeyDown={(e) => {
          if (!isSendKey(e)) return;
          // Safari fires the IME's confirming Enter just after compositionend.
          if (composing || Date.now() - composedAt < 50) return;
          e.preventDefault();
          trySend();
        }}
      />
      <div class="composer-bar">
        <div class="selects">
          <For each={selectors()}>
            {(spec) => (
              <label class="select-pill" title={props.turnActive ? APPLIES_NEXT_TURN : spec.description}>
                <span class="sr-only">{spec.label}</span>
                <select
                  data-testid={spec.testId}
                  aria-label={spec.label}
                  title={props.turnActive ? APPLIES_NEXT_TURN : spec.description}
                  disabled={!props.canAct}
                  value={spec.value}
                  onChange={(e) => props.onSelect(spec, e.currentTarget.value)}
                >
                  <For each={groupOptions(spec.options)}>
                    {(g) =>
                      g.group ? (
                        <optgroup label={g.group}>
                          <For each={g.options}>{(o) => <option value={o.value} selected={o.value === spec.value}>{o.name}</option>}</For>
                        </optgroup>
                      ) : (
                        <For each={g.options}>{(o) => <option value={o.value} selected={o.value === spec.value}>{o.name}</option>}</For>
                      )
                    }
                  </For>
                </select>
                <ChevronDown size={14} class="select-chev" aria-hidden="true" />
              </label>
            )}
          </For>
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
