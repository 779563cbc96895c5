import LoaderCircle from "lucide-solid/icons/loader-circle";
import Wifi from "lucide-solid/icons/wifi";
import WifiOff from "lucide-solid/icons/wifi-off";
import { Match, Switch } from "solid-js";
import type { ConnectionState } from "../connection/session-socket";
import { statusLabel } from "../lib/format";

const CONNECTION_LABEL: Record<ConnectionState, string> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  offline: "Offline",
};

export function ConnectionBadge(props: { state: ConnectionState; onRetry?: () => void }) {
  return (
    <button
      class={`badge conn conn-${props.state}`}
      data-testid="connection-state"
      data-state={props.state}
      title={props.state === "live" ? "Connected — updates are live" : "Not connected — tap to retry now"}
      onClick={() => props.state !== "live" && props.onRetry?.()}
    >
      <Switch fallback={<LoaderCircle size={13} class="spin" aria-hidden="true" />}>
        <Match when={props.state === "live"}>
          <Wifi size={13} aria-hidden="true" />
        </Match>
        <Match when={props.state === "offline"}>
          <WifiOff size={13} aria-hidden="true" />
        </Match>
      </Switch>
      <span>{CONNECTION_LABEL[props.state]}</span>
    </button>
  );
}

export function SessionStatusBadge(props: { state: string; turnActive: boolean; message?: string | null }) {
  const key = () => (props.state === "offline" && props.turnActive ? "offline" : props.state);
  const label = () => (props.state === "offline" && props.turnActive ? "Machine offline · turn running" : statusLabel(props.state));
  return (
    <span class={`badge status status-${key()}`} data-testid="session-status" data-state={props.state} title={props.message ?? label()}>
      <span class="status-dot" aria-hidden="true" />
      <span>{label()}</span>
    </span>
  );
}
