/**
 * A fake model API on 127.0.0.1 (random port) for running real agents offline: Anthropic Messages
 * (`POST /v1/messages`, `/v1/messages/count_tokens`), OpenAI Responses (`POST /v1/responses`) and Chat
 * Completions (`POST /v1/chat/completions`, `GET /v1/models`), streamed as SSE. What it answers is in
 * script.ts; every request is recorded so a test can assert what the next model request carried.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicJson, anthropicStream, chatJson, chatStream, responsesJson, responsesStream, type Step } from "./encoders";
import { decide, viewRequest, type Api, type Reply, type RequestView } from "./script";

export type RecordedRequest = {
  seq: number;
  method: string;
  path: string;
  at: number;
  headers: Record<string, string>;
  body: unknown;
  /** Set for model calls (not count_tokens / models). */
  view: RequestView | null;
  reply: Reply | null;
  /** The client went away before the stream ended (a cancel or a steer). */
  aborted: boolean;
};

export type FakeModel = {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Model calls only, in order. */
  modelCalls(): RecordedRequest[];
  /** Resolves with the first request (at index ≥ from) matching pred, past or future. */
  waitFor(pred: (r: RecordedRequest) => boolean, timeoutMs?: number, from?: number): Promise<RecordedRequest>;
  close(): Promise<void>;
};

const MODELS = ["fake-model", "fake-model-large", "gpt-5.5", "gpt-5.5-mini", "claude-sonnet-4-5", "claude-opus-4-5", "claude-haiku-4-5"];

function routeApi(method: string, path: string): Api | "count_tokens" | "models" | null {
  if (method === "POST" && path.endsWith("/messages/count_tokens")) return "count_tokens";
  if (method === "POST" && path.endsWith("/messages")) return "anthropic";
  if (method === "POST" && path.endsWith("/responses")) return "responses";
  if (method === "POST" && path.endsWith("/chat/completions")) return "chat";
  if (method === "GET" && /\/models\/?$/.test(path)) return "models";
  return null;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function streamSteps(req: http.IncomingMessage, res: http.ServerResponse, steps: Step[], rec: RecordedRequest): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  let gone = false;
  res.on("close", () => {
    if (!res.writableFinished) gone = true;
  });
  req.on("aborted", () => (gone = true));
  for (const s of steps) {
    if (gone) break;
    if ("pauseMs" in s) await sleep(s.pauseMs);
    else res.write(s.sse);
  }
  if (gone) rec.aborted = true;
  else res.end();
}

export async function startFakeModel(): Promise<FakeModel> {
  const requests: RecordedRequest[] = [];
  let waiters: { pred: (r: RecordedRequest) => boolean; resolve(r: RecordedRequest): void }[] = [];
  // Debugging an agent's requests: FAKE_MODEL_DUMP=<dir> writes each one there as JSON.
  const dump = process.env.FAKE_MODEL_DUMP;
  const record = (r: RecordedRequest) => {
    requests.push(r);
    if (dump) {
      fs.mkdirSync(dump, { recursive: true });
      fs.writeFileSync(`${dump}/${String(r.seq).padStart(3, "0")}.json`, JSON.stringify(r, null, 1));
    }
    waiters = waiters.filter((w) => (w.pred(r) ? (w.resolve(r), false) : true));
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? "/").split("?")[0]!;
      const method = req.method ?? "GET";
      const raw = method === "GET" ? "" : await readBody(req);
      let body: unknown = null;
      try {
        body = raw ? (JSON.parse(raw) as unknown) : null;
      } catch {
        body = raw;
      }
      const headers: Record<string, string> = {};
      for (const k of ["user-agent", "anthropic-version", "anthropic-beta", "x-app", "originator", "openai-beta", "session_id", "conversation_id"]) {
        const v = req.headers[k];
        if (typeof v === "string") headers[k] = v;
      }
      const rec: RecordedRequest = { seq: requests.length, method, path, at: Date.now(), headers, body, view: null, reply: null, aborted: false };
      const route = routeApi(method, path);
      if (route === null) {
        record(rec);
        return json(res, 404, { error: { type: "not_found_error", message: `fake model: no route for ${method} ${path}` } });
      }
      if (route === "count_tokens") {
        record(rec);
        return json(res, 200, { input_tokens: Math.max(1, Math.ceil(raw.length / 4)) });
      }
      if (route === "models") {
        record(rec);
        const created = Math.floor(Date.now() / 1000);
        return json(res, 200, {
          object: "list",
          data: MODELS.map((id) => ({ id, object: "model", type: "model", display_name: id, created, created_at: new Date().toISOString(), owned_by: "baton-fake" })),
          has_more: false,
          first_id: MODELS[0],
          last_id: MODELS[MODELS.length - 1],
        });
      }
      const view = viewRequest(route, body);
      const reply = decide(view);
      rec.view = view;
      rec.reply = reply;
      record(rec);
      const model = view.model || "fake-model";
      switch (route) {
        case "anthropic":
          return view.stream ? streamSteps(req, res, anthropicStream(reply, model), rec) : json(res, 200, anthropicJson(reply, model));
        case "responses":
          // Codex always streams; a non-streaming caller gets the whole response.
          return (body as { stream?: unknown } | null)?.stream === false ? json(res, 200, responsesJson(reply, model)) : streamSteps(req, res, responsesStream(reply, model), rec);
        case "chat": {
          const so = (body as { stream_options?: { include_usage?: unknown } } | null)?.stream_options;
          return view.stream ? streamSteps(req, res, chatStream(reply, model, so?.include_usage === true), rec) : json(res, 200, chatJson(reply, model));
        }
      }
    })().catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, { error: { type: "api_error", message: String(err) } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    modelCalls: () => requests.filter((r) => r.view !== null),
    waitFor(pred, timeoutMs = 30_000, from = 0) {
      const hit = requests.slice(from).find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`fake model: no matching request in ${timeoutMs} ms; seen: ${requests.map((r) => `${r.method} ${r.path}`).join(", ")}`)), timeoutMs);
        waiters.push({ pred, resolve: (r) => (clearTimeout(timer), resolve(r)) });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
