import { useNavigate } from "@solidjs/router";
import { createMemo, createResource, createSignal, For, Show } from "solid-js";
import { api } from "../lib/api";
import { toast } from "../lib/toasts";

const ago = (t: number) => {
  const s = Math.round((Date.now() - t) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(t).toLocaleDateString();
};

export function SessionList() {
  const navigate = useNavigate();
  const [sessions] = createResource(api.sessions);
  const [machines] = createResource(api.machines);
  const [machineId, setMachineId] = createSignal("");
  const [agentId, setAgentId] = createSignal("");
  const [cwd, setCwd] = createSignal("");
  const [busy, setBusy] = createSignal(false);
  const machine = createMemo(() => machines()?.find((m) => m.id === (machineId() || machines()?.find((x) => x.online)?.id)));
  const agent = () => agentId() || machine()?.agents[0]?.id || "";
  const dir = () => cwd() || machine()?.roots[0] || "";

  const create = async (e: Event) => {
    e.preventDefault();
    const m = machine();
    if (!m || !agent() || !dir()) return;
    setBusy(true);
    try {
      const s = await api.createSession({ machineId: m.id, agentId: agent(), cwd: dir() });
      navigate(`/s/${s.id}`);
    } catch (err) {
      toast((err as Error).message, "error");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="home">
      <header class="home-head">
        <h1>Baton</h1>
        <p class="tagline">Your coding agents, live in every browser.</p>
      </header>
      <form class="card new-session" data-testid="new-session" onSubmit={create}>
        <h2>New session</h2>
        <div class="fields">
          <label>
            Machine
            <select data-testid="machine-select" value={machine()?.id ?? ""} onChange={(e) => (setMachineId(e.currentTarget.value), setAgentId(""), setCwd(""))}>
              <For each={machines() ?? []}>
                {(m) => (
                  <option value={m.id} disabled={!m.online}>
                    {m.name}
                    {m.hostname ? ` (${m.hostname})` : ""}
                    {m.online ? "" : " — offline"}
                  </option>
                )}
              </For>
            </select>
          </label>
          <label>
            Agent
            <select data-testid="agent-select" value={agent()} onChange={(e) => setAgentId(e.currentTarget.value)}>
              <For each={machine()?.agents ?? []}>{(a) => <option value={a.id}>{a.label}</option>}</For>
            </select>
          </label>
          <label class="grow">
            Directory
            <input data-testid="cwd-input" list="roots" value={dir()} onInput={(e) => setCwd(e.currentTarget.value)} spellcheck={false} />
            <datalist id="roots">
              <For each={machine()?.roots ?? []}>{(r) => <option value={r} />}</For>
            </datalist>
          </label>
        </div>
        <Show when={machines() && !machines()!.some((m) => m.online)}>
          <p class="hint">No machine is online. Start <code>baton daemon</code> on your machine.</p>
        </Show>
        <button class="btn btn-primary" data-testid="create-session" id="new-session" disabled={busy() || !machine()?.online || !agent()}>
          {busy() ? "Starting…" : "Start session"}
        </button>
      </form>
      <section class="card">
        <h2>Sessions</h2>
        <Show when={(sessions() ?? []).length} fallback={<p class="empty">No sessions yet.</p>}>
          <ul class="sessions">
            <For each={sessions()}>
              {(s) => (
                <li>
                  <a href={`/s/${s.id}`} data-testid="session-link">
                    <span class={`dot status-${s.status}`} aria-hidden="true" />
                    <span class="s-title">{s.title}</span>
                    <span class="s-meta">
                      {s.agentLabel} · {s.machineName} · {s.status} · {ago(s.lastActivityAt)}
                    </span>
                  </a>
                </li>
              )}
            </For>
          </ul>
        </Show>
      </section>
    </div>
  );
}
