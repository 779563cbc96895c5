import { For, Show } from "solid-js";
import type { ConfigState } from "../../../shared/viewer-protocol";
import { isSendKey, type SelectSpec, selectorsFor, sendTitle } from "../session/composer-logic";

type Props = {
  draft: string;
  onDraft: (v: string) => void;
  turnActive: boolean;
  canAct: boolean;
  config: ConfigState | null;
  onSend: () => void;
  onStop: () => void;
  onSelect: (spec: SelectSpec, value: string) => void;
};

export function Sender(props: Props) {
  let input!: HTMLTextAreaElement;
  const grow = () => {
    input.style.height = "auto";
    input.style.height = `${Math.min(input.scrollHeight, 240)}px`;
  };
  const hasDraft = () => props.draft.trim().length > 0;
  return (
    <div class="composer">
      <textarea
        ref={input}
        data-testid="composer-input"
        class="composer-input"
        rows={1}
        placeholder={props.canAct ? (props.turnActive ? "Queue a message…" : "Message the agent…") : "Read-only: you are a viewer in this session"}
        disabled={!props.canAct}
        value={props.draft}
        onInput={(e) => {
          props.onDraft(e.currentTarget.value);
          grow();
        }}
        onKeyDown={(e) => {
          if (isSendKey(e)) {
            e.preventDefault();
            if (hasDraft()) props.onSend();
          }
        }}
      />
      <div class="composer-bar">
        <div class="selects">
          <For each={selectorsFor(props.config)}>
            {(spec) => (
              <label class="select" title={props.turnActive ? "applies from the next turn" : spec.label}>
                <span class="sr-only">{spec.label}</span>
                <select data-testid={spec.testId} disabled={!props.canAct} value={spec.value} onChange={(e) => props.onSelect(spec, e.currentTarget.value)}>
                  <For each={spec.options}>{(o) => <option value={o.value}>{o.name}</option>}</For>
                </select>
              </label>
            )}
          </For>
        </div>
        <div class="actions">
          <Show when={props.turnActive && props.canAct}>
            <button class="btn btn-stop" data-testid="stop-button" title="Stop the running turn (drops queued messages)" onClick={() => props.onStop()}>
              Stop
            </button>
          </Show>
          <Show when={!props.turnActive || hasDraft()}>
            <button
              class="btn btn-primary"
              data-testid="send-button"
              title={sendTitle(props.turnActive)}
              disabled={!props.canAct || !hasDraft()}
              onClick={() => props.onSend()}
            >
              {props.turnActive ? "Queue" : "Send"}
            </button>
          </Show>
        </div>
      </div>
    </div>
  );
}
