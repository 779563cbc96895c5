// First: zod (loaded later by some chunks) must never probe for eval under the CSP.
import "./lib/zod-jitless";
// Then: a session page's socket, so the join's frames arrive while the session chunk and the sign-in check load.
import "./connection/dial-early";
import { Route, Router } from "@solidjs/router";
import { ErrorBoundary, Show } from "solid-js";
import { render } from "solid-js/web";
import { registerServiceWorker } from "./push/register-sw";
import "./styles.css";
import { whenIdle } from "./lib/idle";
import { AuthGate } from "./views/AuthGate";
import { Toasts } from "./views/Toasts";
import { SHARE_PAGE_PATH } from "../../shared/share-socket";
import { lazyChunk } from "./lib/load-chunk";

// Each page is its own chunk (issue 20: a phone loads what the first paint needs, not the whole app).
const SessionList = lazyChunk(() => import("./views/SessionList").then((m) => ({ default: m.SessionList })));
const Machines = lazyChunk(() => import("./views/Machines").then((m) => ({ default: m.Machines })));
const MachineApprove = lazyChunk(() => import("./views/MachineApprove").then((m) => ({ default: m.MachineApprove })));
const SessionView = lazyChunk(() => import("./views/SessionView").then((m) => ({ default: m.SessionView })));
const SharedSession = lazyChunk(() => import("./views/SharedSession").then((m) => ({ default: m.SharedSession })));

/** The chunk of the page at `path` (the routes below). */
function pageAt(path: string) {
  if (path === SHARE_PAGE_PATH) return SharedSession;
  if (path.startsWith("/s/")) return SessionView;
  if (path === "/machines/approve") return MachineApprove;
  if (path === "/machines") return Machines;
  return SessionList;
}

// Fetch the opened page's chunk now, alongside the sign-in check rather than after it; a session is
// the likely next page from anywhere else, so its chunk follows once the first page has painted.
void pageAt(location.pathname).preload();
if (location.pathname !== SHARE_PAGE_PATH) whenIdle(() => void SessionView.preload());

function Crash(props: { error: unknown; reset: () => void }) {
  return (
    <div class="crash">
      <h1>Something went wrong</h1>
      <p class="mono">{String((props.error as Error)?.message ?? props.error)}</p>
      <button class="btn btn-primary" onClick={() => location.reload()}>
        Reload
      </button>
    </div>
  );
}

render(
  () => (
    <ErrorBoundary fallback={(error, reset) => <Crash error={error} reset={reset} />}>
      {/* A share link's page: a spectator may have no account here, so it is outside the sign-in gate. */}
      <Show when={location.pathname !== SHARE_PAGE_PATH} fallback={<SharedSession />}>
        <AuthGate>
          <Router>
            <Route path="/" component={SessionList} />
            <Route path="/machines" component={Machines} />
            <Route path="/machines/approve" component={MachineApprove} />
            <Route path="/s/:id" component={SessionView} />
            <Route path="*" component={SessionList} />
          </Router>
        </AuthGate>
      </Show>
      <Toasts />
    </ErrorBoundary>
  ),
  document.getElementById("root")!,
);
registerServiceWorker();
