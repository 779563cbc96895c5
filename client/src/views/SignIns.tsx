/**
 * Your sign-ins from editors and terminals (`baton login --user`, used by `baton attach`, issue 30 #1): each
 * acts as you in the sessions you belong to. Listed with where it was made and when it was last used; revoking
 * refuses it from then on.
 */
import TerminalSquare from "lucide-solid/icons/square-terminal";
import { createResource, createSignal, For, Show } from "solid-js";
import type { UserTokenSummary } from "../../../shared/attach-api";
import { api } from "../lib/api";
import { sentence, timeAgo } from "../lib/format";
import { toast } from "../lib/toasts";
import { CopyCommand } from "./CopyCommand";
import { RevocableRow } from "./RevocableRow";

export function SignIns() {
  const [tokens, { mutate }] = createResource(() => api.userTokens());
  const [confirming, setConfirming] = createSignal<string | null>(null);

  const revoke = async (t: UserTokenSummary) => {
    try {
      mutate(await api.revokeUserToken(t.id));
      toast(`The sign-in on ${t.name} was revoked`);
    } catch (err) {
      toast(sentence((err as Error).message || "Could not revoke"), "error");
    } finally {
      setConfirming(null);
    }
  };

  return (
    <section class="card" aria-labelledby="sign-ins-title" data-testid="sign-ins">
      <h2 id="sign-ins-title">
        <TerminalSquare size={18} aria-hidden="true" /> Editors and terminals
      </h2>
      <p class="hint">
        Join a live session from Zed or any ACP client: sign in once, then run <code>baton attach</code> with the session's address.
      </p>
      <CopyCommand command={`baton login --user ${location.origin}`} label="sign-in command" testId="user-login-command" />
      <Show when={!tokens.error} fallback={<p class="empty">Could not load your sign-ins: {(tokens.error as Error)?.message}</p>}>
        <Show when={(tokens() ?? []).length} fallback={<p class="empty">{tokens.loading ? "Loading…" : "No sign-ins yet."}</p>}>
          <ul class="machines" aria-label="Sign-ins">
            <For each={tokens() ?? []}>
              {(t) => (
                <RevocableRow
                  confirming={confirming() === t.id}
                  what={`the sign-in on ${t.name}`}
                  onAsk={() => setConfirming(t.id)}
                  onCancel={() => setConfirming(null)}
                  onConfirm={() => void revoke(t)}
                >
                  <span class="m-name">{t.name}</span>
                  <span class="m-meta">
                    Signed in {timeAgo(t.createdAt)} · {t.lastUsedAt ? `last used ${timeAgo(t.lastUsedAt)}` : "never used"}
                  </span>
                </RevocableRow>
              )}
            </For>
          </ul>
          <p class="hint">A revoked sign-in can no longer join sessions; sign in again with the command above.</p>
        </Show>
      </Show>
    </section>
  );
}
