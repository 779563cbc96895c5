import { Route, Router } from "@solidjs/router";
import { ErrorBoundary } from "solid-js";
import { render } from "solid-js/web";
import { registerServiceWorker } from "./push/register-sw";
import "./styles.css";
import { AuthGate } from "./views/AuthGate";
import { MachineApprove } from "./views/MachineApprove";
import { Machines } from "./views/Machines";
import { SessionList } from "./views/SessionList";
import { SessionView } from "./views/SessionView";
import { Toasts } from "./views/Toasts";

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
      <AuthGate>
        <Router>
          <Route path="/" component={SessionList} />
          <Route path="/machines" component={Machines} />
          <Route path="/machines/approve" component={MachineApprove} />
          <Route path="/s/:id" component={SessionView} />
          <Route path="*" component={SessionList} />
        </Router>
      </AuthGate>
      <Toasts />
    </ErrorBoundary>
  ),
  document.getElementById("root")!,
);
registerServiceWorker();
