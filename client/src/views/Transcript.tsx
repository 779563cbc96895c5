import { For, Match, Show, Switch } from "solid-js";
import type { Row } from "../../../shared/fold";
import { AgentMessage, ErrorRowView, NoticeRowView, PermissionCard, Plan, Thought, ToolCall, TurnEnd, UserMessage } from "./TranscriptRows";

type Props = {
  rows: Row[];
  /** The viewer's own id (their rows read "You"). */
  viewerId?: string | null;
  canAct: boolean;
  /** The agent is working and has not produced the row we would show yet. */
  working?: boolean;
  empty?: string;
  onPermission: (requestId: string, optionId: string) => void;
};

export function Transcript(props: Props) {
  const last = () => props.rows[props.rows.length - 1];
  const showWorking = () => props.working && (!last() || last()!.kind === "user" || last()!.kind === "plan");
  return (
    <div class="transcript" data-testid="transcript" role="log" aria-live="polite" aria-relevant="additions">
      <Show when={props.rows.length === 0 && !props.working}>
        <div class="transcript-empty">
          <p class="empty-title">No messages yet</p>
          <p class="empty-sub">{props.empty ?? "Say hello. While the agent works, you can queue the next message."}</p>
        </div>
      </Show>
      <For each={props.rows}>
        {(row) => (
          <Switch>
            <Match when={row.kind === "user" && row}>{(r) => <UserMessage row={r()} mine={!!props.viewerId && r().author.id === props.viewerId} />}</Match>
            <Match when={row.kind === "agent" && row}>{(r) => <AgentMessage row={r()} />}</Match>
            <Match when={row.kind === "thought" && row}>{(r) => <Thought row={r()} />}</Match>
            <Match when={row.kind === "tool" && row}>{(r) => <ToolCall row={r()} />}</Match>
            <Match when={row.kind === "plan" && row}>{(r) => <Plan row={r()} />}</Match>
            <Match when={row.kind === "permission" && row}>{(r) => <PermissionCard row={r()} canAct={props.canAct} onRespond={props.onPermission} />}</Match>
            <Match when={row.kind === "error" && row}>{(r) => <ErrorRowView message={r().message} code={r().code} />}</Match>
            <Match when={row.kind === "notice" && row}>{(r) => <NoticeRowView level={r().level} text={r().text} />}</Match>
            <Match when={row.kind === "turn_end" && row}>{(r) => <TurnEnd stopReason={r().stopReason} />}</Match>
          </Switch>
        )}
      </For>
      <Show when={showWorking()}>
        <div class="row row-working" data-testid="working" aria-label="The agent is working">
          <span class="typing">
            <i />
            <i />
            <i />
          </span>
        </div>
      </Show>
    </div>
  );
}
