import ChevronDown from "lucide-solid/icons/chevron-down";
import { createUniqueId, For, Show } from "solid-js";
import { APPLIES_NEXT_TURN, type ConfigWrite, type OptionSpec } from "../session/composer-logic";
import { OptionList } from "./OptionList";

/** The agent options sheet's rows (every config option, by type): its own chunk, loaded when the sheet opens. */
export default function OptionsSheet(props: { options: OptionSpec[]; turnActive: boolean; canAct: boolean; onSelect: (spec: ConfigWrite, value: string | boolean) => void }) {
  const select = (spec: ConfigWrite, value: string | boolean) => props.onSelect(spec, value);
  return (
    <>
      <div class="options-head">
        <span class="settings-title">Agent options</span>
        <Show when={props.turnActive}>
          <span class="options-note">A turn is running: a change applies from the next turn</span>
        </Show>
      </div>
      <For each={props.options}>
        {(o) => {
          const nameId = createUniqueId();
          return (
            <div class="option-row" data-testid={`option-${o.id}`}>
              <span class="option-text">
                <span class="settings-name" id={nameId}>
                  {o.name}
                </span>
                <Show when={o.description}>
                  <span class="settings-help">{o.description}</span>
                </Show>
              </span>
              {o.kind === "boolean" ? (
                <input
                  type="checkbox"
                  role="switch"
                  class="switch"
                  aria-labelledby={nameId}
                  checked={o.value}
                  disabled={!props.canAct}
                  title={props.turnActive ? APPLIES_NEXT_TURN : undefined}
                  onChange={(e) => select({ label: o.name, write: o.write }, e.currentTarget.checked)}
                />
              ) : (
                <label class="option-value">
                  {/* The full current value (wrapping); the native select lies over it. */}
                  <span aria-hidden="true">{o.valueName}</span>
                  <ChevronDown size={14} class="select-chev" aria-hidden="true" />
                  <select
                    class="option-select"
                    aria-labelledby={nameId}
                    disabled={!props.canAct}
                    title={props.turnActive ? APPLIES_NEXT_TURN : undefined}
                    value={o.value}
                    onChange={(e) => select({ label: o.name, write: o.write }, e.currentTarget.value)}
                  >
                    <OptionList options={o.options} value={o.value} />
                  </select>
                </label>
              )}
            </div>
          );
        }}
      </For>
    </>
  );
}
