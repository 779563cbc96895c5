import { A } from "@solidjs/router";
import { createResource, For, Show } from "solid-js";
import ChevronRight from "lucide-solid/icons/chevron-right";
import Monitor from "lucide-solid/icons/monitor";
import { api } from "../lib/api";
import "../home.css";
import "../team.css";
import { UserMenu } from "./UserMenu";
import { NewSessionForm } from "./NewSessionForm";
import { statusLabel, timeAgo } from "../lib/format";
import { sessionHeading, shortPath, sortSessions } from "../session/new-session-logic";

export function SessionList() {
  const [sessions] = createResource(() => api.sessions());

  return (
    <div class="home">
      <header class="home-head">
        <div class="brand">
          <span class="brand-mark" aria-hidden="true">B</span>
          <div>
            <h1>Baton</h1>
            <p class="tagline">Your coding agents, live in every browser.</p>
          </div>
        </div>
        <nav class="head-nav">
          <A class="nav-link" href="/machines" data-testid="machines-link" aria-label="Machines" title="Machines">
            <Monitor size={16} aria-hidden="true" />
            <span class="nav-label">Machines</span>
          </A>
          <UserMenu />
        </nav>
      </header>

      <NewSessionForm />

      <section class="card">
        <h2>Sessions</h2>
        <Show when={!sessions.error} fallback={<p class="empty">Could not load sessions: {(sessions.error as Error)?.message}</p>}>
          <Show when={(sessions() ?? []).length} fallback={<p class="empty">{sessions.loading ? "Loading…" : "No sessions yet — start one above."}</p>}>
            <ul class="sessions">
              <For each={sortSessions(sessions() ?? [])}>
                {(s) => (
                  <li>
                    <A href={`/s/${encodeURIComponent(s.id)}`} data-testid="session-link" class="session-link">
                      <span class={`dot status-${s.status}`} aria-hidden="true" />
                      <span class="s-main">
                        <span class="s-title" data-testid="session-title">{sessionHeading(s).title}</span>
                        <Show when={sessionHeading(s).preview}>
                          {(p) => (
                            <span class="s-preview" data-testid="session-preview">
                              {p()}
                            </span>
                          )}
                        </Show>
                        <span class="s-meta">
                          <span class={`s-status status-text-${s.status}`}>{statusLabel(s.status)}</span> · {s.agentLabel} · {s.machineName} ·{" "}
                          <span class="mono">{shortPath(s.cwd)}</span>
                        </span>
                      </span>
                      <span class="s-when">{timeAgo(s.lastActivityAt)}</span>
                      <ChevronRight size={16} class="s-chev" aria-hidden="true" />
                    </A>
                  </li>
                )}
              </For>
            </ul>
          </Show>
        </Show>
      </section>
    </div>
  );
}
