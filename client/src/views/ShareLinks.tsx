/**
 * The owner's read-only share links (issue 30 #3), inside the Members panel: the active links (who may open
 * each, when it expires) with Revoke, and a form to create one. A new link's URL is shown once: only its
 * hash is stored.
 */
import Copy from "lucide-solid/icons/copy";
import { createResource, createSignal, For, Show } from "solid-js";
import type { ShareExpiry, ShareLinkSummary, ShareScope } from "../../../shared/share-api";
import { shareApi } from "../lib/share-http";
import { sentence } from "../lib/format";
import { toast } from "../lib/toasts";
import { EXPIRY_CHOICES, expiryLabel, SCOPE_CHOICES, scopeLabel } from "../session/share-logic";

export function ShareLinks(props: { sessionId: string }) {
  const [loadError, setLoadError] = createSignal<string | null>(null);
  const [links, { mutate, refetch }] = createResource(
    () => props.sessionId,
    (id) =>
      shareApi.list(id).then(
        (l) => (setLoadError(null), l),
        (err: Error) => (setLoadError(sentence(err.message || "The links could not be loaded")), [] as ShareLinkSummary[]),
      ),
  );
  const [expiry, setExpiry] = createSignal<ShareExpiry>("1d");
  const [scope, setScope] = createSignal<ShareScope>("signed_in");
  const [created, setCreated] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);
  const now = () => Date.now();

  const act = async (what: () => Promise<ShareLinkSummary[]>) => {
    setBusy(true);
    try {
      mutate(await what());
    } catch (err) {
      toast(sentence((err as Error).message || "That did not work"), "error");
      void refetch();
    } finally {
      setBusy(false);
    }
  };

  const create = async (e: Event) => {
    e.preventDefault();
    await act(async () => {
      const r = await shareApi.create(props.sessionId, { expiry: expiry(), scope: scope() });
      setCreated(r.url);
      return r.links;
    });
  };

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toast("Link copied");
    } catch {
      toast("Select the link and copy it", "error");
    }
  };

  return (
    <section class="share-links" aria-label="Read-only links" data-testid="share-links">
      <div class="settings-title">Read-only links</div>
      <Show when={loadError()}>{(e) => <p class="settings-help" role="alert">{e()}</p>}</Show>
      <Show when={(links() ?? []).length > 0} fallback={<Show when={!loadError() && !links.loading}><p class="settings-help">No active links.</p></Show>}>
        <ul class="member-list">
          <For each={links() ?? []}>
            {(l) => (
              <li class="member" data-testid="share-link-row">
                <span class="member-who">
                  <span class="settings-name">{scopeLabel(l.scope)}</span>
                  <span class="settings-help">{expiryLabel(l.expiresAt, now())}</span>
                </span>
                <button
                  class="btn btn-sm"
                  aria-label={`Revoke link: ${scopeLabel(l.scope)}, ${expiryLabel(l.expiresAt, now()).toLowerCase()}`}
                  disabled={busy()}
                  onClick={() => {
                    setCreated(null);
                    void act(() => shareApi.revoke(props.sessionId, l.id));
                  }}
                >
                  Revoke
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={created()}>
        {(url) => (
          <div class="share-created">
            <div class="share-url-row">
              <input class="share-url mono" readonly aria-label="New link" value={url()} onFocus={(e) => e.currentTarget.select()} />
              <button class="icon-btn" aria-label="Copy link" title="Copy link" onClick={() => void copy(url())}>
                <Copy size={16} />
              </button>
            </div>
            <p class="settings-help">Copy it now: it is shown only once. Whoever opens it can watch, not act.</p>
          </div>
        )}
      </Show>
      <form class="share-add" onSubmit={create}>
        <label class="share-field share-scope">
          <span class="settings-help">Who can open it</span>
          <select aria-label="Who can open the link" value={scope()} onChange={(e) => setScope(e.currentTarget.value as ShareScope)}>
            <For each={SCOPE_CHOICES}>{(c) => <option value={c.value}>{c.label}</option>}</For>
          </select>
        </label>
        <label class="share-field">
          <span class="settings-help">Expires after</span>
          <select aria-label="Link expires after" value={expiry()} onChange={(e) => setExpiry(e.currentTarget.value as ShareExpiry)}>
            <For each={EXPIRY_CHOICES}>{(c) => <option value={c.value}>{c.label}</option>}</For>
          </select>
        </label>
        <button class="btn btn-sm btn-primary" type="submit" disabled={busy()}>
          Create link
        </button>
      </form>
      <Show when={scope() === "anyone"}>
        <p class="settings-help share-warn">No sign-in needed: anyone who gets this link can watch the session.</p>
      </Show>
    </section>
  );
}
