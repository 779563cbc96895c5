/**
 * A real Web Push service on a loopback port, for tests: the `web-push-testing` package (subscriptions
 * with keys it holds, RFC 8291 decryption, VAPID checks against the subscription's applicationServerKey,
 * 410 once a subscription is expired). Its HTTP API: POST /subscribe, /notify/:clientHash,
 * /expire-subscription/:clientHash, /get-notifications.
 */
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

type ServerCtor = new (model: unknown, port: number) => {
  _app: { listen(port: number, host: string, cb: () => void): import("node:http").Server };
  setRequestHandlers(): void;
};

export type PushService = { origin: string; stop(): Promise<void> };

export async function startPushService(): Promise<PushService> {
  const { PushApiModel } = require("web-push-testing/src/PushApiModel.js") as { PushApiModel: new () => { notifyUrl: string } };
  const WebPushTestingServer = require("web-push-testing/src/server.js") as ServerCtor;
  const model = new PushApiModel();
  // Its own startServer() listens on every interface; tests keep servers on loopback.
  const server = new WebPushTestingServer(model, 0);
  server.setRequestHandlers();
  const http = await new Promise<import("node:http").Server>((resolve) => {
    const s = server._app.listen(0, "127.0.0.1", () => resolve(s));
  });
  // Tests end with the vitest process; a live listener must not keep it running.
  http.unref();
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  model.notifyUrl = `${origin}/notify/`;
  return {
    origin,
    stop: () => new Promise((r) => http.close(() => r())),
  };
}
