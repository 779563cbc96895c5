import { PastSessions } from "./PastSessions";
import { A, useNavigate } from "@solidjs/router";
import { createMemo, createResource, createSignal, For, Show } from "solid-js";
import FolderOpen from "lucide-solid/icons/folder-open";
import Monitor from "lucide-solid/icons/monitor";
import Bot from "lucide-solid/icons/bot";
import Plus from "lucide-solid/icons/plus";
import { api } from "../lib/api";
import { toast } from "../lib/toasts";
import { useMe } from "../lib/auth";
import { createBody, pickAgent, pickCwd, pickMachine, shortPath } from "../session/new-session-logic";
import { createWorktreeChoice } from "../session/worktree-choice";
import { WorktreeFields } from "./WorktreeFields";

/** The home page's New session form: machine → agent → directory → start; a guest sees why there is none. */
export function NewSessionForm() {
  const navigate = useNavigate();
  const me = useMe();
  const isGuest = () => me?.scope === "guest";
  // A guest (invited-only account) has no machines to list: no request.
  const [machines] = createResource(() => (isGuest() ? [] : api.machines()));
  const [machineId, setMachineId] = createSignal("");
  const [agentId, setAgentId] = createSignal("");
  const [typedCwd, setTypedCwd] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);

  const machine = createMemo(() => pickMachine(machines() ?? [], machineId()));
  const agent = createMemo(() => pickAgent(machine(), agentId()));
  const cwd = () => pickCwd(machine(), typedCwd());
  const plan = createMemo(() => createBody(machine(), agent(), cwd()));
  // The worktree's branch is proposed from the title the session will get (agent · folder).
  const agentLabel = () => machine()?.agents.find((a) => a.id === agent())?.label ?? agent();
  const worktree = createWorktreeChoice(machine, cwd, () => `${agentLabel()} ${shortPath(cwd())}`);

  const create = async (e: Event) => {
    e.preventDefault();
    const p = plan();
    if (!("body" in p)) return toast(p.reason, "error");
    setBusy(true);
    try {
      const wt = worktree.request();
      const s = await api.createSession(wt ? { ...p.body, worktree: wt } : p.body);
      navigate(`/s/${encodeURIComponent(s.id)}`);
    } catch (err) {
      toast((err as Error).message || "Could not start the session", "error");
    } finally {
      setBusy(false);
    }
  };

  return (
    <Show
      when={!isGuest()}
      fallback={
        <p class="card guest-note" data-testid="guest-note">
          You were invited to the sessions below. Starting sessions and pairing machines needs an account on this server's allow list.
        </p>
      }
    >
    <form class="card new-session" data-testid="new-session" onSubmit={create}>
      <h2>
        <Plus size={18} aria-hidden="true" /> New session
      </h2>
      <div class="fields">
        <label>
          <span class="field-label">
            <Monitor size={14} aria-hidden="true" /> Machine
          </span>
          <select
            data-testid="machine-select"
            value={machine()?.id ?? ""}
            disabled={!machines()?.length}
            onChange={(e) => {
              setMachineId(e.currentTarget.value);
              setAgentId("");
              setTypedCwd(null);
            }}
          >
            <Show when={!machines()?.length}>
              <option value="">{machines.loading ? "Loading…" : "No machines paired"}</option>
            </Show>
            <For each={machines() ?? []}>
              {(m) => (
                <option value={m.id} selected={m.id === machine()?.id}>
                  {m.name}
                  {m.hostname && m.hostname !== m.name ? ` (${m.hostname})` : ""}
                  {m.online ? "" : " — offline"}
                </option>
              )}
            </For>
          </select>
        </label>
        <label>
          <span class="field-label">
            <Bot size={14} aria-hidden="true" /> Agent
          </span>
          <select data-testid="agent-select" value={agent()} disabled={!machine()?.agents.length} onChange={(e) => setAgentId(e.currentTarget.value)}>
            <Show when={!machine()?.agents.length}>
              <option value="">No agents</option>
            </Show>
            <For each={machine()?.agents ?? []}>{(a) => (
              <option value={a.id} selected={a.id === agent()}>
                {a.label}
              </option>
            )}</For>
          </select>
        </label>
        <label class="grow">
          <span class="field-label">
            <FolderOpen size={14} aria-hidden="true" /> Directory
          </span>
          <input
            data-testid="cwd-input"
            list="machine-roots"
            value={cwd()}
            placeholder="/path/to/project"
            autocapitalize="off"
            autocomplete="off"
            spellcheck={false}
            onInput={(e) => setTypedCwd(e.currentTarget.value)}
          />
          <datalist id="machine-roots">
            <For each={machine()?.roots ?? []}>{(r) => <option value={r} />}</For>
          </datalist>
        </label>
      </div>
      <WorktreeFields choice={worktree} />
      <div class="form-foot">
        <span class="hint">
          <Show when={"reason" in plan() && machines()} fallback={machine() ? `Runs on ${machine()!.name}` : ""}>
            {(plan() as { reason: string }).reason}
            <Show when={!machines()?.length}>
              {" "}— <A href="/machines">pair a machine</A> to run <code>baton daemon</code> on your computer.
            </Show>
          </Show>
        </span>
        <button class="btn btn-primary" data-testid="create-session" type="submit" disabled={busy() || !("body" in plan()) || worktree.checking()}>
          {busy() ? "Starting…" : "Start session"}
        </button>
      </div>
      <PastSessions machine={machine()} agent={machine()?.agents.find((a) => a.id === agent())} cwd={cwd()} />
    </form>
    </Show>
  );
}
