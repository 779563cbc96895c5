/**
 * Keeping a reconnecting socket honest, the same for the session page's viewer socket and the list's feed:
 * a ping every VIEWER_PING_EVERY_MS, and no frame within PONG_MS after it means the socket is dead (a phone
 * woke with it) — reconnect. Back on the page (visible, pageshow): probe an open socket at once, dial a closed
 * one now. The network back (`online`): dial now, the backoff's wait cut short.
 */
import type { WebSocket as ReconnectingWebSocket } from "partysocket";
import { VIEWER_PING_EVERY_MS } from "../../../shared/limits";

/** No frame within PONG_MS after a ping means the socket is dead. */
const PONG_MS = 6_000;
/** Back on the page with an open socket: the person is looking, so a dead one is found sooner. */
const RETURN_PONG_MS = 3_000;
const WS_OPEN = 1;

export type LivenessHooks = {
  /** Before the socket dials again after `online` (e.g. show "reconnecting"). */
  online?: () => void;
  offline: () => void;
};

/** Starts the probe and the page / network listeners on `ws`; `stop()` removes them all. */
export function keepAlive(ws: ReconnectingWebSocket, backoff: { wakeNow(): void }, hooks: LivenessHooks): { stop(): void } {
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  let pongTimer: ReturnType<typeof setTimeout> | undefined;
  const probe = (ms: number) => {
    if (ws.readyState !== WS_OPEN || pongTimer) return;
    ws.send("ping");
    pongTimer = setTimeout(() => {
      pongTimer = undefined;
      ws.reconnect();
    }, ms);
  };
  const heard = () => {
    clearTimeout(pongTimer);
    pongTimer = undefined;
  };
  const onOpen = () => {
    clearInterval(pingTimer);
    pingTimer = setInterval(() => probe(PONG_MS), VIEWER_PING_EVERY_MS);
  };
  const onClose = () => {
    clearInterval(pingTimer);
    heard();
  };
  const dialNow = () => {
    backoff.wakeNow();
    ws.reconnect();
  };
  const onReturn = () => (ws.readyState === WS_OPEN ? probe(RETURN_PONG_MS) : dialNow());
  const onVisible = () => {
    if (document.visibilityState === "visible") onReturn();
  };
  const onOnline = () => {
    // A network change usually leaves the old socket dead: do not wait for a probe.
    hooks.online?.();
    dialNow();
  };
  const onOffline = () => hooks.offline();

  const listening: [EventTarget, string, () => void][] = [
    [ws, "message", heard],
    [ws, "open", onOpen],
    [ws, "close", onClose],
    [document, "visibilitychange", onVisible],
    [window, "pageshow", onReturn],
    [window, "online", onOnline],
    [window, "offline", onOffline],
  ];
  for (const [target, type, fn] of listening) target.addEventListener(type, fn);
  return {
    stop(): void {
      for (const [target, type, fn] of listening) target.removeEventListener(type, fn);
      onClose();
    },
  };
}
