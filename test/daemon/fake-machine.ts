/** Plays the Machine DO side of the tunnel in tests: a real `ws` server recording frames per connection. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import { DaemonFrame } from "../../shared/tunnel-protocol";

export type Conn = { ws: WebSocket; frames: DaemonFrame[]; headers: http.IncomingHttpHeaders; url: string; messages: number };

/** The test decides welcome / acks / kills; `status` makes every upgrade fail with that HTTP status. */
export async function machineServer(opts: { status?: number; port?: number; autoPong?: boolean } = {}) {
  const server = http.createServer();
  const wss = new WebSocketServer({ noServer: true, autoPong: opts.autoPong ?? true });
  const conns: Conn[] = [];
  let upgrades = 0;
  const waiters: (() => void)[] = [];
  const poke = () => waiters.splice(0).forEach((w) => w());
  server.on("upgrade", (req, socket, head) => {
    upgrades++;
    if (opts.status) {
      socket.end(`HTTP/1.1 ${opts.status} Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      poke();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const c: Conn = { ws, frames: [], headers: req.headers, url: req.url ?? "", messages: 0 };
      conns.push(c);
      ws.on("message", (d) => {
        c.messages++;
        const f = DaemonFrame.parse(JSON.parse(String(d)));
        // A batch is numbered events in one message; record them as the Machine DO takes them.
        if (f.type === "batch") for (const e of f.events) c.frames.push({ type: "event", ...e });
        else c.frames.push(f);
        poke();
      });
      poke();
    });
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    conns,
    get upgrades() {
      return upgrades;
    },
    async until(pred: () => boolean, ms = 4000) {
      const end = Date.now() + ms;
      while (!pred()) {
        if (Date.now() > end) throw new Error("timed out");
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
    },
    async close() {
      for (const c of conns) c.ws.terminate();
      wss.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export type MachineServer = Awaited<ReturnType<typeof machineServer>>;

/**
 * machineServer whose servers close after the test that made them (an afterEach; after hooks run in reverse,
 * so register this before a hook that stops a client of them).
 */
export function useMachineServers(): typeof machineServer {
  const made: MachineServer[] = [];
  afterEach(async () => {
    for (const s of made.splice(0)) await s.close();
  });
  return async (opts) => {
    const s = await machineServer(opts);
    made.push(s);
    return s;
  };
}
export const eventNs = (c: Conn) => c.frames.flatMap((f) => (f.type === "event" ? [f.n] : []));
export const sendFrame = (ws: WebSocket, frame: unknown) => ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
