/**
 * "Fork" (issue 26): a new Baton session with this session's history, bound to the agent's fork of its session
 * (ACP `session/fork`: claude, codex, opencode); the original is untouched. The whole session is forked — no agent
 * offers forking at a message yet. The server refuses with the reason (agent cannot fork, machine offline).
 */
import { useNavigate } from "@solidjs/router";
import { createSignal } from "solid-js";
import GitFork from "lucide-solid/icons/git-fork";
import type { ForkAnswer } from "../../../shared/agent-sessions-api";
import { forkPath } from "../../../shared/agent-sessions-paths";
import { call } from "../lib/api";
import { toast } from "../lib/toasts";
import "../past-sessions.css";

export function ForkButton(props: { sessionId: string; class?: string }) {
  const navigate = useNavigate();
  const [busy, setBusy] = createSignal(false);
  const fork = async () => {
    setBusy(true);
    try {
      const res = await call<ForkAnswer>(forkPath(props.sessionId), { method: "POST", body: "{}" });
      if (res.truncated) toast("Forked; the oldest rows were too many to copy.", "info");
      navigate(`/s/${encodeURIComponent(res.session.id)}`);
    } catch (err) {
      toast((err as Error).message || "Could not fork the session", "error");
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" class={`btn btn-sm fork-btn ${props.class ?? ""}`} data-testid="fork-session" disabled={busy()} onClick={() => void fork()} title="A new session with this history; this one stays as it is">
      <GitFork size={16} aria-hidden="true" />
      {busy() ? "Forking…" : "Fork"}
    </button>
  );
}
