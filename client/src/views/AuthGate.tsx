import { createResource, type JSX, Match, onCleanup, onMount, Switch } from "solid-js";
import { api, ApiError, setUnauthorizedHandler } from "../lib/api";
import { AuthContext } from "../lib/auth";
import { lazyChunk } from "../lib/load-chunk";

/** Only a signed-out visitor sees it: loaded then, not on every page. */
const SignIn = lazyChunk(() => import("./SignIn").then((m) => ({ default: m.SignIn })));

/** Renders the app for a signed-in user; otherwise the sign-in page (builtin) or what to do instead. */
export function AuthGate(props: { children: JSX.Element }) {
  const [me, { refetch }] = createResource(async () => {
    try {
      return { me: await api.me() };
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return { signedOut: true as const, config: await api.authConfig().catch(() => ({ mode: null })) };
      // No network (the installed app opened offline from the service worker's cached shell).
      if (err instanceof ApiError && err.code === "NETWORK") return { offline: true as const };
      return { error: (err as Error).message };
    }
  });
  setUnauthorizedHandler(() => void refetch());
  onCleanup(() => setUnauthorizedHandler(null));
  // Back online: try again without a tap.
  onMount(() => {
    const retry = () => {
      if (me() && "offline" in me()!) void refetch();
    };
    addEventListener("online", retry);
    onCleanup(() => removeEventListener("online", retry));
  });
  return (
    <Switch fallback={<div class="gate-loading" aria-busy="true" />}>
      <Match when={me()?.me}>{(m) => <AuthContext.Provider value={{ me: m(), refresh: () => void refetch() }}>{props.children}</AuthContext.Provider>}</Match>
      <Match when={me() && "signedOut" in me()! && me()}>
        {(s) => {
          const mode = () => ("config" in s() ? (s() as { config: { mode: string | null } }).config.mode : null);
          return (
            <Switch fallback={<GateMessage title="Sign-in is not configured">This server has no sign-in method (AUTH_MODE). Ask whoever deployed Baton.</GateMessage>}>
              <Match when={mode() === "builtin"}>
                <SignIn onSignedIn={() => void refetch()} />
              </Match>
              <Match when={mode() === "access"}>
                <GateMessage title="Your Access session has ended">
                  Baton is behind Cloudflare Access. <a href="/">Reload</a> to sign in again.
                </GateMessage>
              </Match>
              <Match when={mode() === "dev"}>
                <GateMessage title="Local development server">This server runs in local development mode and only answers on localhost.</GateMessage>
              </Match>
            </Switch>
          );
        }}
      </Match>
      <Match when={me() && "offline" in me()!}>
        <GateMessage title="You're offline">
          Baton needs a connection to reach your sessions; it tries again when this device is back online.{" "}
          <button class="link-btn" data-testid="offline-retry" onClick={() => void refetch()}>
            Retry now
          </button>
        </GateMessage>
      </Match>
      <Match when={me() && "error" in me()! && me()}>
        {(e) => (
          <GateMessage title="Cannot reach Baton">
            {(e() as { error: string }).error} <a href="/">Retry</a>
          </GateMessage>
        )}
      </Match>
    </Switch>
  );
}

function GateMessage(props: { title: string; children: JSX.Element }) {
  return (
    <div class="auth-page">
      <div class="auth-card" role="status">
        <div class="brand-mark" aria-hidden="true">
          B
        </div>
        <h1>{props.title}</h1>
        <p class="auth-help">{props.children}</p>
      </div>
    </div>
  );
}
