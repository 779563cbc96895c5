import Search from "lucide-solid/icons/search";
import { For } from "solid-js";
import type { ArchivedFilter } from "../../../shared/session-list";
import type { ListStatus } from "../../../shared/session-list-rules";
import type { ListFilter } from "../session/list-state";
import { LIST_STATUS_LABEL } from "./SessionRow";

type Choice = { id: string; label: string };

const STATUS_ORDER: ListStatus[] = ["needs_you", "running", "idle", "starting", "offline", "error"];
const ARCHIVED_LABEL: Record<ArchivedFilter, string> = { hide: "Hide archived", only: "Archived only", all: "With archived" };

/** The list's filters in one compact bar: text (title, first prompt, directory), agent, machine, status, archived. */
export function SessionFilters(props: {
  filter: ListFilter;
  text: string;
  agents: Choice[];
  machines: Choice[];
  onText: (t: string) => void;
  onChange: (patch: Partial<ListFilter>) => void;
}) {
  const pick = (v: string) => v || undefined;
  return (
    <div class="list-filters" role="search" aria-label="Filter sessions" data-testid="list-filters">
      <label class="f-search">
        <Search size={16} aria-hidden="true" />
        <input
          type="search"
          aria-label="Search sessions"
          placeholder="Search title, prompt, folder"
          value={props.text}
          autocapitalize="off"
          spellcheck={false}
          enterkeyhint="search"
          onInput={(e) => props.onText(e.currentTarget.value)}
        />
      </label>
      <select aria-label="Agent" value={props.filter.agentId ?? ""} onChange={(e) => props.onChange({ agentId: pick(e.currentTarget.value) })}>
        <option value="">All agents</option>
        <For each={props.agents}>{(a) => <option value={a.id} selected={a.id === props.filter.agentId}>{a.label}</option>}</For>
      </select>
      <select aria-label="Machine" value={props.filter.machineId ?? ""} onChange={(e) => props.onChange({ machineId: pick(e.currentTarget.value) })}>
        <option value="">All machines</option>
        <For each={props.machines}>{(m) => <option value={m.id} selected={m.id === props.filter.machineId}>{m.label}</option>}</For>
      </select>
      <select
        aria-label="Status"
        value={props.filter.status ?? ""}
        onChange={(e) => props.onChange({ status: STATUS_ORDER.find((s) => s === e.currentTarget.value) })}
      >
        <option value="">Any status</option>
        <For each={STATUS_ORDER}>{(s) => <option value={s} selected={s === props.filter.status}>{LIST_STATUS_LABEL[s]}</option>}</For>
      </select>
      <select
        aria-label="Archived"
        value={props.filter.archived}
        onChange={(e) => props.onChange({ archived: (["hide", "only", "all"] as const).find((a) => a === e.currentTarget.value) ?? "hide" })}
      >
        <For each={["hide", "only", "all"] as const}>{(a) => <option value={a} selected={a === props.filter.archived}>{ARCHIVED_LABEL[a]}</option>}</For>
      </select>
    </div>
  );
}
