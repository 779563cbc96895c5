import { A, useSearchParams } from "@solidjs/router";
import ArrowLeft from "lucide-solid/icons/arrow-left";
import Monitor from "lucide-solid/icons/monitor";
import { createResource, createSignal, For, Match, Show, Switch } from "solid-js";
import { normalizeUserCode, USER_CODE_RE, type DeviceApproval } from "../../../shared/device-api";
import { api, ApiError } from "../lib/api";
import { sentence } from "../lib/format";
import { AuthError } from "./AuthError";
import { UserMenu } from "./UserMenu";
import "../home.css";
import "../team.css";

/**
 * "Approve a machine": where the link printed by `baton login` lands. Shows what the daemon said about
 * itself (hostname, OS, agents) so the person can check it is their machine, then approves or denies.
 */
export function MachineApprove() {
  const [params, setParams] = useSearchParams<{ code?: string }>();
  const code = () => {
    const c = normalizeUserCode(params.code ?? "");
    return USER_CODE_RE.test(c) ? c : null;
  };
  const [typed, setTyped] = createSignal("");
  const [approval, { mutate }] = createResource(code, (c) => api.deviceApproval(c));
  const [name, setName] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);

  const decide = async (decision: "approve" | "deny") => {
    const c = code();
    if (!c) return;
    setBusy(true);
    setError(null);
    try {
      mutate(await api.decideDevice(c, { decision, name: decision === "approve" ? (name() ?? approval()?.hostname ?? "").trim() || undefined : undefined }));
    } catch (err) {
      setError(sentence((err as Error).message || "Could not save the decision"));
    } finally {
      setBusy(false);
    }
  };

  // Read only once loaded: an errored resource throws when read.
  const isSignIn = () => approval.state === "ready" && approval().kind === "user";

  const lookUp = (e: Event) => {
    e.preventDefault();
    setParams({ code: normalizeUserCode(typed()) });
  };

  return (
    <div class="home">
      <header class="home-head">
        <div class="brand">
          <A class="icon-btn" href="/machines" aria-label="Machines">
            <ArrowLeft size={20} />
          </A>
          <div>
            <h1>{isSignIn() ? "Approve a sign-in" : "Approve a machine"}</h1>
            <p class="tagline">
              {isSignIn() ? "A terminal asked to act as you (baton attach)." : "A daemon asked to be paired with your account."}
            </p>
          </div>
        </div>
        <UserMenu />
      </header>

      <section class="card approve-card" data-testid="approve-card">
        <Show
          when={code()}
          fallback={
            <form class="approve-lookup" onSubmit={lookUp}>
              <label class="auth-field">
                Code shown by <code>baton login</code>
                <input
                  class="auth-code"
                  autocomplete="off"
                  autocapitalize="characters"
                  spellcheck={false}
                  placeholder="XXXX-XXXX"
                  maxLength={9}
                  value={typed()}
                  onInput={(e) => setTyped(e.currentTarget.value)}
                  data-testid="approve-code-input"
                />
              </label>
              <Show when={params.code}>
                <p class="auth-error">That is not a valid code: it looks like ABCD-EFGH.</p>
              </Show>
              <button class="btn btn-primary" type="submit" disabled={!USER_CODE_RE.test(normalizeUserCode(typed()))}>
                Look up
              </button>
            </form>
          }
        >
          <Switch>
            <Match when={approval.loading}>
              <p class="empty">Looking up {code()}…</p>
            </Match>
            <Match when={approval.error}>
              <p class="auth-error" role="alert" data-testid="approve-error">
                {approval.error instanceof ApiError && approval.error.status === 404
                  ? `No login is waiting for the code ${code()}. Check it against the terminal, or run baton login again.`
                  : sentence((approval.error as Error).message)}
              </p>
            </Match>
            <Match when={approval()}>{(a) => <ApprovalDetails approval={a()} name={name() ?? a().hostname} setName={setName} busy={busy()} onDecide={decide} />}</Match>
          </Switch>
          <AuthError message={error()} />
        </Show>
      </section>
    </div>
  );
}

function ApprovalDetails(props: { approval: DeviceApproval; name: string; setName: (v: string) => void; busy: boolean; onDecide: (d: "approve" | "deny") => void }) {
  const a = () => props.approval;
  return (
    <div data-testid="approval" data-status={a().status}>
      <p class="approve-code">
        Code <strong class="mono" data-testid="approve-code">{a().userCode}</strong>
      </p>
      <dl class="approve-facts">
        <dt>{a().kind === "user" ? "Terminal on" : "Machine"}</dt>
        <dd class="mono" data-testid="approve-hostname">
          <Monitor size={14} aria-hidden="true" /> {a().hostname}
        </dd>
        <dt>System</dt>
        <dd data-testid="approve-os">{a().os}</dd>
        <Show when={a().kind === "machine"}>
        <dt>Agents</dt>
        <dd data-testid="approve-agents">
          <Show when={a().agents.length} fallback="none found yet">
            <ul class="approve-agents">
              <For each={a().agents}>
                {(ag) => (
                  <li>
                    {ag.label}
                    <Show when={ag.version}> {ag.version}</Show>
                  </li>
                )}
              </For>
            </ul>
          </Show>
        </dd>
        </Show>
        <dt>{a().kind === "user" ? "Baton CLI" : "Daemon"}</dt>
        <dd>{a().daemonVersion}</dd>
      </dl>
      <Switch>
        <Match when={a().status === "pending" && a().kind === "user"}>
          <p class="hint">
            Approve only if you ran <code>baton login --user</code> yourself and the terminal shows the same code: it will join your sessions as
            you, with your role in each. You can revoke it on the Machines page.
          </p>
          <div class="approve-actions">
            <button class="btn" disabled={props.busy} onClick={() => props.onDecide("deny")} data-testid="approve-deny">
              Deny
            </button>
            <button class="btn btn-primary" disabled={props.busy} onClick={() => props.onDecide("approve")} data-testid="approve-submit">
              Approve
            </button>
          </div>
        </Match>
        <Match when={a().status === "pending"}>
          <p class="hint">Approve only if you ran <code>baton login</code> on this machine yourself and the terminal shows the same code.</p>
          <label class="auth-field approve-name">
            Name on your Machines page
            <input class="text-input" maxLength={100} value={props.name} onInput={(e) => props.setName(e.currentTarget.value)} data-testid="approve-name" />
          </label>
          <div class="approve-actions">
            <button class="btn" disabled={props.busy} onClick={() => props.onDecide("deny")} data-testid="approve-deny">
              Deny
            </button>
            <button class="btn btn-primary" disabled={props.busy || !props.name.trim()} onClick={() => props.onDecide("approve")} data-testid="approve-submit">
              Approve
            </button>
          </div>
        </Match>
        <Match when={(a().status === "approved" || a().status === "consumed") && a().kind === "user"}>
          <p class="approve-done status-text-idle" role="status" data-testid="approve-result">
            Approved. The terminal on {a().hostname} is signed in as you within a few seconds; it is listed under Editors and terminals in{" "}
            <A href="/machines">Machines</A>.
          </p>
        </Match>
        <Match when={a().status === "approved" || a().status === "consumed"}>
          <p class="approve-done status-text-idle" role="status" data-testid="approve-result">
            Approved. The terminal on {a().hostname} finishes pairing within a few seconds; the machine then appears in <A href="/machines">Machines</A>.
          </p>
        </Match>
        <Match when={a().status === "denied"}>
          <p class="approve-done" role="status" data-testid="approve-result">
            Denied. That daemon gets no token; run <code>baton login</code> again to retry.
          </p>
        </Match>
        <Match when={a().status === "expired"}>
          <p class="auth-error" role="status" data-testid="approve-result">
            This code expired. Run <code>baton login</code> again for a new one.
          </p>
        </Match>
      </Switch>
    </div>
  );
}
