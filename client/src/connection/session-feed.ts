/**
 * The session list's live feed: one partysocket per list page to the user's SessionFeed (issue 26), with
 * the viewer socket's fast jittered backoff, a ping/pong liveness probe and an immediate reconnect on
 * visibility / pageshow / online. Each `hello` (first connect and every reconnect) tells the list to ask
 * for its first page again: changes made while the socket was away are in it. Frames are checked with
 * the shared schema, loaded on demand (zod stays off the home page's first paint); order is kept.
 */
import { WebSocket as ReconnectingWebSocket } from "partysocket";
import type { SessionFeedFrame } from "../../../shared/session-list";
import { SESSION_FEED_PATH } from "../../../shared/session-list-rules";
import { makeBackoff } from "./backoff";
import { keepAlive } from "./liveness";

export type FeedState = "connecting" | "live" | "reconnecting" | "offline";


export function feedUrl(loc: Pick<Location, "protocol" | "host">): string {
  return `${loc.protocol === "https:" ? "wss" : "ws"}://${loc.host}${SESSION_FEED_PATH}`;
}

type FrameCheck = { parseFrame: (text: string) => SessionFeedFrame | null };

/**
 * The feed's text frames → checked frames, in arrival order: each waits for the one before it (and, once,
 * for the check to load). A frame that is not one is dropped (the check logs it).
 */
/** Whether a feed frame is the `hello` (read without the schemas: its type is all the list uses of it). */
export function isHello(text: string): boolean {
  try {
    const f: unknown = JSON.parse(text);
    return typeof f === "object" && f !== null && "type" in f && f.type === "hello";
  } catch {
    return false;
  }
}

export function makeFrameHandler(h: {
  loadCheck: () => Promise<FrameCheck>;
  onHello: () => void;
  onFrame: (f: SessionFeedFrame) => void;
  onCheckFailed: () => void;
  isClosed: () => boolean;
}): (text: string) => void {
  let chain: Promise<void> = Promise.resolve();
  return (text) => {
    // `hello` carries nothing the list reads but its type: it needs no schema, so the first page is asked for
    // without waiting for zod (the home page paints without it; issue 20).
    if (isHello(text)) {
      chain = chain.then(() => {
        if (!h.isClosed()) h.onHello();
      });
      return;
    }
    chain = chain
      .then(() => h.loadCheck())
      .then(({ parseFrame }) => {
        const f = parseFrame(text);
        if (!f || h.isClosed()) return;
        if (f.type === "hello") h.onHello();
        else h.onFrame(f);
      })
      .catch(() => {
        if (!h.isClosed()) h.onCheckFailed();
      });
  };
}

export type SessionFeedOptions = {
  /** Every frame but `hello`, checked, in the order sent. */
  onFrame: (f: SessionFeedFrame) => void;
  /** The feed is subscribed (first connect or a reconnect): the first page is asked for now. */
  onHello: () => void;
  onState: (s: FeedState) => void;
  /** The frame check (defaults to the on-demand module). */
  loadCheck?: () => Promise<FrameCheck>;
  url?: () => string;
};

export function makeSessionFeed(opts: SessionFeedOptions) {
  const loadCheck = opts.loadCheck ?? (() => import("../session/list-check"));
  let state: FeedState = "connecting";
  let everLive = false;
  const setState = (s: FeedState) => {
    if (s !== state) opts.onState((state = s));
  };
  // The backoff is ours (backoff.ts: cut short when the network returns); partysocket dials once it has the URL.
  const backoff = makeBackoff();
  const url = opts.url ?? (() => feedUrl(location));
  const ws = new ReconnectingWebSocket(() => backoff.wait().then(url), [], { minReconnectionDelay: 0, connectionTimeout: 8_000, minUptime: 3_000, maxEnqueuedMessages: 0 });

  let closed = false;
  const handle = makeFrameHandler({
    loadCheck,
    onHello: () => {
      everLive = true;
      backoff.reset();
      setState("live");
      opts.onHello();
    },
    onFrame: opts.onFrame,
    // The check could not load (offline, a chunk replaced by a deploy): reconnect, and the hello refetches.
    onCheckFailed: () => ws.reconnect(),
    isClosed: () => closed,
  });

  ws.addEventListener("message", (e: MessageEvent) => {
    if (typeof e.data !== "string" || e.data === "pong") return;
    handle(e.data);
  });
  ws.addEventListener("close", () => {
    if (!closed) setState(navigator.onLine === false ? "offline" : everLive ? "reconnecting" : "connecting");
  });
  const liveness = keepAlive(ws, backoff, { offline: () => setState("offline") });

  return {
    close(): void {
      closed = true;
      liveness.stop();
      ws.close();
    },
  };
}
export type SessionFeed = ReturnType<typeof makeSessionFeed>;
