/**
 * `baton attach` under test: a user token from the real device flow, and the attach agent spawned as the CLI
 * runs it (bin/baton.mjs attach <URL>), driven over its stdio by the SDK's client side (`acp.client()`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { UserTokenResponse } from "../../shared/attach-api";
import { DeviceCodeResponse } from "../../shared/device-api";
import { TUNNEL_PROTOCOL_VERSION } from "../../shared/protocol-version";
import { BATON_BIN } from "../../scripts/baton-bin.mjs";

const BIN = BATON_BIN;

async function post(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json().catch(() => null) };
}

/** `baton login --user`'s flow against the stack: ask a code, approve it as the (dev) user, collect the token. */
export async function signInUser(url: string, hostname = "attach-test"): Promise<string> {
  const code = DeviceCodeResponse.parse(
    (await post(`${url}/api/device/code`, { hostname, os: "Linux", agents: [], daemonVersion: "0.0.0", protocolVersion: TUNNEL_PROTOCOL_VERSION, kind: "user" })).body,
  );
  const approved = await post(`${url}/api/device/approvals/${code.userCode}`, { decision: "approve" });
  if (approved.status !== 200) throw new Error(`approve: ${approved.status} ${JSON.stringify(approved.body)}`);
  const token = await post(`${url}/api/device/token`, { deviceCode: code.deviceCode });
  return UserTokenResponse.parse(token.body).token;
}

export type PermissionAsk = { params: acp.RequestPermissionRequest; signal: AbortSignal; answer: (r: acp.RequestPermissionResponse) => void };

export type FormAsk = { params: acp.CreateElicitationRequest; signal: AbortSignal; answer: (r: acp.CreateElicitationResponse) => void };

export type AttachedClient = {
  conn: acp.ClientConnection;
  child: ChildProcess;
  updates: acp.SessionNotification[];
  asks: PermissionAsk[];
  forms: FormAsk[];
  stderr: () => string;
  /** Agent text streamed to this client so far. */
  agentText(): string;
  userText(): string;
  close(): Promise<void>;
};

const textOf = (updates: acp.SessionNotification[], kind: "agent_message_chunk" | "user_message_chunk") =>
  updates
    .map((n) => n.update)
    .flatMap((u) => (u.sessionUpdate === kind && u.content.type === "text" ? [u.content.text] : []))
    .join("");

/** Spawns `baton attach <sessionUrl>` and connects an ACP client to its stdio. */
export function attachClient(sessionUrl: string, token: string | null, extraEnv: Record<string, string> = {}): AttachedClient {
  const env: Record<string, string | undefined> = { ...process.env, ...extraEnv, BATON_CONFIG: "", XDG_CONFIG_HOME: "/nonexistent-baton-test" };
  if (token) env.BATON_USER_TOKEN = token;
  else delete env.BATON_USER_TOKEN;
  const child = spawn(process.execPath, [BIN, "attach", sessionUrl], { stdio: ["pipe", "pipe", "pipe"], env });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const updates: acp.SessionNotification[] = [];
  const asks: PermissionAsk[] = [];
  const forms: FormAsk[] = [];
  const app = acp
    .client({ name: "attach-test" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(
      acp.methods.client.session.requestPermission,
      ({ params, signal }) =>
        new Promise<acp.RequestPermissionResponse>((answer) => {
          asks.push({ params, signal, answer });
          signal.addEventListener("abort", () => answer({ outcome: { outcome: "cancelled" } }));
        }),
    )
    .onRequest(
      acp.methods.client.elicitation.create,
      ({ params, signal }) =>
        new Promise<acp.CreateElicitationResponse>((answer) => {
          forms.push({ params, signal, answer });
          signal.addEventListener("abort", () => answer({ action: "cancel" }));
        }),
    );
  const conn = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
  return {
    conn,
    child,
    updates,
    asks,
    forms,
    stderr: () => err,
    agentText: () => textOf(updates, "agent_message_chunk"),
    userText: () => textOf(updates, "user_message_chunk"),
    async close() {
      conn.close();
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((r) => child.once("exit", () => r()));
      child.stdin!.end();
      const t = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** `initialize` as an editor sends it (terminal sign-in not offered; forms when `forms`). */
export const initialize = (c: AttachedClient, opts: { forms?: boolean } = {}) =>
  c.conn.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, ...(opts.forms ? { elicitation: { form: {} } } : {}) },
  });
