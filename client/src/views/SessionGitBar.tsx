import { createEffect, createResource, createSignal, Show, Suspense } from "solid-js";
import type { OpInput, OpReply } from "../connection/op-client";
import { toast } from "../lib/toasts";
import { errorText } from "../session/session-actions";
import type { SessionWorktree } from "../../../shared/worktree";
import { gitApi } from "../lib/git-api";
import { lazyChunk } from "../lib/load-chunk";

/** The Commit dialog loads when first opened. */
const CommitDialog = lazyChunk(() => import("./CommitDialog").then((m) => ({ default: m.CommitDialog })));
/** The changes view loads when first opened (outside the page's initial JS). */
const ChangesPanel = lazyChunk(() => import("./ChangesPanel").then((m) => ({ default: m.ChangesPanel })));

/** The repository the strip names: a Baton worktree (with its base) or the person's own checkout. */
type BarRepo = { name: string; branch: string | null; base: string | null; where: string; worktree: boolean };

/**
 * The session page's slot for the strip (issue 28): a worktree session's, or — a session without one whose
 * directory lies in a git repository (the server asks the machine, issue 28 #2) — its checkout's. Takes the
 * page's session, state and socket as they are (each prop costs the page's first-paint chunk bytes).
 */
export default function SessionGitSlot(props: {
  session: { id: string; worktree?: SessionWorktree | null } | null;
  state: { turnActive: boolean; status: string; viewer: { role: string } | null; reviewVersion: number };
  request: (op: OpInput) => Promise<OpReply>;
}) {
  const online = () => props.state.status !== "offline";
  // Asked while the machine is online (it answers); what it said stays while it is offline (the log view still works).
  const [checkout] = createResource(
    () => (props.session && !props.session.worktree && online() ? props.session.id : null),
    (id) => gitApi.sessionRepo(id).then((r) => r.repo).catch(() => null),
  );
  const repo = (): BarRepo | null => {
    const wt = props.session?.worktree;
    if (wt) return { name: wt.repoName, branch: wt.branch, base: wt.base, where: `Worktree ${wt.worktreePath} of ${wt.repoRoot}`, worktree: true };
    const c = checkout();
    return c ? { name: c.name, branch: c.branch, base: null, where: `Checkout ${c.root}`, worktree: false } : null;
  };
  return (
    <Show when={props.session && repo()}>
      {(r) => (
        <SessionGitBar
          sessionId={props.session!.id}
          repo={r()}
          canAct={!!props.state.viewer && props.state.viewer.role !== "viewer"}
          turnActive={props.state.turnActive}
          reviewVersion={props.state.reviewVersion}
          online={online()}
          request={props.request}
        />
      )}
    </Show>
  );
}

/**
 * The strip under the session's header: repository · branch ← base at every width, then ahead / behind the base
 * and the changed files (asked again when a turn ends), "Changes" and — a worktree only — "Commit…".
 */
function SessionGitBar(props: {
  sessionId: string;
  repo: BarRepo;
  canAct: boolean;
  turnActive: boolean;
  reviewVersion: number;
  online: boolean;
  /** The session socket's op request ("Send review" is a `message.send`). */
  request: (op: OpInput) => Promise<OpReply>;
}) {
  const r = () => props.repo;
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
    <div class="git-bar" data-testid={r().worktree ? "session-worktree" : "session-checkout"} title={r().where}>
      {/* lucide's git-branch, inline: an icon chunk of its own would add to the session page's preload list */}
      <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">
        <path d="M6 3v12M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM18 9a9 9 0 0 1-9 9" />
      </svg>
      <span class="git-repo">{r().name}</span>
      <Show when={status()?.branch ?? r().branch}>
        {(branch) => (
          <>
            <span class="dot-sep">·</span>
            <span class="mono git-branch" aria-label={`branch ${branch()}`}>
              {branch()}
            </span>
          </>
        )}
      </Show>
      <Show when={r().base}>
        {(base) => (
          <span class="git-base" aria-label={`from ${base()}`}>
            ← <span class="mono">{base()}</span>
          </span>
        )}
      </Show>
      <Show when={status()}>
        {(s) => (
          <span class="git-status" data-testid="git-status">
            <Show when={r().base}>
              <span aria-label={`${s().ahead} ahead, ${s().behind} behind ${r().base}`}>
                ↑{s().ahead} ↓{s().behind}
              </span>
              <span class="dot-sep">·</span>
            </Show>
            <span>{s().files === 0 ? "clean" : `${s().files} ${r().worktree ? "changed" : "uncommitted"}`}</span>
          </span>
        )}
      </Show>
      <button type="button" class="btn btn-sm git-changes" onClick={() => setChanges(true)}>
        Changes
      </button>
      {/* A person's own checkout has no Commit…: `git add --all` would sweep their unrelated work into it. */}
      <Show when={r().worktree && props.canAct && (status()?.files ?? 0) > 0}>
        <button type="button" class="btn btn-sm git-commit" onClick={() => setCommitting(true)}>
          Commit…
        </button>
      </Show>
      <Show when={changes()}>
        <Suspense>
          <ChangesPanel
            sessionId={props.sessionId}
            against={r().worktree ? "base" : "head"}
            online={props.online}
            reviewVersion={props.reviewVersion}
            canAct={props.canAct}
            send={send}
            onClose={() => setChanges(false)}
          />
        </Suspense>
      </Show>
      <Show when={committing()}>
        <Suspense>
          <CommitDialog
            sessionId={props.sessionId}
            branch={r().branch ?? "HEAD"}
            files={status()?.files ?? 0}
            onDone={(s) => mutate(s)}
            onClose={() => setCommitting(false)}
          />
        </Suspense>
      </Show>
    </div>
  );
}
