import LogOut from "lucide-solid/icons/log-out";
import { createSignal, Show, Suspense } from "solid-js";
import { whenIdle } from "../lib/idle";
import { signOut, useMe } from "../lib/auth";
import { toast } from "../lib/toasts";
import { lazyChunk } from "../lib/load-chunk";

/** The push client (and zod with it) loads with this view, not with the first paint. */
const NotificationsMenu = lazyChunk(() => import("./NotificationsMenu").then((m) => ({ default: m.NotificationsMenu })));

/** The signed-in user's notifications and chip with sign-out (none in local dev mode: there is no one to sign out). */
export function UserMenu() {
  // The bell (and the push client with zod) loads at idle, after the page has painted.
  const [menuReady, setMenuReady] = createSignal(false);
  whenIdle(() => setMenuReady(true));
  const me = useMe();
  return (
    <Show when={me}>
      {(m) => (
        <span class="user-menu">
          {/* The bell's place is kept while its code loads: on a phone the header would otherwise grow when it arrives. */}
          <Suspense fallback={<span class="icon-slot" aria-hidden="true" />}>
            <Show when={menuReady()} fallback={<span class="icon-slot" aria-hidden="true" />}>
              <NotificationsMenu />
            </Show>
          </Suspense>
          <span class="me" title={m().email} data-testid="me">
            {m().name}
          </span>
          <Show when={m().authMode && m().authMode !== "dev"}>
            <button
              class="icon-btn"
              aria-label="Sign out"
              title="Sign out"
              data-testid="signout"
              onClick={() => void signOut(m()).catch(() => toast("Could not sign out — try again", "error"))}
            >
              <LogOut size={18} />
            </button>
          </Show>
        </span>
      )}
    </Show>
  );
}
