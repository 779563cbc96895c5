/** ACP method names and helpers the daemon's session modules share: extension methods, error text, RPC keys. */
import * as acp from "@agentclientprotocol/sdk";
import { isRecord } from "./acp-tap";
import { errorMessage } from "../log";

export const STEERING_METHOD = "_session/steering";
/** claude-agent-acp's and codex-acp's connection-scoped login report (`{authStatus: {kind, label}}`). */
export const AUTH_STATUS_METHOD = "_auth/status_update";
/** ACP's `auth_required` JSON-RPC error code. */
export const AUTH_REQUIRED_CODE = -32000;
/** Legacy model switch (pre-configOptions agents); not in the SDK's method table. */
export const SET_MODEL_METHOD = "session/set_model";

/** Longest error text put in an event: enough to explain, small enough for a toast. */
const MAX_ERROR_CHARS = 500;

export function clipError(text: string): string {
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS - 1)}…` : text;
}

/** A JSON-RPC id as a map key (the tap sees the raw id, the SDK handler its parsed twin). */
export function rpcKey(id: unknown): string {
  return JSON.stringify(id ?? null);
}

/** RequestError message plus any human text in its data (agents often put the useful part there). */
export function rpcErrorText(err: unknown): string {
  let text = errorMessage(err);
  if (err instanceof acp.RequestError && isRecord(err.data)) {
    const extra = err.data.message ?? err.data.details;
    if (typeof extra === "string" && extra && !text.includes(extra)) text = `${text}: ${extra}`;
  }
  return clipError(text);
}
