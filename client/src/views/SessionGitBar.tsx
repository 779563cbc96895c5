import { createEffect, createResource, createSignal, lazy, Show, Suspense } from "solid-js";
import type { OpInput, OpReply } from "../connection/op-client";
import { toast } from "../lib/toasts";
import { errorText } from "../session/session-actions";
import type { SessionWorktree } from "../../../shared/worktree";
import { gitApi } from "../lib/git-api";

/** The Commit dialog loads when first opened. */
const CommitDialog = lazy(() => import("./CommitDialog").then((m) => ({ default: m.CommitDialog })));
/** The changes view loads when first opened (outside the page's initial JS). */
const ChangesPanel = lazy(() => import("./ChangesPanel").then((m) => ({ default: m.ChangesPanel })));

/**
 * The strip under a worktree session's header (issue 28): repository · branch ← base at every width, then
 * ahead / behind the base and the changed files (asked again when a turn ends), "Changes" and "Commit…".
 */
/**
 * The session page's slot for it: renders the strip when the session runs in a worktree. Takes the page's
 * session, state and socket as they are (each prop costs the page's first-paint chunk bytes).
 */
export default function SessionGitSlot(props: {
  session: { id: string; worktree?: SessionWorktree | null } | null;
  state: { turnActive: boolean; status: string; viewer: { role: string } | null; reviewVersion: number };
  request: (op: OpInput) => Promise<OpReply>;
}) {
  return (
    <Show when={props.session?.worktree && props.session}>
      {(s) => (
        <SessionGitBar
          sessionId={s().id}
          worktree={s().worktree!}
          canAct={!!props.state.viewer && props.state.viewer.role !== "viewer"}
          turnActive={props.state.turnActive}
          reviewVersion={props.state.reviewVersion}
          online={props.state.status !== "offline"}
          request={props.request}
        />
      )}
    </Show>
  );
}

function SessionGitBar(props: {
  sessionId: string;
  worktree: SessionWorktree;
  canAct: boolean;
  turnActive: boolean;
  reviewVersion: number;
  online: boolean;
  /** The session socket's op request ("Send review" is a `message.send`). */
  request: (op: OpInput) => Promise<OpReply>;
}) {
  const wt = () => props.worktree;
  // The status is asked again after each turn (the agent may have changed files).
  const [turns, setTurns] = createSignal(0);
  let wasActive = false;
  createEffect(() => {
    const active = props.turnActive;
    if (wasActive && !active) setTurns((n) => n + 1);
    wasActive = active;
  });
  // Issue 28 #3: "Send review" is one message, sent (or queued while a turn runs) like any other.
  const send = async (text: string): Promise<boolean> => {
    const reply = await props.request({ op: "message.send", id: crypto.randomUUID(), blocks: [{ type: "text", text }] });
    if (reply.type === "error") toast(errorText(reply), "error");
    return reply.type !== "error";
  };
  const [status, { mutate }] = createResource(
    () => ({ id: props.sessionId, turns: turns() }),
    (k) => gitApi.gitStatus(k.id).catch(() => null),
  );
  const [committing, setCommitting] = createSignal(false);
  const [changes, setChanges] = createSignal(false);
  return (
    <div class="git-bar" data-testid="session-worktree" title={`Worktree ${wt().worktreePath} of ${wt().repoRoot}`}>
      {/* lucide's git-branch, inline: an icon chunk of its own would add to the session page's preload list */}
      <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">
        <path d="M6 3v12M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM18 9a9 9 0 0 1-9 9" />
      </svg>
      <span class="git-repo">{wt().repoName}</span>
      <span class="dot-sep">·</span>
      <span class="mono git-branch" aria-label={`branch ${wt().branch}`}>
        {wt().branch}
      </span>
      <span class="git-base" aria-label={`from ${wt().base}`}>
        ← <span class="mono">{wt().base}</span>
      </span>
      <Show when={status()}>
        {(s) => (
          <span class="git-status" data-testid="git-status">
            <span aria-label={`${s().ahead} ahead, ${s().behind} behind ${wt().base}`}>
              ↑{s().ahead} ↓{s().behind}
            </span>
            <span class="dot-sep">·</span>
            <span>{s().files === 0 ? "clean" : `${s().files} changed`}</span>
          </span>
        )}
      </Show>
      <button type="button" class="btn btn-sm git-changes" onClick={() => setChanges(true)}>
        Changes
      </button>
      <Show when={props.canAct && (status()?.files ?? 0) > 0}>
        <button type="button" class="btn btn-sm git-commit" onClick={() => setCommitting(true)}>
          Commit…
        </button>
      </Show>
      <Show when={changes()}>
        <Suspense>
          <ChangesPanel sessionId={props.sessionId} hasWorktree online={props.online} reviewVersion={props.reviewVersion} canAct={props.canAct} send={send} onClose={() => setChanges(false)} />
        </Suspense>
      </Show>
      <Show when={committing()}>
        <Suspense>
          <CommitDialog
            sessionId={props.sessionId}
            branch={wt().branch}
            files={status()?.files ?? 0}
            onDone={(s) => mutate(s)}
            onClose={() => setCommitting(false)}
          />
        </Suspense>
      </Show>
    </div>
  );
}
