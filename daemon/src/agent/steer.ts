/** Steering (`_session/steering`, claude-agent-acp / codex-acp): a queued message put into the running turn. */
import * as acp from "@agentclientprotocol/sdk";
import type { PromptBlock } from "../../../shared/blocks";
import type { DaemonEvent } from "../../../shared/tunnel-protocol";
import { isRecord } from "./acp-tap";
import { STEERING_METHOD } from "./agent-rpc";
import { withTimeout } from "../timing";

export type SteerOutcome = Extract<DaemonEvent, { t: "steer.result" }>["outcome"];

/** The agent's answer as an outcome: it said no → failed; no answer (timeout, connection lost) → indeterminate. */
export async function steer(conn: acp.ClientConnection, agentSessionId: string, blocks: PromptBlock[], steerMs: number): Promise<SteerOutcome> {
  try {
    const res: unknown = await withTimeout(conn.agent.request(STEERING_METHOD, { sessionId: agentSessionId, prompt: blocks }), steerMs, STEERING_METHOD);
    const outcome = isRecord(res) ? res.outcome : undefined;
    switch (outcome) {
      case "injected":
      case "startedNewTurn":
      case "promptRequired":
        return outcome;
      default:
        return "failed";
    }
  } catch (err) {
    return err instanceof acp.RequestError ? "failed" : "indeterminate";
  }
}
