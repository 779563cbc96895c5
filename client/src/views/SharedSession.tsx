/**
 * A spectator's page (issue 30 #3): `/share#<token>` — outside the sign-in gate (an "anyone" link needs no
 * account). It asks the Worker what the link shows, or why it does not open, and says so; an open link
 * shows the session page in share mode (`SpectatorView` in views/SessionView.tsx — loaded only then, so a
 * refused link costs this small chunk): live transcript, queue chips, status, no composer. A revoked or
 * expired link closes the socket (CLOSE_SHARE_ENDED) and this page asks again why.
 */
import { Route, Router } from "@solidjs/router";
import { createEffect, createResource, createSignal, type JSX, Show } from "solid-js";
import { ApiError } from "../lib/api";
import { shareApi } from "../lib/share-http";
import { expiryLabel, refusalHeading } from "../session/share-logic";
import "../share.css";
import { lazyChunk } from "../lib/load-chunk";

const SpectatorView = lazyChunk(() => import("./SessionView").then((m) => ({ default: m.SpectatorView })));

type Refusal = { code: string; message: string };
const refusalOf = (err: unknown): Refusal =>
  err instanceof ApiError ? { code: err.code, message: err.message } : { code: "UNKNOWN", message: "The link could not be opened. Try again later." };

export function SharedSession(): JSX.Element {
  const token = decodeURIComponent(location.hash.slice(1));
  const [refused, setRefused] = createSignal<Refusal | null>(
    token ? null : { code: "SHARE_NOT_FOUND", message: "This address has no share link in it. Open the full link you were sent." },
  );
  const [opened] = createResource(
    () => (token ? token : null),
    (t) =>
      shareApi.open(t).catch((err: unknown) => {
        setRefused(refusalOf(err));
        return null;
      }),
  );
  /** Asks again whether the link opens (after a close or failing reconnects); a refusal replaces the view. */
  const recheck = () => void shareApi.open(token).then(() => undefined, (err: unknown) => setRefused(refusalOf(err)));
  const live = () => {
    const o = opened();
    return o ? <SpectatorView opened={o} token={token} subtitle={`Read-only link · ${expiryLabel(o.expiresAt, Date.now())}`} recheck={recheck} /> : null;
  };
  return (
    <Show when={!refused()} fallback={<RefusedPage refusal={refused()!} />}>
      <Show when={opened()} fallback={<p class="share-loading">Opening the link…</p>}>
        {/* The session page reads the router (links, navigation); a spectator's stays on this one page. */}
        <Router>
          <Route path="*" component={live} />
        </Router>
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
