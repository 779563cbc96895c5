/**
 * A row of a list of things one can revoke (machines, sign-ins): what it is (`children`), then "Revoke"
 * with its second step — the first click asks, Cancel or Revoke (danger) answers. `what` names the
 * revoked thing for the buttons' accessible names (the Machines rows keep their test ids).
 */
import { type JSX, Show } from "solid-js";

type Revoke = {
  confirming: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onConfirm: () => void;
  /** e.g. "the sign-in on work-laptop": the buttons read "Revoke …" / "Confirm revoking …". */
  what?: string;
  testIds?: { ask: string; confirm: string };
};

export function RevocableRow(props: Revoke & { testId?: string; lead?: JSX.Element; children: JSX.Element }) {
  return (
    <li class="machine" data-testid={props.testId}>
      {props.lead}
      <span class="m-main">{props.children}</span>
      <RevokeConfirm {...props} />
    </li>
  );
}

function RevokeConfirm(props: Revoke) {
  return (
    <Show
      when={props.confirming}
      fallback={
        <button class="btn btn-sm btn-quiet" aria-label={props.what ? `Revoke ${props.what}` : undefined} data-testid={props.testIds?.ask} onClick={() => props.onAsk()}>
          Revoke
        </button>
      }
    >
      <span class="confirm">
        <button class="btn btn-sm" onClick={() => props.onCancel()}>
          Cancel
        </button>
        <button
          class="btn btn-sm btn-danger"
          aria-label={props.what ? `Confirm revoking ${props.what}` : undefined}
          data-testid={props.testIds?.confirm}
          onClick={() => props.onConfirm()}
        >
          Revoke
        </button>
      </span>
    </Show>
  );
}
