import { For } from "solid-js";
import { groupOptions, type SelectOption } from "../session/composer-logic";

/** <option>s of a select, grouped into <optgroup>s where the agent grouped them. */
export function OptionList(props: { options: SelectOption[]; value: string }) {
  return (
    <For each={groupOptions(props.options)}>
      {(g) =>
        g.group ? (
          <optgroup label={g.group}>
            <For each={g.options}>{(o) => <option value={o.value} selected={o.value === props.value}>{o.name}</option>}</For>
          </optgroup>
        ) : (
          <For each={g.options}>{(o) => <option value={o.value} selected={o.value === props.value}>{o.name}</option>}</For>
        )
      }
    </For>
  );
}
