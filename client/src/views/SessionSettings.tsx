import SlidersHorizontal from "lucide-solid/icons/sliders-horizontal";
import { For, Show, Suspense } from "solid-js";
import { MAX_QUEUE_DEPTH } from "../../../shared/limits";
import { PopoverButton } from "./PopoverButton";
import { lazyChunk } from "../lib/load-chunk";

/** The push client (and zod with it) loads with this view, not with the first paint. */
const NotificationSettings = lazyChunk(() => import("./NotificationSettings").then((m) => ({ default: m.NotificationSettings })));
/** Fork (issue 26) loads with the open panel too: rare, and the session page's initial JS is near its budget. */
const ForkButton = lazyChunk(() => import("./ForkButton").then((m) => ({ default: m.ForkButton })));

type Props = {
  sessionId: string;
  /** The session's queue settings; null: not known yet, or this viewer cannot change them (no Queue section). */
  queue: { queueDepth: number; mergeQueued: boolean } | null;
  canAct: boolean;
  /** The owner may fork the session (the server says why when the agent or the machine cannot). */
  canFork?: boolean;
  onChange: (s: { queueDepth?: number; mergeQueued?: boolean }) => void;
};

/** Session-wide queue settings (depth, merge) and this session's notifications, in a small popover from the header. */
export function SessionSettings(props: Props) {
  return (
    <PopoverButton label="Session settings" testId="settings" icon={<SlidersHorizontal size={18} />}>
      <Show when={props.queue}>
        {(q) => (
          <div class="settings-section">
            <div class="settings-title">Queue</div>
            <label class="settings-row">
              <span>
                <span class="settings-name">Depth</span>
                <span class="settings-help">Messages that can wait while a turn runs</span>
              </span>
              <select
                data-testid="queue-depth"
                value={String(q().queueDepth)}
                disabled={!props.canAct}
                onChange={(e) => props.onChange({ queueDepth: Number(e.currentTarget.value) })}
              >
                <For each={Array.from({ length: MAX_QUEUE_DEPTH }, (_, i) => i + 1)}>
                  {(n) => (
                    <option value={n} selected={n === q().queueDepth}>
                      {n}
                    </option>
                  )}
                </For>
              </select>
            </label>
            <label class="settings-row">
              <span>
                <span class="settings-name">Merge queued</span>
                <span class="settings-help">Send everything queued as one turn</span>
              </span>
              <input
                type="checkbox"
                class="switch"
                data-testid="merge-queued"
                checked={q().mergeQueued}
                disabled={!props.canAct}
                onChange={(e) => props.onChange({ mergeQueued: e.currentTarget.checked })}
              />
            </label>
          </div>
        )}
      </Show>
      <Show when={props.canFork}>
        <div class="settings-section" data-testid="fork-section">
          <div class="settings-title">Fork</div>
          <div class="settings-row">
            <span class="settings-help">A new session with this history; this one stays as it is</span>
            <Suspense>
              <ForkButton sessionId={props.sessionId} />
            </Suspense>
          </div>
        </div>
      </Show>
      {/* Boundaries of their own: a lazy part loading must not suspend the header (that would take the open panel out of the page, which closes it). */}
      <Suspense>
        <NotificationSettings sessionId={props.sessionId} />
      </Suspense>
    </PopoverButton>
  );
}
