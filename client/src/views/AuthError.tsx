import { Show } from "solid-js";
import "../team.css";

/** A sign-in or approval form's error, announced to screen readers; nothing while there is none. */
export function AuthError(props: { message: string | null }) {
  return (
    <Show when={props.message}>
      <p class="auth-error" role="alert">
        {props.message}
      </p>
    </Show>
  );
}
