/**
 * A spectator's page (issue 30 #3): `/share#<token>` — no sign-in needed for an "anyone" link. It asks the
 * Worker what the link shows (or why it does not open), then follows the session live over the spectator
 * socket: transcript, queue chips, status. There is no composer: the room refuses every op that acts on the
 * session for a spectator; the page only says so. A revoked or expired link closes the socket
 * (CLOSE_SHARE_ENDED) and the page says why.
 */
import ArrowDown from "lucide-solid/icons/arrow-down";
import Eye from "lucide-solid/icons/eye";
import { createEffect, createResource, createSignal, type JSX, onCleanup, Show } from "solid-js";
import type { OpenedShare } from "../../../shared/share-api";
import { SHARE_PROTOCOL, SHARE_SOCKET_PATH } from "../../../shared/share-socket";
import { ApiError, shareApi } from "../lib/api";
import { warmMarkdown } from "../lib/create-markdown";
import { createFollow } from "../session/create-follow";
import { createSessionStore } from "../session/create-session-store";
import { expiryLabel, refusalHeading } from "../session/share-logic";
import type { QueueActions } from "./QueueChip";
import { QueueChips } from "./QueueChips";
import { ConnectionBadge, SessionStatusBadge } from "./StatusBadges";
import { Transcript } from "./Transcript";
import "../share.css";

/** How long a (re)connect may fail before we ask the Worker whether the link still opens. */
const LINK_RECHECK_MS = 3_000;

type Refusal = { code: string; message: string };
const refusalOf = (err: unknown): Refusal =>
  err instanceof ApiError ? { code: err.code, message: err.message } : { code: "UNKNOWN", message: "The link could not be opened. Try again later." };

/** A spectator never acts; the chips show without controls (canAct false) and these are never reached. */
const NO_ACTIONS: QueueActions = {
  cancel: () => undefined,
  takeBack: () => undefined,
  steer: () => undefined,
  move: () => undefined,
  edit: async () => true,
  editLost: () => undefined,
  retry: () => undefined,
};

export function SharedSession(): JSX.Element {
  const token = decodeURIComponent(location.hash.slice(1));
  const [refused, setRefused] = createSignal<Refusal | null>(token ? null : { code: "SHARE_NOT_FOUND", message: "This address has no share link in it. Open the full link you were sent." });
  const [opened] = createResource(
    () => (token ? token : null),
    (t) => shareApi.open(t).catch((err: unknown) => (setRefused(refusalOf(err)), null)),
  );
  /** Asks again why the link stopped (revoked, expired, deleted) — the page then says so. */
  const recheck = () =>
    void shareApi.open(token).then(
      () => undefined,
      (err: unknown) => setRefused(refusalOf(err)),
    );
  return (
    <Show when={!refused()} fallback={<RefusedPage refusal={refused()!} />}>
      <Show when={opened()} fallback={<p class="share-loading">Opening the link…</p>}>
        {(o) => <Spectate opened={o()} token={token} recheck={recheck} />}
      </Show>
    </Show>
  );
}

function RefusedPage(props: { refusal: Refusal }) {
  createEffect(() => (document.title = `${refusalHeading(props.refusal.code)} — Baton`));
  return (
    <main class="share-refused" data-testid="share-refused">
      <h1>{refusalHeading(props.refusal.code)}</h1>
      <p>{props.refusal.message}</p>
      <Show when={props.refusal.code === "SHARE_SIGN_IN_REQUIRED"}>
        <p>
          <a class="btn btn-primary" href="/">
            Sign in
          </a>
        </p>
      </Show>
    </main>
  );
}

function Spectate(props: { opened: OpenedShare; token: string; recheck: () => void }) {
  warmMarkdown();
  const { state, loadOlder, socket } = createSessionStore(props.opened.sessionId, {
    route: { path: SHARE_SOCKET_PATH, protocols: [SHARE_PROTOCOL, props.token] },
    onShareEnded: props.recheck,
    onDeleted: props.recheck,
  });
  // A link revoked while this page was away shows as a socket that cannot connect: ask the Worker why.
  createEffect(() => {
    if (state.connection === "live") return;
    const t = setTimeout(props.recheck, LINK_RECHECK_MS);
    onCleanup(() => clearTimeout(t));
  });
  const [scroller, setScroller] = createSignal<HTMLElement>();
  const [content, setContent] = createSignal<HTMLElement>();
  const follow = createFollow(scroller, content);
  const title = () => state.title ?? props.opened.title;
  createEffect(() => (document.title = `${state.turnActive ? "● " : ""}${title()} — Baton`));
  onCleanup(() => (document.title = "Baton"));

  return (
    <div class="session spectator">
      <header class="session-head">
        <div class="head-title">
          <h1 class="title-main">{title()}</h1>
          <div class="title-sub">
            <span>Read-only link</span>
            <span class="dot-sep">·</span>
            <span>{expiryLabel(props.opened.expiresAt, Date.now())}</span>
          </div>
        </div>
        <div class="head-badges">
          <SessionStatusBadge state={state.status} turnActive={state.turnActive} message={state.statusMessage} />
          <ConnectionBadge state={state.connection} onRetry={() => socket.reconnect()} />
        </div>
      </header>
      <div class="banner banner-info" data-testid="spectator-banner">
        <Eye size={16} aria-hidden="true" />
        <span>You are watching this session through a read-only link.</span>
      </div>
      <main class="scroll" ref={setScroller}>
        <div ref={setContent}>
          <Transcript
            rows={state.rows}
            viewerId={state.viewer?.id}
            canAct={false}
            working={state.turnActive && state.status === "active"}
            loading={!state.ready}
            following={follow.following()}
            hasOlder={state.ready || state.rows.length > 0 ? state.historyBefore !== null : undefined}
            loadingOlder={state.loadingOlder}
            onLoadOlder={loadOlder}
            onPermission={() => undefined}
          />
        </div>
      </main>
      <footer class="dock">
        <Show when={!follow.following()}>
          <button class="jump" onClick={() => follow.jump()} aria-label="Jump to latest">
            <ArrowDown size={16} />
          </button>
        </Show>
        <QueueChips
          entries={state.queue}
          canAct={false}
          steering={false}
          turnActive={state.turnActive}
          queueDepth={state.config?.queueDepth ?? 1}
          steer={state.steer}
          viewerId={state.viewer?.id}
          actions={NO_ACTIONS}
        />
        <p class="spectator-note" role="note">
          Read-only: you can follow this session, not send to it.
        </p>
      </footer>
    </div>
  );
}
