/**
 * `baton doctor`: starts an agent, asks `initialize`, and reads what it says about itself (name,
 * version, the ways it can authenticate), then stops it. Nothing is prompted, no session is opened.
 */
import os from "node:os";
import * as acp from "@agentclientprotocol/sdk";
import { spawnAgent, describeExit, type LaunchSpec } from "./agent-process";
import { errorMessage } from "../log";
import { DAEMON_VERSION } from "../version";
import { isRecord } from "../../../shared/is-record";

/** An agent launched from a local npm copy may take a while to boot on a cold cache. */
export const PROBE_TIMEOUT_MS = 20_000;

export type ProbeResult =
  | { ok: true; name: string | null; version: string | null; authMethods: { id: string; name: string }[] }
  | { ok: false; error: string };

const str = (v: unknown) => (typeof v === "string" ? v : null);

/** Reads the `initialize` result (loosely: an agent's extra fields must not make the probe fail). */
export function readInitialize(result: unknown): Extract<ProbeResult, { ok: true }> {
  const r = isRecord(result) ? result : {};
  const info = isRecord(r.agentInfo) ? r.agentInfo : {};
  const methods = Array.isArray(r.authMethods) ? r.authMethods.filter(isRecord) : [];
  return {
    ok: true,
    name: str(info.title) ?? str(info.name),
    version: str(info.version),
    authMethods: methods.map((m) => ({ id: str(m.id) ?? "?", name: str(m.name) ?? str(m.id) ?? "?" })),
  };
}

/** `cwd` must exist (spawn reports a missing cwd as the command missing): a root, or the temp dir. */
export async function probeAgent(launch: LaunchSpec, cwd = os.tmpdir(), timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  const proc = spawnAgent(launch, cwd);
  let buffer = "";
  try {
    const answer = new Promise<ProbeResult>((resolve) => {
      const timer = setTimeout(() => resolve({ ok: false, error: `no answer to initialize within ${timeoutMs / 1000} s` }), timeoutMs);
      proc.child.stdout.setEncoding("utf8");
      proc.child.stdout.on("data", (chunk: string) => {
        buffer += chunk;
        let nl;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (!line) continue;
          let msg: unknown;
          try {
            msg = JSON.parse(line);
          } catch {
            continue; // agents may print banners; only JSON-RPC counts
          }
          if (!isRecord(msg) || msg.id !== 1) continue;
          clearTimeout(timer);
          if (isRecord(msg.error)) resolve({ ok: false, error: `initialize failed: ${str(msg.error.message) ?? "error"}` });
          else resolve(readInitialize(msg.result));
        }
      });
      void proc.exited.then((e) => {
        clearTimeout(timer);
        const last = proc.stderrTail().at(-1);
        resolve({ ok: false, error: `${describeExit(e)}${last ? `: ${last}` : ""}` });
      });
    });
    const request = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {}, clientInfo: { name: "baton-doctor", version: DAEMON_VERSION } },
    };
    proc.child.stdin.write(`${JSON.stringify(request)}\n`);
    return await answer;
  } catch (err) {
    return { ok: false, error: errorMessage(err) };
  } finally {
    await proc.kill();
  }
}
