/**
 * HAPI 0.30.7 (github.com/tiann/hapi) run locally for the side-by-side benchmarks: its hub binary from
 * the peers cache (scripts/install-peers.mjs), a session filled through its CLI protocol (REST
 * `/cli/sessions`, then Socket.IO namespace `/cli` `message` events, as its CLI sends an ACP agent's
 * output: `{role:"agent", content:{type:"codex", data:{type:"message", message}}}`), and a web
 * viewer's requests as its web app makes them (JWT from `/api/auth`, REST pages, SSE `/api/events`),
 * counted on the wire (gzip, as a browser asks for) and decoded.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGunzip, gunzipSync } from "node:zlib";
import { z } from "zod";
import { isInstalled, peerDir } from "../../scripts/install-peers.mjs";

const BINARY = "node_modules/@twsxtd/hapi-linux-x64/bin/hapi";
/** What the hub prints once it serves (its stdout). */
const READY_LINE = "HAPI Hub is ready";

/** The Socket.IO client calls the bench makes (socket.io-client from the peers cache). */
type CliSocket = {
  connected: boolean;
  emit(event: string, data: unknown): void;
  on(event: string, cb: (arg: unknown) => void): void;
  close(): void;
};
type Io = (url: string, opts: Record<string, unknown>) => CliSocket;
/** socket.io-client's CommonJS export: a function carrying `io`. */
const IoModule = z.custom<{ io: Io }>((v) => (typeof v === "function" || typeof v === "object") && v !== null && "io" in v && typeof v.io === "function");

const AuthResponse = z.object({ token: z.string() });
/** A user's message as the hub hands it to the CLI (Socket.IO `update`). */
const UserMessageUpdate = z.object({
  body: z.object({
    t: z.literal("new-message"),
    message: z.object({ localId: z.string(), content: z.object({ role: z.literal("user"), content: z.object({ type: z.literal("text"), text: z.string() }) }) }),
  }),
});
const SessionResponse = z.object({ session: z.object({ id: z.string() }) });
export const Page = z.object({
  messages: z.array(z.object({ id: z.string(), seq: z.number(), createdAt: z.number() })),
  page: z.object({
    epoch: z.number().nullable(),
    hasMore: z.boolean(),
    reset: z.boolean(),
    direction: z.string(),
    nextAfterSeq: z.number().nullable(),
    nextAfterAt: z.number().nullable(),
    snapshotHeadSeq: z.number().nullable(),
    snapshotHeadAt: z.number().nullable(),
  }),
});
export type Page = z.infer<typeof Page>;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => (a && typeof a === "object" ? resolve(a.port) : reject(new Error("no port"))));
    });
    s.on("error", reject);
  });

/** A response body as sent (gzip when the hub compresses) and decoded. */
export type Fetched = { wire: number; decoded: number; text: string; encoding: string };

export class HapiHub {
  readonly token = randomBytes(24).toString("hex");
  private child: ChildProcess | null = null;
  private home = "";
  private jwt = "";
  private io: Io | null = null;
  port = 0;

  static available(): boolean {
    return isInstalled("hapi");
  }

  async start(): Promise<void> {
    if (!HapiHub.available()) throw new Error("HAPI is not installed: run node scripts/install-peers.mjs (npm run bench does)");
    const dir = peerDir("hapi");
    const req = createRequire(join(dir, "package.json"));
    this.io = IoModule.parse(req("socket.io-client")).io;
    this.home = mkdtempSync(join(tmpdir(), "baton-hapi-"));
    this.port = await freePort();
    const child = spawn(join(dir, BINARY), ["hub"], {
      env: { ...process.env, HOME: this.home, HAPI_HOME: this.home, CLI_API_TOKEN: this.token, HAPI_LISTEN_HOST: "127.0.0.1", HAPI_LISTEN_PORT: String(this.port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    let log = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`HAPI hub did not start in 30 s:\n${log}`)), 30_000);
      const take = (d: Buffer) => {
        log += d;
        if (log.includes(READY_LINE)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on("data", take);
      child.stderr?.on("data", take);
      child.on("exit", (code) => reject(new Error(`HAPI hub exited ${code}:\n${log}`)));
    });
    const auth = await fetch(`${this.base}/api/auth`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ accessToken: this.token }) });
    this.jwt = AuthResponse.parse(await auth.json()).token;
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null) {
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    if (this.home) rmSync(this.home, { recursive: true, force: true });
  }

  /** A session as its CLI opens one, with the CLI's Socket.IO connection. */
  async openSession(): Promise<HapiSession> {
    const res = await fetch(`${this.base}/cli/sessions`, {
      method: "POST",
      headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json" },
      body: JSON.stringify({ tag: `bench-${randomUUID()}`, metadata: { path: "/work", host: "bench", flavor: "opencode" }, agentState: null }),
    });
    if (!res.ok) throw new Error(`HAPI /cli/sessions: ${res.status} ${await res.text()}`);
    const id = SessionResponse.parse(await res.json()).session.id;
    const socket = this.io!(`${this.base}/cli`, { auth: { token: this.token, clientType: "session-scoped", sessionId: id }, path: "/socket.io/", transports: ["websocket"] });
    await new Promise<void>((resolve, reject) => {
      socket.on("connect", () => resolve());
      socket.on("connect_error", (e) => reject(new Error(`HAPI /cli socket: ${String(e)}`)));
    });
    return new HapiSession(this, id, socket);
  }

  /** GET with the web app's JWT, as a browser does (gzip accepted): bytes as sent and decoded. */
  get(path: string): Promise<Fetched> {
    return new Promise((resolve, reject) => {
      const req = request(`${this.base}${path}`, { headers: { authorization: `Bearer ${this.jwt}`, "accept-encoding": "gzip" } }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (d: Buffer) => parts.push(d));
        res.on("end", () => {
          const raw = Buffer.concat(parts);
          const encoding = String(res.headers["content-encoding"] ?? "identity");
          const body = encoding === "gzip" ? gunzipSync(raw) : raw;
          if ((res.statusCode ?? 0) >= 400) return reject(new Error(`HAPI GET ${path}: ${res.statusCode} ${body.toString().slice(0, 200)}`));
          resolve({ wire: raw.length, decoded: body.length, text: body.toString("utf8"), encoding });
        });
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
  }

  async page(sessionId: string, query: string): Promise<{ fetched: Fetched; page: Page }> {
    const fetched = await this.get(`/api/sessions/${sessionId}/messages?${query}`);
    return { fetched, page: Page.parse(JSON.parse(fetched.text)) };
  }

  /**
   * The web app's SSE subscription for one session (gzip, as EventSource asks for). `onEvent` sees each
   * decoded event's data as it arrives; bytes as sent and decoded are counted.
   */
  subscribe(sessionId: string, onEvent: (data: string, at: number) => void, lastEventId?: string): Promise<SseStream> {
    return new Promise((resolve, reject) => {
      // As its web app reconnects: `lastEventId` asks the hub to replay what the viewer missed.
      const q = new URLSearchParams({ token: this.jwt, visibility: "visible", sessionId, ...(lastEventId ? { lastEventId } : {}) });
      const stream: SseStream = { wire: 0, decoded: 0, lastId: null, close: () => req.destroy() };
      const req = request(`${this.base}/api/events?${q}`, { headers: { accept: "text/event-stream", "accept-encoding": "gzip" } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`HAPI SSE: ${res.statusCode}`));
        const gz = res.headers["content-encoding"] === "gzip";
        const inflate = gz ? createGunzip() : null;
        let buf = "";
        const onText = (d: Buffer) => {
          stream.decoded += d.length;
          buf += d.toString("utf8");
          for (let end = buf.indexOf("\n\n"); end >= 0; end = buf.indexOf("\n\n")) {
            const block = buf.slice(0, end);
            buf = buf.slice(end + 2);
            const lines = block.split("\n");
            const id = lines.find((l) => l.startsWith("id: "));
            if (id) stream.lastId = id.slice(4);
            const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
            if (data) onEvent(data, performance.now());
          }
        };
        res.on("data", (d: Buffer) => {
          stream.wire += d.length;
          if (inflate) inflate.write(d);
          else onText(d);
        });
        inflate?.on("data", onText);
        inflate?.on("error", () => {});
        res.on("error", () => {});
        resolve(stream);
      });
      req.on("error", (e) => (stream.wire ? undefined : reject(e)));
      req.end();
    });
  }
}

/** A viewer's SSE stream: bytes as sent and decoded, and the id of the last event (what a reconnect resumes from). */
export type SseStream = { wire: number; decoded: number; lastId: string | null; close(): void };

export class HapiSession {
  turns = 0;
  constructor(
    readonly hub: HapiHub,
    readonly id: string,
    readonly socket: CliSocket,
  ) {}

  /** One agent message, as HAPI's CLI sends an ACP agent's answer segment. */
  sendAnswer(text: string): void {
    this.socket.emit("message", { sid: this.id, message: { role: "agent", content: { type: "codex", data: { type: "message", message: text, id: randomUUID() } }, meta: { sentFrom: "cli" } } });
  }

  /**
   * Tells the hub this session's CLI is up (its web app shows a session without it as inactive, with no
   * composer that sends), as its CLI does every few seconds; `thinking` is its "agent at work" flag.
   */
  alive(thinking = false): void {
    this.socket.emit("session-alive", { sid: this.id, time: Date.now(), thinking, mode: "remote" });
  }

  /**
   * Plays the CLI side of a turn: each user message the hub hands over (`update` → `new-message`, re-sent on
   * every keep-alive until consumed, so deduped by `localId`) is marked consumed (`messages-consumed`, which
   * moves it from the web app's queue into its thread) and answered at once with one agent message, as its
   * CLI sends an ACP agent's buffered segment, inside a turn as its CLI reports one (`session-alive` thinking
   * on, then off when the answer is sent). Returns a stop function.
   */
  answerUserMessages(reply: (text: string) => string): () => void {
    const seen = new Set<string>();
    let on = true;
    this.socket.on("update", (raw) => {
      const u = UserMessageUpdate.safeParse(raw);
      if (!on || !u.success) return;
      const { localId, content } = u.data.body.message;
      if (seen.has(localId)) return;
      seen.add(localId);
      this.socket.emit("messages-consumed", { sid: this.id, localIds: [localId] });
      this.alive(true);
      this.sendAnswer(reply(content.content.text));
      this.alive(false);
    });
    return () => void (on = false);
  }

  /** The newest message seq the hub has stored. */
  async headSeq(): Promise<number> {
    const { page } = await this.hub.page(this.id, "limit=1");
    return page.page.snapshotHeadSeq ?? 0;
  }

  close(): void {
    this.socket.close();
  }
}
