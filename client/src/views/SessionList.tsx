import { A } from "@solidjs/router";
import Monitor from "lucide-solid/icons/monitor";
import "../home.css";
import "../team.css";
import { NewSessionForm } from "./NewSessionForm";
import { SessionsPanel } from "./SessionsPanel";
import { UserMenu } from "./UserMenu";

/** The home page: the New session form and the live list of sessions. */
export function SessionList() {
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

      <main class="home-main">
        <NewSessionForm />

        <SessionsPanel />
      </main>
    </div>
  );
}
