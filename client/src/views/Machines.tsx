import { A } from "@solidjs/router";
import ArrowLeft from "lucide-solid/icons/arrow-left";
import Check from "lucide-solid/icons/check";
import Copy from "lucide-solid/icons/copy";
import Download from "lucide-solid/icons/download";
import KeyRound from "lucide-solid/icons/key-round";
import Monitor from "lucide-solid/icons/monitor";
import TriangleAlert from "lucide-solid/icons/triangle-alert";
import { createResource, createSignal, For, onCleanup, onMount, Show } from "solid-js";
import type { MachineSummary } from "../../../shared/api";
import { api, type PairResult } from "../lib/api";
import { daemonVersionNote, installCommands } from "../lib/daemon-install";
import { sentence, timeAgo } from "../lib/format";
import { toast } from "../lib/toasts";
import { CopyCommand } from "./CopyCommand";
import { RevocableRow } from "./RevocableRow";
import { SignIns } from "./SignIns";
import { UserMenu } from "./UserMenu";
import { useMe } from "../lib/auth";
import "../home.css";
import "../team.css";

/** How often the list refreshes while open: a daemon coming online shows up within a few seconds. */
const MACHINES_POLL_MS = 4_000;

/** Paired machines: status, agents, last seen; pair a new one (token shown once); revoke. */
export function Machines() {
  const [machines, { refetch, mutate }] = createResource(() => api.machines());
  const [name, setName] = createSignal("");
  const [pairing, setPairing] = createSignal(false);
  const [paired, setPaired] = createSignal<PairResult | null>(null);
  const [confirming, setConfirming] = createSignal<string | null>(null);

  onMount(() => {
    const t = setInterval(() => {
      if (document.visibilityState === "visible") void refetch();
    }, MACHINES_POLL_MS);
    onCleanup(() => clearInterval(t));
  });

  const pair = async (e: Event) => {
    e.preventDefault();
    setPairing(true);
    try {
      const r = await api.pairMachine(name().trim() || "My machine");
      setPaired(r);
      setName("");
      void refetch();
    } catch (err) {
      toast(sentence((err as Error).message || "Could not pair"), "error");
    } finally {
      setPairing(false);
    }
  };

  const revoke = async (m: MachineSummary) => {
    try {
      await api.revokeMachine(m.id);
      mutate((list) => (list ?? []).filter((x) => x.id !== m.id));
      if (paired()?.machine.id === m.id) setPaired(null);
      toast(`${m.name} revoked — its daemon was disconnected`);
    } catch (err) {
      toast(sentence((err as Error).message || "Could not revoke"), "error");
    } finally {
      setConfirming(null);
    }
  };

  const pairedOnline = () => {
    const p = paired();
    return !!p && !!machines()?.some((m) => m.id === p.machine.id && m.online);
  };

  return (
    <div class="home">
      <header class="home-head">
        <div class="brand">
          <A class="icon-btn" href="/" aria-label="All sessions">
            <ArrowLeft size={20} />
          </A>
          <div>
            <h1>Machines</h1>
            <p class="tagline">Computers running the Baton daemon for you.</p>
          </div>
        </div>
        <UserMenu />
      </header>

      <Show
        when={useMe()?.scope !== "guest"}
        fallback={
          <p class="card guest-note" data-testid="guest-note">
            Your account was invited to sessions. Pairing machines needs an account on this server's allow list.
          </p>
        }
      >
      <InstallCard />

      <form class="card" data-testid="pair-form" onSubmit={pair}>
        <h2>
          <KeyRound size={18} aria-hidden="true" /> Pair with a token
        </h2>
        <Show when={!paired()}>
          <p class="hint">For a machine where you would rather paste a token than approve a code (shown once).</p>
        </Show>
        <Show
          when={paired()}
          fallback={
            <div class="pair-row">
              <input
                class="text-input"
                placeholder="Name, e.g. Work laptop"
                maxLength={100}
                value={name()}
                onInput={(e) => setName(e.currentTarget.value)}
                aria-label="Machine name"
                data-testid="pair-name"
              />
              <button class="btn btn-primary" type="submit" disabled={pairing()} data-testid="pair-submit">
                {pairing() ? "Pairing…" : "Pair"}
              </button>
            </div>
          }
        >
          {(p) => <PairedCommand result={p()} online={pairedOnline()} onDone={() => setPaired(null)} />}
        </Show>
      </form>
      </Show>

      <section class="card">
        <h2>
          <Monitor size={18} aria-hidden="true" /> Your machines
        </h2>
        <Show when={!machines.error} fallback={<p class="empty">Could not load machines: {(machines.error as Error)?.message}</p>}>
          <Show when={(machines() ?? []).length} fallback={<p class="empty">{machines.loading ? "Loading…" : "No machines yet — pair one above."}</p>}>
            <ul class="machines" data-testid="machine-list">
              <For each={machines() ?? []}>
                {(m) => (
                  <RevocableRow
                    testId="machine-row"
                    lead={<span class={`dot ${m.online ? "status-idle" : "status-offline"}`} aria-hidden="true" />}
                    confirming={confirming() === m.id}
                    testIds={{ ask: "revoke", confirm: "revoke-confirm" }}
                    onAsk={() => setConfirming(m.id)}
                    onCancel={() => setConfirming(null)}
                    onConfirm={() => void revoke(m)}
                  >
                    <span class="m-name">
                      {m.name}
                      <Show when={m.hostname && m.hostname !== m.name}>
                        <span class="m-host mono"> {m.hostname}</span>
                      </Show>
                    </span>
                    <span class="m-meta">
                      <span class={m.online ? "status-text-idle" : "status-text-offline"}>{m.online ? "Online" : "Offline"}</span>
                      <Show when={!m.online}> · {m.lastSeenAt ? `last seen ${timeAgo(m.lastSeenAt)}` : "never connected"}</Show>
                      <Show when={m.agents.length}> · {m.agents.map((a) => a.label).join(", ")}</Show>
                      <Show when={daemonVersionNote(m)?.level === "ok"}> · {daemonVersionNote(m)!.text}</Show>
                    </span>
                    <Show when={daemonVersionNote(m)?.level !== "ok" && daemonVersionNote(m)}>
                      {(note) => (
                        <span class={`m-warn ${note().level}`} role="alert" data-testid="daemon-outdated">
                          <TriangleAlert size={14} aria-hidden="true" /> {note().text}
                        </span>
                      )}
                    </Show>
                  </RevocableRow>
                )}
              </For>
            </ul>
            <p class="hint">Revoking disconnects the daemon at once; its sessions show the machine offline.</p>
          </Show>
        </Show>
      </section>

      <SignIns />
    </div>
  );
}

/** The one-line install and `baton login` for this server. */
function InstallCard() {
  const cmds = installCommands(location.origin);
  return (
    <section class="card install-card" data-testid="install-card">
      <h2>
        <Download size={18} aria-hidden="true" /> Add a machine
      </h2>
      <ol class="install-steps">
        <li>
          <span class="step-label">Install the daemon (Node 20 or newer):</span>
          <CopyCommand command={cmds.install} label="install command" testId="install-command" />
        </li>
        <li>
          <span class="step-label">Pair it with this server — it prints a code to approve here:</span>
          <CopyCommand command={cmds.login} label="login command" testId="login-command" />
        </li>
        <li>
          <span class="step-label">
            Start it: <code>baton daemon --root ~/code</code>, or keep it running at every login:
          </span>
          <CopyCommand command={cmds.service} label="service command" testId="service-command" />
        </li>
      </ol>
      <p class="hint">
        <code>baton doctor</code> checks the server, the token, the roots and the agents it finds.
      </p>
    </section>
  );
}

function PairedCommand(props: { result: PairResult; online: boolean; onDone: () => void }) {
  const [copied, setCopied] = createSignal(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.result.command);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toast("Copy failed — select the command and copy it by hand", "error");
    }
  };
  return (
    <div class="paired" data-testid="paired">
      <p class="paired-lead">
        Run this on <strong>{props.result.machine.name}</strong>. The token is shown <strong>only once</strong> — copy it now.
      </p>
      <div class="command">
        <pre class="mono" data-testid="pair-command">{props.result.command}</pre>
        <button type="button" class="icon-btn" aria-label="Copy command" title="Copy" onClick={() => void copy()} data-testid="copy-command">
          <Show when={copied()} fallback={<Copy size={16} />}>
            <Check size={16} />
          </Show>
        </button>
      </div>
      <p class="hint">
        Tip: to keep the token out of shell history, export it as <code>BATON_TOKEN</code> and drop <code>--token</code>.
      </p>
      <div class="form-foot">
        <span class={`hint ${props.online ? "status-text-idle" : ""}`} data-testid="pair-status">
          {props.online ? "Connected — the machine is online." : "Waiting for the daemon to connect…"}
        </span>
        <button type="button" class="btn" onClick={() => props.onDone()} data-testid="pair-done">
          Done
        </button>
      </div>
    </div>
  );
}
