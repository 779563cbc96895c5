import SearchIcon from "lucide-solid/icons/search";
import { A, useNavigate, useParams } from "@solidjs/router";
import ArrowDown from "lucide-solid/icons/arrow-down";
import ArrowLeft from "lucide-solid/icons/arrow-left";
import CloudOff from "lucide-solid/icons/cloud-off";
import Eye from "lucide-solid/icons/eye";
import { createEffect, createMemo, createResource, createSignal, type JSX, onCleanup, Show, Suspense } from "solid-js";
import { markContentShown } from "../lib/content-shown";
import { whenIdle } from "../lib/idle";
import { onDemand } from "../lib/on-demand";
import { api } from "../lib/api";
import { warmMarkdown } from "../lib/create-markdown";
import { shortPath } from "../lib/format";
import { toast } from "../lib/toasts";
import { createDraft } from "../session/create-draft";
import { createFollow } from "../session/create-follow";
import { createSessionStore } from "../session/create-session-store";
import { mentions } from "../session/mentions-on-demand";
import { ackOf } from "../connection/op-client";
import { errorText, makeSessionActions } from "../session/session-actions";
import { Sender } from "./Sender";
import { ConnectionBadge, SessionStatusBadge } from "./StatusBadges";
import { Toasts } from "./Toasts";
import { Transcript } from "./Transcript";
import type { OpenedShare } from "../../../shared/share-api";
import { SHARE_PROTOCOL, SHARE_SOCKET_PATH } from "../../../shared/share-socket";
import { lazyChunk } from "../lib/load-chunk";

/** The push client (and zod with it) loads with this view, not with the first paint. */
const EnableNotificationsPrompt = lazyChunk(() => import("./EnableNotificationsPrompt").then((m) => ({ default: m.EnableNotificationsPrompt })));

/** Shown only when the agent needs a login first: loaded then. */
/** The header's members and settings panels load after the first paint: the session page's initial JS is near its budget. */
// The search button's code in its own chunk (the panel's loads on its first press).
const SessionSearch = lazyChunk(() => import("./SessionSearch").then((m) => ({ default: m.SessionSearch })));
const MembersPanel = lazyChunk(() => import("./MembersPanel").then((m) => ({ default: m.MembersPanel })));
const SessionSettings = lazyChunk(() => import("./SessionSettings").then((m) => ({ default: m.SessionSettings })));
/** Shown only after a Stop dropped queued messages: loads when it first has something to offer. */
const DroppedOffer = lazyChunk(() => import("./DroppedOffer").then((m) => ({ default: m.DroppedOffer })));
/** A worktree session's git strip (issue 28) loads with the session's details, outside the page's initial JS. */
const SessionGitBar = lazyChunk(() => import("./SessionGitBar"));
// Off the first paint (≈ 2 KB gz of the session page's 60 KB budget): most joins have no queue; warmed at idle below.
const QueueChips = lazyChunk(() => import("./QueueChips").then((m) => ({ default: m.QueueChips })));
const AuthHelp = lazyChunk(() => import("./AuthHelp").then((m) => ({ default: m.AuthHelp })));

/** How long a reconnect may fail before we ask the API whether we still have access. */
const ACCESS_RECHECK_MS = 3_000;

/**
 * A spectator's live view (issue 30 #3; the `/share` page, views/SharedSession.tsx, opens the link first):
 * this page in share mode — the spectator socket, no composer, no members or settings.
 */

/** The tab's attention count (favicon badge while hidden): off the first paint's path, warmed after it. */
const tabAttention = onDemand(() => import("../push/create-tab-attention"));

export function SpectatorView(props: SpectatorShare): JSX.Element {
  return <Session id={props.opened.sessionId} share={props} />;
}

export function SessionView(): JSX.Element {
  const params = useParams<{ id: string }>();
  // Keyed by id: navigating to another session remounts (new socket, new draft).
  return <Show when={params.id} keyed>{(id) => <Session id={id} />}</Show>;
}

/** A spectator's link: what it opened, its token (the socket's subprotocol), its line under the title, and "ask why it stopped". */
export type SpectatorShare = { opened: OpenedShare; token: string; subtitle: string; recheck: () => void };

function Session(props: { id: string; share?: SpectatorShare }) {
  // The agent's first words (or the replay's) will want the renderer: fetch it once this page has painted.
  warmMarkdown();
  whenIdle(() => void QueueChips.preload());
  const [draft, setDraft] = createDraft(props.id);
  let focusComposer = () => {};
  const navigate = useNavigate();
  const share = props.share;
  const { state, socket, takeDropped, loadOlder, revealRow } = createSessionStore(props.id, {
    ...(share ? { route: { path: SHARE_SOCKET_PATH, protocols: [SHARE_PROTOCOL, share.token] }, onShareEnded: share.recheck } : {}),
    // The owner deleted the session (the room closed with CLOSE_SESSION_DELETED): say so, back to the list.
    onDeleted: () => {
      if (share) return share.recheck();
      toast("This session was deleted", "error");
      navigate("/", { replace: true });
    },
    // Sends restored from a previous page load: their answers have no caller waiting.
    onOrphanReply: (op, reply) => {
      if (reply.type === "error") {
        actions.restore([{ blocks: op.blocks }]);
        toast(errorText(reply), "error");
      }
    },
  });
  // Mounted from the first queued entry on and kept: an entry edited while it runs hands its text to the draft from there.
  const queueShown = createMemo<boolean>((shown) => shown || state.queue.length > 0, false);
  const actions = makeSessionActions({ request: socket.request, draft, setDraft, notify: toast });
  const [info, { refetch: recheckAccess }] = createResource(
    // A spectator may have no account: what the link shows came with it (share.opened).
    () => (share ? null : props.id),
    (id) => api.session(id).catch((e: Error) => ({ error: e.message }) as const),
  );
  // Lost access (removed from the session, signed out) looks like a socket that cannot reconnect:
  // re-check over HTTP, which can say 404 (banner) or 401 (the AuthGate shows the sign-in page).
  createEffect(() => {
    if (state.connection !== "reconnecting") return;
    const t = setTimeout(() => (share ? share.recheck() : void recheckAccess()), ACCESS_RECHECK_MS);
    onCleanup(() => clearTimeout(t));
  });
  const session = () => {
    const i = info();
    return i && "session" in i ? i.session : null;
  };
  const notFound = () => {
    const i = info();
    return !!i && "error" in i;
  };
  const needsLogin = () => state.status === "error" && state.authMethods.length > 0;
  const canAct = () => state.viewer !== null && state.viewer.role !== "viewer";
  const [scroller, setScroller] = createSignal<HTMLElement>();
  const [content, setContent] = createSignal<HTMLElement>();
  const follow = createFollow(scroller, content);

  const takeBack = async (id: string) => {
    await actions.takeBack(id);
    focusComposer();
  };
  // The room settles the offer for every viewer (dropped_offer); this viewer's copy goes at once.
  const restore = async () => {
    await actions.restoreDropped(takeDropped());
    focusComposer();
  };
  const requeue = () => actions.requeue(takeDropped());

  // Search (issue 26): the room answers in bounded slices; a chosen hit pages its row in, then shows it.
  const search = async (query: string, before: number | undefined) => {
    const reply = await socket.request({ op: "history.search", query, ...(before ? { before } : {}) });
    return ackOf(reply, "history.search") ?? { error: reply.type === "error" ? errorText(reply) : "The search did not answer. Try again." };
  };
  const [revealed, setRevealed] = createSignal<{ rowId: string; n: number } | null>(null);
  const reveal = async (hit: { at: number; rowId: string }) => {
    if (!(await revealRow(hit.at, hit.rowId))) return false;
    follow.release();
    setRevealed((r) => ({ rowId: hit.rowId, n: (r?.n ?? 0) + 1 }));
    return true;
  };

  const title = () => state.title ?? session()?.title ?? share?.opened.title ?? "Session";
  // While the tab is hidden: a count of what would have notified (turn ended, permission waiting).
  // Its code loads after the first paint (tabAttention below); the count starts then.
  tabAttention.warm();
  const attention = createMemo(() => tabAttention.current()?.createTabAttention(() => ({ ready: state.ready, turnActive: state.turnActive, rows: state.rows })));
  createEffect(() => {
    const base = `${state.turnActive ? "● " : ""}${title()} — Baton`;
    const code = tabAttention.current();
    document.title = code ? code.attentionTitle(base, attention()?.() ?? 0) : base;
  });
  // This person sent here (this page load): the moment to offer notifications, never on load.
  const [sentHere, setSentHere] = createSignal(false);
  // The prompt's push client brings zod's schemas (≈ 26 KB gz and a long task to evaluate): it mounts once the
  // join has landed and the page is idle (or at this person's first send), not beside the first render.
  const [pushMounted, setPushMounted] = createSignal(false);
  createEffect(() => {
    if (!state.ready) return;
    markContentShown();
    if (!pushMounted()) whenIdle(() => setPushMounted(true));
  });
  onCleanup(() => (document.title = "Baton"));
  // The phone keyboard's inset (keyboard-inset.ts): after the first paint, like everything the page can wait for.
  let stopKeyboardInset: (() => void) | undefined;
  let left = false;
  void import("./ComposerTools").then((m) => !left && (stopKeyboardInset = m.watchKeyboardInset()));
  onCleanup(() => {
    left = true;
    stopKeyboardInset?.();
  });
  const placeholder = () => {
    if (!canAct()) return undefined;
    if (state.status === "offline" && !state.turnActive) return "The machine is offline — sends are refused until it returns";
    if (state.status === "starting") return "The agent is starting…";
    return undefined;
  };

  return (
    <div class="session">
      <header class="session-head">
        <Show when={!share}>
          <A class="back" href="/" aria-label="All sessions">
            <ArrowLeft size={20} />
          </A>
        </Show>
        <div class="head-title">
          <h1 class="title-main">{title()}</h1>
          <div class="title-sub">
            <Show when={session()} fallback={<span>{share ? share.subtitle : "\u00a0"}</span>}>
              {(s) => (
                <>
                  <span>{s().agentLabel}</span>
                  <span class="dot-sep">·</span>
                  <span>{s().machineName}</span>
                  <span class="dot-sep sub-cwd">·</span>
                  <span class="mono sub-cwd" title={s().cwd}>
                    {shortPath(s().cwd)}
                  </span>
                </>
              )}
            </Show>
          </div>
        </div>
        <div class="head-badges">
          <Show when={state.usage && state.usage.size > 0}>
            <span class="badge usage" title={`Context: ${state.usage!.used.toLocaleString()} of ${state.usage!.size.toLocaleString()} tokens`}>
              {Math.round((state.usage!.used / state.usage!.size) * 100)}% ctx
            </span>
          </Show>
          <Suspense fallback={<HeaderButtonPlaceholder label="Search this session" icon={<SearchIcon size={18} />} />}>
            <SessionSearch sessionId={props.id} ask={search} reveal={reveal} exportable={!share} />
          </Suspense>
          <Show when={!share && state.viewer}>
            {(v) => (
              <Suspense fallback={<HeaderButtonPlaceholder label="Members" />}>
                <MembersPanel sessionId={props.id} role={v().role} selfId={v().id} />
              </Suspense>
            )}
          </Show>
          <Show when={!share && state.viewer}>
            <Suspense fallback={<HeaderButtonPlaceholder label="Session settings" />}>
            <SessionSettings
              sessionId={props.id}
              queue={state.config && canAct() ? { queueDepth: state.config.queueDepth, mergeQueued: state.config.mergeQueued } : null}
              canAct={canAct()}
              canFork={state.viewer?.role === "owner"}
              onChange={(s) => void actions.settings(s)}
            />
            </Suspense>
          </Show>
          <SessionStatusBadge state={state.status} turnActive={state.turnActive} message={state.statusMessage} />
          <ConnectionBadge state={state.connection} onRetry={() => socket.reconnect()} />
        </div>
      </header>
      <SessionGitBar session={session()} state={state} request={socket.request} />

      <Show when={notFound()}>
        <div class="banner banner-warn" data-testid="no-access-banner">
          This session does not exist or you do not have access. <A href="/">All sessions</A>
        </div>
      </Show>
      <Show when={state.status === "offline"}>
        <div class="banner banner-warn" data-testid="offline-banner">
          <CloudOff size={16} aria-hidden="true" />
          <span>
            {state.turnActive
              ? "The machine went offline. The running turn continues there; Stop and queueing still work."
              : "The machine is offline. Sending is paused until it reconnects."}
          </span>
        </div>
      </Show>
      <Show when={state.viewer?.role === "viewer"}>
        <div class="banner banner-info" data-testid="readonly-banner">
          <Eye size={16} aria-hidden="true" />
          <span>{share ? "You are watching this session through a read-only link." : "You are following this session read-only."}</span>
        </div>
      </Show>

      <main class="scroll" ref={setScroller}>
        <div ref={setContent}>
          <Transcript
            rows={state.rows}
            viewerId={state.viewer?.id}
            canAct={canAct()}
            working={state.turnActive && state.status === "active"}
            loading={!state.ready && !notFound()}
            following={follow.following()}
            hasOlder={state.ready || state.rows.length > 0 ? state.historyBefore !== null : undefined}
            loadingOlder={state.loadingOlder}
            onLoadOlder={loadOlder}
            reveal={revealed()}
            empty={needsLogin() ? "The agent could not start: it needs a login first (below)." : undefined}
            onPermission={(requestId, optionId) => void actions.respond(requestId, optionId)}
            onElicitation={async (requestId, action, content) => {
              const reply = await actions.respondElicitation(requestId, action, content);
              return reply.type === "error" ? errorText(reply) : null;
            }}
          />
          <Show when={needsLogin()}>
            <div class="auth-help-wrap">
              <AuthHelp agent={session()?.agentLabel ?? null} machine={session()?.machineName ?? null} methods={state.authMethods} />
            </div>
          </Show>
        </div>
      </main>

      <footer class="dock">
        <Show when={!follow.following()}>
          <button class="jump" onClick={() => follow.jump()} aria-label="Jump to latest">
            <ArrowDown size={16} />
          </button>
        </Show>
        <Toasts inline />
        <Show when={state.dropped.length > 0}>
          <Suspense>
            <DroppedOffer entries={state.dropped} canAct={canAct()} onRequeue={requeue} onRestore={restore} onDismiss={() => takeDropped()} />
          </Suspense>
        </Show>
        <Show when={!share && (pushMounted() || sentHere())}>
          <EnableNotificationsPrompt sentHere={sentHere()} turnActive={state.turnActive} />
        </Show>
        <Show when={state.outbox > 0 && state.connection !== "live"}>
          <div class="outbox-note" data-testid="outbox-pending">
            {state.outbox === 1 ? "1 message" : `${state.outbox} messages`} waiting for the connection — nothing is lost.
          </div>
        </Show>
        <Show when={queueShown()}>
          <Suspense>
            <QueueChips
              entries={state.queue}
              canAct={canAct()}
              steering={!!state.config?.steering && state.turnActive}
              turnActive={state.turnActive}
              queueDepth={state.config?.queueDepth ?? 1}
              steer={state.steer}
              viewerId={state.viewer?.id}
              actions={{ ...actions, takeBack }}
            />
          </Suspense>
        </Show>
        <Show
          when={!share}
          fallback={
            <p class="spectator-note" role="note">
              Read-only: you can follow this session, not send to it.
            </p>
          }
        >
          <Sender
            draft={draft()}
            onDraft={setDraft}
            turnActive={state.turnActive}
            canAct={canAct()}
            config={state.config}
            commands={state.commands}
            files={(q) => mentions.load().then((m) => m.fetchFiles(props.id, q))}
            placeholder={placeholder()}
            focusRef={(f) => (focusComposer = f)}
            onError={(m) => toast(m, "error")}
            onSend={() => {
              setSentHere(true);
              follow.jump();
              void actions.send();
            }}
            onStop={() => void actions.stop()}
            onSelect={(spec, v) => void actions.setConfig(spec, v)}
          />
        </Show>
      </footer>
    </div>
  );
}

/**
 * A header button's place while its code loads (same size: nothing moves when it arrives). Members and Settings
 * show no icon meanwhile: their icons' code then loads with their panels, off the first paint's 60 KB budget.
 */
function HeaderButtonPlaceholder(props: { label: string; icon?: JSX.Element }) {
  return (
    <div class="settings">
      <button class="icon-btn" aria-label={props.label} title={props.label} disabled>
        {props.icon}
      </button>
    </div>
  );
}
