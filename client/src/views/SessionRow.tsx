import { A } from "@solidjs/router";
import Archive from "lucide-solid/icons/archive";
import Hand from "lucide-solid/icons/hand";
import LoaderCircle from "lucide-solid/icons/loader-circle";
import Sparkles from "lucide-solid/icons/sparkles";
import { Show } from "solid-js";
import type { SessionListItem } from "../../../shared/session-list";
import { displayTitle, type ListStatus, listStatus } from "../../../shared/session-list-rules";
import { shortPath, timeAgo } from "../lib/format";
import { type RowAction, SessionRowMenu } from "./SessionRowMenu";

export const LIST_STATUS_LABEL: Record<ListStatus, string> = {
  running: "Running",
  idle: "Idle",
  needs_you: "Needs you",
  offline: "Machine offline",
  error: "Error",
  starting: "Starting",
};

/** The markers (icon + word, not colour alone): needs you, running, new since you looked, archived. */
export function SessionMarkers(props: { session: SessionListItem }) {
  const st = () => listStatus(props.session);
  return (
    <>
      <Show when={st() === "needs_you"}>
        <span class="marker marker-needs" data-testid="marker-needs-you">
          <Hand size={13} aria-hidden="true" /> Needs you
        </span>
      </Show>
      <Show when={st() === "running"}>
        <span class="marker marker-running" data-testid="marker-running">
          <LoaderCircle size={13} aria-hidden="true" class="spin" /> Running
        </span>
      </Show>
      <Show when={props.session.unread}>
        <span class="marker marker-new" data-testid="marker-new">
          <Sparkles size={13} aria-hidden="true" /> New
        </span>
      </Show>
      <Show when={props.session.archivedAt !== null}>
        <span class="marker marker-archived" data-testid="marker-archived">
          <Archive size={13} aria-hidden="true" /> Archived
        </span>
      </Show>
    </>
  );
}

/** One session: title, markers, first prompt, status · agent · machine · directory, last activity, its menu. */
export function SessionRow(props: {
  session: SessionListItem;
  now: number;
  actions: RowAction[];
  selecting: boolean;
  selected: boolean;
  onToggle: () => void;
}) {
  const s = () => props.session;
  const title = () => displayTitle(s());
  const preview = () => (s().firstPrompt && s().firstPrompt !== title() ? s().firstPrompt : null);
  const st = () => listStatus(s());
  return (
    <li class="s-row" classList={{ "s-selected": props.selecting && props.selected, "s-unread": s().unread }} data-testid="session-row" data-session-id={s().id}>
      <Show when={props.selecting}>
        <label class="s-check">
          <input type="checkbox" checked={props.selected} onChange={() => props.onToggle()} aria-label={`Select ${title()}`} />
        </label>
      </Show>
      <A href={`/s/${encodeURIComponent(s().id)}`} data-testid="session-link" class="session-link">
        <span class={`dot ls-${st()}`} aria-hidden="true" />
        <span class="s-main">
          <span class="s-head">
            <span class="s-title" data-testid="session-title">
              {title()}
            </span>
            <SessionMarkers session={s()} />
          </span>
          <Show when={preview()}>
            {(p) => (
              <span class="s-preview" data-testid="session-preview">
                {p()}
              </span>
            )}
          </Show>
          <span class="s-meta">
            <Show when={st() !== "running" && st() !== "needs_you"}>
              <span class={`s-status ls-text-${st()}`}>{LIST_STATUS_LABEL[st()]}</span> ·{" "}
            </Show>
            {s().agentLabel} · {s().machineName} ·{" "}
            <span class="mono" title={s().cwd}>
              {shortPath(s().cwd)}
            </span>
            <span class="s-meta-when"> · {timeAgo(s().lastActivityAt, props.now)}</span>
          </span>
        </span>
        <span class="s-when">{timeAgo(s().lastActivityAt, props.now)}</span>
      </A>
      <Show when={props.actions.length}>
        <SessionRowMenu title={title()} actions={props.actions} />
      </Show>
    </li>
  );
}
