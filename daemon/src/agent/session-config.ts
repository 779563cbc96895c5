/**
 * A session's AgentConfig as the daemon holds it (the one home of the config rule: rooms and viewers apply the
 * `config.state` this emits), the writes to the agent (mode, legacy model, config option) and the re-apply of a
 * session's settings after `session/load`.
 * Invariant: `config.state` is emitted only when the config really changed, and never before `session.ready`
 * (which carries the config it starts from).
 */
import * as acp from "@agentclientprotocol/sdk";
import { assertNever } from "../../../shared/assert-never";
import { reapplyNotices, reapplyPlan, type ReapplyStep } from "../../../shared/session-settings";
import type { AgentConfig, DaemonEvent, SessionSettings } from "../../../shared/tunnel-protocol";
import { configAfterSetMode, configAfterSetModel, configAfterSetOption, configAfterUpdate, sameConfig } from "./agent-config";
import { rpcErrorText, SET_MODEL_METHOD } from "./agent-rpc";
import type { Logger } from "../log";
import { withTimeout } from "../timing";

/** One write to the agent: the same shapes the re-apply plans. */
export type ConfigWrite = ReapplyStep;

const EMPTY_CONFIG: AgentConfig = { modes: null, models: null, configOptions: [], steering: false, images: false };

export class SessionConfig {
  /** Null until the session opened (initialize + session/new|load answered). */
  current: AgentConfig | null = null;

  constructor(
    private readonly sessionId: string,
    private readonly emit: (e: DaemonEvent) => void,
    private readonly log: Logger,
    /** Config writes (set_mode / set_config_option / set_model): quick RPCs. */
    private readonly requestMs: number,
  ) {}

  /** What `session.ready` carries. */
  get forReady(): AgentConfig {
    return this.current ?? EMPTY_CONFIG;
  }

  /** A `session/update` the agent sent: mode and option changes move the config. */
  onUpdate(update: Record<string, unknown>): void {
    this.adopt(this.current && configAfterUpdate(this.current, update));
  }

  /** Why this write cannot go to this agent at all, or null. */
  refusal(write: ConfigWrite): string | null {
    if (write.kind === "mode" && this.current && !this.current.modes) return "this agent has no modes";
    if (write.kind === "model" && !this.current?.models) return "this agent has no legacy model list; use config.set";
    return null;
  }

  /** A viewer's write: sent, then the new config emitted. Throws the agent's refusal. */
  async write(conn: acp.ClientConnection, agentSessionId: string, write: ConfigWrite): Promise<void> {
    const next = await this.send(conn, agentSessionId, write);
    this.adopt(next);
  }

  /**
   * After `session/load` the agent reports its defaults: write back what the session had (before `ready`, so
   * the next prompt already runs with it) and return a line per setting that did not come back.
   */
  async reapply(conn: acp.ClientConnection, agentSessionId: string, wanted: SessionSettings, live: () => boolean): Promise<string[]> {
    const reported = this.forReady;
    for (const step of reapplyPlan(wanted, reported)) {
      if (!live()) return [];
      try {
        const next = await this.send(conn, agentSessionId, step);
        if (next) this.current = next; // not emitted: `session.ready` carries it
      } catch (err) {
        this.log.warn(`session ${this.sessionId}: could not re-apply ${JSON.stringify(step)}: ${rpcErrorText(err)}`);
      }
    }
    return reapplyNotices(wanted, this.forReady, reported);
  }

  /** Sends one write; the config it leads to (null before the session opened). */
  private async send(conn: acp.ClientConnection, sessionId: string, write: ConfigWrite): Promise<AgentConfig | null> {
    const t = this.requestMs;
    switch (write.kind) {
      case "mode":
        await withTimeout(conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: write.modeId }), t, "session/set_mode");
        return this.current && configAfterSetMode(this.current, write.modeId);
      case "model":
        await withTimeout(conn.agent.request(SET_MODEL_METHOD, { sessionId, modelId: write.modelId }), t, SET_MODEL_METHOD);
        return this.current && configAfterSetModel(this.current, write.modelId);
      case "option": {
        const res: unknown = await withTimeout(
          conn.agent.request(acp.methods.agent.session.setConfigOption, setOptionParams(sessionId, write.configId, write.value)),
          t,
          "session/set_config_option",
        );
        return this.current && configAfterSetOption(this.current, res, write.configId, write.value);
      }
      default:
        return assertNever(write);
    }
  }

  private adopt(next: AgentConfig | null): void {
    if (!next || !this.current || sameConfig(this.current, next)) return;
    this.current = next;
    this.emit({ t: "config.state", sessionId: this.sessionId, config: next });
  }
}

function setOptionParams(sessionId: string, configId: string, value: string | boolean): acp.SetSessionConfigOptionRequest {
  return typeof value === "boolean" ? { sessionId, configId, type: "boolean", value } : { sessionId, configId, value };
}
