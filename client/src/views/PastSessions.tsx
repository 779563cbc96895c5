/**
 * "Continue a past session" (issue 26): under New session, after machine, agent and directory. Lists the agent's
 * own sessions for that directory through the daemon (ACP `session/list`, paged by its cursor), each with its title
 * and when it was last updated; "Open" makes a Baton session bound to it (the agent's history is relayed once).
 * Disabled, with the reason, when the agent cannot list (no `session/list`) or the machine is offline.
 */
import { useNavigate } from "@solidjs/router";
import { createEffect, createMemo, createSignal, For, on, Show } from "solid-js";
import ChevronRight from "lucide-solid/icons/chevron-right";
import Clock from "lucide-solid/icons/clock";
import type { MachineSummary, SessionSummary } from "../../../shared/api";
import type { AgentSessionsAnswer, ImportSessionBody } from "../../../shared/agent-sessions-api";
import { agentSessionsPath, IMPORT_PATH } from "../../../shared/agent-sessions-paths";
import type { AgentSessionInfo } from "../../../shared/tunnel-ask";
import type { AgentInfo } from "../../../shared/tunnel-protocol";
import { call } from "../lib/api";
import { toast } from "../lib/toasts";
import { appendPage, pastSessionRow, pastSessionsAvailability } from "../session/past-sessions-logic";
import "../past-sessions.css";

export function PastSessions(props: { machine: MachineSummary | undefined; agent: AgentInfo | undefined; cwd: string }) {
  const navigate = useNavigate();
  const [open, setOpen] = createSignal(false);
  const [rows, setRows] = createSignal<AgentSessionInfo[]>([]);
  const [cursor, setCursor] = createSignal<string | null>(null);
  const [loading, setLoading] = createSignal(false);
  const [loaded, setLoaded] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [opening, setOpening] = createSignal<string | null>(null);
  const availability = createMemo(() => pastSessionsAvailability(props.machine, props.agent, props.cwd));
  const target = () => `${props.machine?.id ?? ""}\u0000${props.agent?.id ?? ""}\u0000${props.cwd}`;
  let generation = 0;

  const load = async (more: boolean) => {
    const m = props.machine;
    const a = props.agent;
    if (!m || !a || !availability().ok) return;
    const mine = more ? generation : ++generation;
    setLoading(true);
    setError(null);
    try {
      const page = await call<AgentSessionsAnswer>(agentSessionsPath(m.id, a.id, props.cwd.trim(), more ? cursor() : null));
      if (mine !== generation) return; // machine / agent / directory changed meanwhile
      setRows((have) => appendPage(more ? have : [], page.sessions));
      setCursor(page.nextCursor);
      setLoaded(true);
    } catch (err) {
      if (mine === generation) setError((err as Error).message || "Could not list the agent's sessions");
    } finally {
      if (mine === generation) setLoading(false);
    }
  };

  // A new machine, agent or directory: what was listed no longer applies.
  createEffect(
    on(target, () => {
      generation++;
      setRows([]);
      setCursor(null);
      setLoaded(false);
      setError(null);
      setLoading(false);
      if (open() && availability().ok) void load(false);
    }, { defer: true }),
  );

  const toggle = () => {
    const next = !open();
    setOpen(next);
    if (next && !loaded() && !loading()) void load(false);
  };

  const importSession = async (s: AgentSessionInfo) => {
    const m = props.machine;
    const a = props.agent;
    if (!m || !a) return;
    setOpening(s.agentSessionId);
    try {
      const body: ImportSessionBody = { machineId: m.id, agentId: a.id, cwd: props.cwd.trim(), agentSessionId: s.agentSessionId };
      const res = await call<{ session: SessionSummary }>(IMPORT_PATH, { method: "POST", body: JSON.stringify(body) });
      navigate(`/s/${encodeURIComponent(res.session.id)}`);
    } catch (err) {
      toast((err as Error).message || "Could not open that session", "error");
    } finally {
      setOpening(null);
    }
  };

  const reason = () => {
    const a = availability();
    return a.ok ? null : a.reason;
  };

  return (
    <section class="past" data-testid="past-sessions" aria-label="Continue a past session">
      <button
        type="button"
        class="past-toggle"
        aria-expanded={open() && !reason()}
        aria-controls="past-sessions-list"
        aria-describedby={reason() ? "past-sessions-reason" : undefined}
        disabled={!!reason()}
        onClick={toggle}
      >
        <ChevronRight size={18} aria-hidden="true" />
        <Clock size={16} aria-hidden="true" />
        Continue a past session
      </button>
      <Show when={reason()}>
        {(r) => (
          <p class="past-reason" id="past-sessions-reason" data-testid="past-sessions-reason">
            {r()}
          </p>
        )}
      </Show>
      <Show when={open() && !reason()}>
        <div id="past-sessions-list">
          <Show when={rows().length}>
            <ul class="past-list" aria-label={`${props.agent?.label ?? "Agent"} sessions in ${props.cwd}`}>
              <For each={rows()}>
                {(s) => {
                  const row = () => pastSessionRow(s);
                  return (
                    <li class="past-row" data-testid="past-session">
                      <span class="past-main">
                        <span class="past-title" title={row().title}>
                          {row().title}
                        </span>
                        <Show when={row().updated}>
                          <span class="past-when">Updated {row().updated}</span>
                        </Show>
                      </span>
                      <button
                        type="button"
                        class="btn btn-sm"
                        aria-label={`Open ${row().title}`}
                        disabled={opening() !== null}
                        onClick={() => void importSession(s)}
                      >
                        {opening() === s.agentSessionId ? "Opening…" : "Open"}
                      </button>
                    </li>
                  );
                }}
              </For>
            </ul>
          </Show>
          <Show when={loaded() && !rows().length && !error()}>
            <p class="past-empty">No past sessions of {props.agent?.label} in this directory.</p>
          </Show>
          <Show when={error()}>{(e) => <p class="past-error" role="alert">{e()}</p>}</Show>
          <div class="past-foot">
            <Show when={loading()}>
              <span class="past-empty" role="status">
                Loading…
              </span>
            </Show>
            <Show when={!loading() && (cursor() || error())}>
              <button type="button" class="btn btn-quiet" onClick={() => void load(!!cursor() && !error() ? true : rows().length > 0)}>
                {error() ? "Try again" : "Load more"}
              </button>
            </Show>
          </div>
        </div>
      </Show>
    </section>
  );
}
