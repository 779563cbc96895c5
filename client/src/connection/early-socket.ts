/**
 * The session page's socket, dialled by the entry (main.tsx) before the session chunk and the sign-in check
 * have loaded, so the join's frames travel while they do (issue 31 #1); the session socket adopts it on its
 * first connect (`withEarlySocket`). Part of the entry: no imports beyond the socket's path.
 */
import { viewerSocketPath } from "../../../shared/viewer-socket-path";

/** A dialled socket nobody adopted (the page was left, the sign-in page showed) is closed after this long. */
export const UNADOPTED_CLOSE_MS = 30_000;

export function socketUrl(loc: Pick<Location, "protocol" | "host">, sessionId: string, cursor: number, path = viewerSocketPath(sessionId)): string {
  const scheme = loc.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${loc.host}${path}?after=${Math.max(0, Math.floor(cursor))}`;
}

/** The session a page path opens (`/s/<id>`, the router's session route), or null. */
export function sessionOfPath(path: string): string | null {
  const m = /^\/s\/([^/]+)\/?$/.exec(path);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
}

type Early = { ws: WebSocket; url: string; events: Event[]; keep: (e: Event) => void; timer: ReturnType<typeof setTimeout> };
let early: Early | null = null;

const KEPT = ["open", "message", "error", "close"] as const;

/** Dials the join of `sessionId` now (a fresh page: cursor 0), keeping what arrives until it is adopted. */
export function dialEarly(sessionId: string, Native: typeof WebSocket = WebSocket, loc: Pick<Location, "protocol" | "host"> = location): void {
  if (early) return;
  const url = socketUrl(loc, sessionId, 0);
  const ws = new Native(url);
  const events: Event[] = [];
  const keep = (e: Event) => void events.push(e);
  for (const type of KEPT) ws.addEventListener(type, keep);
  const timer = setTimeout(() => {
    if (early?.ws !== ws) return;
    early = null;
    ws.close();
  }, UNADOPTED_CLOSE_MS);
  early = { ws, url, events, keep, timer };
}

/**
 * A WebSocket class for partysocket: its first socket to the dialled URL is the early one, with what it
 * already received played again (in order, before anything newer) to the listeners added on construction.
 * A socket that closed before it was adopted is not: the connection is dialled again.
 */
export function withEarlySocket(Native: typeof WebSocket = WebSocket): typeof WebSocket {
  function Adopting(url: string | URL, protocols?: string | string[]): WebSocket {
    const e = early;
    if (!e || String(url) !== e.url || (protocols !== undefined && [protocols].flat().length > 0) || e.ws.readyState > Native.OPEN) return new Native(url, protocols);
    early = null;
    clearTimeout(e.timer);
    for (const type of KEPT) e.ws.removeEventListener(type, e.keep);
    // After the caller has added its listeners (it does so right after constructing), before any newer frame
    // (a network event is a task; this is a microtask).
    queueMicrotask(() => {
      for (const ev of e.events) e.ws.dispatchEvent(ev.type === "message" ? new MessageEvent("message", { data: (ev as MessageEvent).data }) : new Event(ev.type));
    });
    return e.ws;
  }
  return Object.assign(Adopting, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 }) as unknown as typeof WebSocket;
}

/** For tests: forgets (and closes) a dialled socket. */
export function resetEarlySocket(): void {
  if (!early) return;
  clearTimeout(early.timer);
  early.ws.close();
  early = null;
}
