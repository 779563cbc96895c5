/** Identities for the auth-mode projects: real Access JWTs, and helpers for viewer sockets with headers. */
import { env, exports } from "cloudflare:workers";
import { importJWK, type JWK, SignJWT, generateKeyPair } from "jose";
import { expect } from "vitest";
import { framesOf } from "../../shared/fold";
import type { ServerFrame } from "../../shared/viewer-protocol";
import { ORIGIN, waitFor } from "./harness";

export const TEAM = env.ACCESS_TEAM_DOMAIN ?? "";
export const AUD = env.ACCESS_AUD ?? "";

type SignOpts = { email: string; aud?: string; iss?: string; expSecondsFromNow?: number; key?: CryptoKey; kid?: string };

/** An Access-style RS256 token; by default signed with the team key the Worker trusts. */
export async function accessJwt(opts: SignOpts): Promise<string> {
  const jwk = JSON.parse(env.TEST_ACCESS_PRIVATE_JWK!) as JWK;
  const key = opts.key ?? ((await importJWK(jwk, "RS256")) as CryptoKey);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email: opts.email, type: "app" })
    .setProtectedHeader({ alg: "RS256", kid: opts.kid ?? jwk.kid! })
    .setIssuer(opts.iss ?? `https://${TEAM}`)
    .setAudience(opts.aud ?? AUD)
    .setSubject(crypto.randomUUID())
    .setIssuedAt(now - 60)
    .setExpirationTime(now + (opts.expSecondsFromNow ?? 600))
    .sign(key);
}

/** Same claims and kid as a genuine token, signed by a key the team never published. */
export async function forgedJwt(email: string): Promise<string> {
  const { privateKey } = await generateKeyPair("RS256");
  return accessJwt({ email, key: privateKey });
}

export const asUser = async (email: string, extra: Record<string, string> = {}) => ({
  "Cf-Access-Jwt-Assertion": await accessJwt({ email }),
  ...extra,
});

export async function call<T = any>(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const method = init.method ?? "GET";
  // A browser adds its Origin to every write; tests opt out by passing Origin: "".
  const headers: Record<string, string> = { "content-type": "application/json", ...(method !== "GET" ? { Origin: ORIGIN } : {}), ...init.headers };
  for (const [k, v] of Object.entries(headers)) if (v === "") delete headers[k];
  const res = await exports.default.fetch(`${ORIGIN}${path}`, { ...init, headers });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
}

/** A minimal viewer socket carrying explicit headers (identity, Origin). */
export class AuthedViewer {
  frames: ServerFrame[] = [];
  closed: { code: number; reason: string; at: number } | null = null;
  private rid = 0;
  protected constructor(readonly ws: WebSocket) {
    // A batch is the frames it stands for (framesOf), as the client reads them.
    ws.addEventListener("message", (e) => {
      if (typeof e.data === "string" && e.data !== "pong") this.frames.push(...framesOf(JSON.parse(e.data) as ServerFrame));
    });
    ws.addEventListener("close", (e) => {
      this.closed = { code: e.code, reason: e.reason, at: Date.now() };
    });
  }

  static async upgrade(sessionId: string, headers: Record<string, string>) {
    return exports.default.fetch(`${ORIGIN}/api/sessions/${sessionId}/ws?after=0`, { headers: { Upgrade: "websocket", Origin: ORIGIN, ...headers } });
  }

  static async open(sessionId: string, headers: Record<string, string>): Promise<AuthedViewer> {
    const res = await AuthedViewer.upgrade(sessionId, headers);
    expect(res.status).toBe(101);
    res.webSocket!.accept();
    const v = new AuthedViewer(res.webSocket!);
    await waitFor(() => v.frames.some((f) => f.type === "ready"), "ready");
    return v;
  }

  welcome() {
    return this.frames.find((f): f is Extract<ServerFrame, { type: "welcome" }> => f.type === "welcome");
  }

  async op(op: Record<string, unknown>): Promise<Extract<ServerFrame, { type: "ack" | "error" }>> {
    const rid = `r${++this.rid}`;
    this.ws.send(JSON.stringify({ ...op, rid }));
    return waitFor(
      () => this.frames.find((f): f is Extract<ServerFrame, { type: "ack" | "error" }> => (f.type === "ack" || f.type === "error") && f.rid === rid),
      `reply to ${String(op.op)}`,
    );
  }

  close() {
    try {
      this.ws.close(1000, "bye");
    } catch {
      /* already */
    }
  }
}

let clientNo = 0;

/**
 * Signs in under AUTH_MODE=builtin through the real code flow (the mail API is served by the test's
 * outbound handler); each sign-in comes from its own address in `ipBlock` (e.g. "198.51.100"), so the
 * per-address limits of one file never meet another's. Returns the session cookie header.
 */
export async function signInByCode(email: string, ipBlock: string): Promise<Record<string, string>> {
  const ip = { "CF-Connecting-IP": `${ipBlock}.${++clientNo}` };
  const outbox = async () => (await (await fetch(`https://mail.test/outbox?to=${encodeURIComponent(email)}`)).json()) as { text: string }[];
  const before = (await outbox()).length;
  const asked = await call("/api/auth/code", { method: "POST", headers: ip, body: JSON.stringify({ email }) });
  expect(asked.status).toBe(200);
  const login = asked.headers.get("set-cookie")?.split(";")[0];
  const mails = await outbox();
  expect(mails.length).toBe(before + 1);
  const code = /\b(\d{6,})\b/.exec(mails.at(-1)!.text)![1]!;
  const r = await call("/api/auth/verify", { method: "POST", headers: { ...ip, ...(login ? { Cookie: login } : {}) }, body: JSON.stringify({ email, code }) });
  expect(r.status).toBe(200);
  return { Cookie: r.headers.get("set-cookie")!.split(";")[0]! };
}
