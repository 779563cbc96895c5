/**
 * One Baton session = one agent subprocess + one ACP client connection over its stdio.
 * Turns MachineCommands for this session into ACP calls and the agent's traffic into DaemonEvents.
 */
import { randomUUID } from "node:crypto";
import * as acp from "@agentclientprotocol/sdk";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import type { PromptBlock } from "../../shared/blocks";
import { reapplyNotices, reapplyPlan, type ReapplyStep } from "../../shared/session-settings";
import type { AgentCapabilities, AgentConfig, DaemonEvent, SessionSettings } from "../../shared/tunnel-protocol";
import { type AuthMethod, type ElicitationAction, type ElicitationContent, PermissionOption } from "../../shared/viewer-protocol";
import { isRecord, messageKind, tappedStdioStream, type TapVerdict } from "./acp-tap";
import {
  authMethodsFrom,
  authStatusFrom,
  capabilitiesFrom,
  configAfterSetMode,
  configAfterSetModel,
  configAfterSetOption,
  configAfterUpdate,
  initialAgentConfig,
  sameConfig,
} from "./agent-config";
import { assertNever } from "../../shared/assert-never";
import { describeExit, spawnAgent, type AgentProcess, type ExitInfo, type LaunchSpec } from "./agent-process";
import { errorMessage, type Logger } from "./log";
import { DAEMON_VERSION } from "./version";
import { TimeoutError, delay, withTimeout, type Deferred, deferred } from "./timing";

export const STEERING_METHOD = "_session/steering";
/** claude-agent-acp's and codex-acp's connection-scoped login report (`{authStatus: {kind, label}}`). */
export const AUTH_STATUS_METHOD = "_auth/status_update";
/** ACP's `auth_required` JSON-RPC error code. */
const AUTH_REQUIRED_CODE = -32000;
/** Legacy model switch (pre-configOptions agents); not in the SDK's method table. */
export const SET_MODEL_METHOD = "session/set_model";

export type SessionTimeouts = {
  /** initialize + session/new|load: npx-launched agents may install on first run. */
  openMs: number;
  /** Config writes (set_mode / set_config_option / set_model): quick RPCs. */
  requestMs: number;
  /** A steer reply: past this the outcome is unknown (`indeterminate`). */
  steerMs: number;
  /** After session/cancel, how long the agent gets to end the turn before the daemon ends it itself. */
  cancelForceMs: number;
  /** After the connection drops mid-turn, how long to wait for the process exit status for the message. */
  exitWaitMs: number;
  /** After a load's answer, ready waits until the history replay has been quiet this long (Gemini streams it after answering). */
  replayQuietMs: number;
  /** …but never longer than this in all (an agent that never stops talking still becomes ready). */
  replaySettleMaxMs: number;
};

export const DEFAULT_TIMEOUTS: SessionTimeouts = {
  openMs: 120_000,
  requestMs: 30_000,
  steerMs: 15_000,
  cancelForceMs: 15_000,
  exitWaitMs: 1_000,
  replayQuietMs: 300,
  replaySettleMaxMs: 5_000,
};

export type SessionDeps = {
  emit(e: DaemonEvent): void;
  /** What the agent showed it can do, after each successful open. */
  learnt?(agentId: string, capabilities: AgentCapabilities): void;
  log: Logger;
  timeouts: SessionTimeouts;
};

export type SessionState = "opening" | "ready" | "failed" | "closed";

type PendingPermission = {
  requestId: string;
  rpcKey: string;
  optionIds: string[];
  answer: Deferred<string | null>;
};

type PendingElicitation = {
  requestId: string;
  rpcKey: string;
  answer: Deferred<ElicitationAnswer>;
};
type ElicitationAnswer = { action: ElicitationAction; content?: ElicitationContent };

type Turn = { turnId: string; cancelTimer: NodeJS.Timeout | null };

/** Longest error text put in an event: enough to explain, small enough for a toast. */
const MAX_ERROR_CHARS = 500;

function rpcKey(id: unknown): string {
  return JSON.stringify(id ?? null);
}

/** RequestError message plus any human text in its data (agents often put the useful part there). */
export function rpcErrorText(err: unknown): string {
  let text = errorMessage(err);
  if (err instanceof acp.RequestError && isRecord(err.data)) {
    const extra = err.data.message ?? err.data.details;
    if (typeof extra === "string" && extra && !text.includes(extra)) text = `${text}: ${extra}`;
  }
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS - 1)}…` : text;
}

/**
 * What an agent streams when answering `session/load`: its whole conversation, replayed (ACP requires it).
 * The room already holds that transcript, so these kinds are dropped from the load until the first prompt
 * (not only until the load's answer: Gemini 0.61 answers first and streams the history after); live kinds
 * (mode, config options, commands, usage, title) still pass.
 */
const HISTORY_UPDATE_KINDS: ReadonlySet<string> = new Set([
  "user_message_chunk",
  "agent_message_chunk",
  "agent_thought_chunk",
  "tool_call",
  "tool_call_update",
  "plan",
]);

/**
 * What Baton's viewers can do. Form elicitation (claude-agent-acp turns AskUserQuestion on only for clients
 * advertising `elicitation.form`); boolean config options (codex-acp sends fast mode as a boolean only then);
 * `_meta["terminal-auth"]` so claude-agent-acp and pi-acp name the login command in their `authMethods`
 * (Baton shows it; a person runs it on the machine).
 */
const CLIENT_CAPABILITIES: acp.ClientCapabilities = {
  elicitation: { form: {} },
  session: { configOptions: { boolean: {} } },
  _meta: { "terminal-auth": true },
};

export class AgentSession {
  state: SessionState = "opening";
  agentSessionId: string | null = null;
  config: AgentConfig | null = null;
  private proc: AgentProcess | null = null;
  private conn: acp.ClientConnection | null = null;
  private turn: Turn | null = null;
  private readonly permissions = new Map<string, PendingPermission>();
  private readonly permissionsByRpc = new Map<string, PendingPermission>();
  private readonly elicitations = new Map<string, PendingElicitation>();
  private readonly elicitationsByRpc = new Map<string, PendingElicitation>();
  private resumed = false;
  /** From `session/load` to the first prompt: the agent's history replay is not relayed (see HISTORY_UPDATE_KINDS). */
  private replaying = false;
  private replayedDropped = 0;
  private lastReplayAt = 0;
  /** From `initialize`: how to log the agent in (reported with a failure). */
  private authMethods: AuthMethod[] = [];
  /** Last `_auth/status_update` said "logged out" (a notice is sent once per change). */
  private loggedOut = false;

  constructor(
    readonly sessionId: string,
    readonly agentId: string,
    readonly cwd: string,
    private readonly launch: LaunchSpec,
    private readonly deps: SessionDeps,
    /** The preset's login command, for auth methods without a `terminal-auth` hint of their own. */
    private readonly loginHint: string | null = null,
  ) {}

  get busy(): boolean {
    return this.turn !== null;
  }

  /** The agent process id (diagnostics and tests). */
  get pid(): number | undefined {
    return this.proc?.child.pid;
  }

  get live(): boolean {
    return this.state === "opening" || this.state === "ready";
  }

  private emit(e: DaemonEvent): void {
    this.deps.emit(e);
  }

  private commandFailed(command: string, message: string): void {
    this.emit({ t: "command.failed", sessionId: this.sessionId, command, message });
  }

  // ------------------------------------------------------------------ open

  async open(agentSessionId: string | null | undefined, restore?: SessionSettings | null): Promise<void> {
    const log = this.deps.log;
    let proc: AgentProcess;
    try {
      proc = spawnAgent(this.launch, this.cwd, (line) => log.debug(`[agent ${this.agentId} ${this.sessionId}] ${line}`));
    } catch (err) {
      return this.fail(`agent could not start: ${errorMessage(err)}`);
    }
    this.proc = proc;
    void proc.exited.then((info) => this.onExit(info));

    const stream = tappedStdioStream(proc.child.stdin, proc.child.stdout, (m) => this.onAgentMessage(m));
    const app = acp.client({ name: "baton-daemon" }).onRequest(acp.methods.client.session.requestPermission, async ({ requestId, signal }) => {
      // The answer may already be in (a fast viewer): the entry stays until this handler takes it.
      const pending = this.permissionsByRpc.get(rpcKey(requestId));
      this.permissionsByRpc.delete(rpcKey(requestId));
      if (!pending) return { outcome: { outcome: "cancelled" as const } };
      const onAbort = () => this.cancelPermission(pending);
      signal.addEventListener("abort", onAbort, { once: true });
      const optionId = await pending.answer.promise;
      signal.removeEventListener("abort", onAbort);
      return optionId === null
        ? { outcome: { outcome: "cancelled" as const } }
        : { outcome: { outcome: "selected" as const, optionId } };
    });
    app.onRequest(acp.methods.client.elicitation.create, async ({ requestId, signal }) => {
      // Only session-scoped forms were announced to the viewers (see registerElicitation); anything else
      // (a URL, a request-scoped form) Baton does not offer: cancelled.
      const pending = this.elicitationsByRpc.get(rpcKey(requestId));
      this.elicitationsByRpc.delete(rpcKey(requestId));
      if (!pending) return { action: "cancel" as const };
      const onAbort = () => this.cancelElicitation(pending);
      signal.addEventListener("abort", onAbort, { once: true });
      const answer = await pending.answer.promise;
      signal.removeEventListener("abort", onAbort);
      return answer.action === "accept" ? { action: "accept" as const, content: answer.content ?? {} } : { action: answer.action };
    });
    const conn = app.connect(stream);
    this.conn = conn;

    try {
      const t = this.deps.timeouts.openMs;
      const init: unknown = await withTimeout(
        conn.agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          // Deliberately no fs / terminal: the agent works on the machine itself; Baton only relays.
          clientCapabilities: CLIENT_CAPABILITIES,
          clientInfo: { name: "baton", version: DAEMON_VERSION },
        }),
        t,
        "initialize",
      );
      if (!this.live) return;
      this.authMethods = authMethodsFrom(isRecord(init) ? init.authMethods : undefined, this.loginHint);
      const caps = isRecord(init) && isRecord(init.agentCapabilities) ? init.agentCapabilities : {};
      let sessionResult: unknown = null;
      const resumeAdvertised = isRecord(caps.sessionCapabilities) && isRecord(caps.sessionCapabilities.resume);
      const reattach =
        caps.loadSession === true ? acp.methods.agent.session.load : resumeAdvertised ? acp.methods.agent.session.resume : null;
      if (agentSessionId && reattach) {
        try {
          const params = { sessionId: agentSessionId, cwd: this.cwd, mcpServers: [] };
          this.replaying = reattach === acp.methods.agent.session.load;
          sessionResult = await withTimeout(conn.agent.request(reattach, params), t, reattach);
          this.agentSessionId = agentSessionId;
          this.resumed = true;
          if (this.replaying) await this.replaySettled();
          log.info(`session ${this.sessionId}: resumed agent session ${agentSessionId}`);
        } catch (err) {
          this.endReplay();
          // The agent refusing (unknown / expired session) is normal after a long time: start fresh.
          if (!this.live || !(err instanceof acp.RequestError)) throw err;
          log.warn(`session ${this.sessionId}: ${reattach} failed (${rpcErrorText(err)}); starting a new agent session`);
        }
      }
      if (!this.resumed) {
        const created: unknown = await withTimeout(
          conn.agent.request(acp.methods.agent.session.new, { cwd: this.cwd, mcpServers: [] }),
          t,
          "session/new",
        );
        if (!isRecord(created) || typeof created.sessionId !== "string" || !created.sessionId)
          throw new Error("agent answered session/new without a sessionId");
        this.agentSessionId = created.sessionId;
        sessionResult = created;
      }
      if (!this.live) return;
      this.config = initialAgentConfig(init, sessionResult, this.loginHint);
      this.deps.learnt?.(this.agentId, capabilitiesFrom(init, sessionResult));
      const notices = this.resumed && restore ? await this.reapply(conn, restore) : [];
      if (!this.live) return;
      this.state = "ready";
      this.emit(this.readyEvent());
      for (const text of notices) this.emit({ t: "session.notice", sessionId: this.sessionId, level: "warn", text });
    } catch (err) {
      if (!this.live) return;
      // A dropped connection usually means the process died: prefer its exit status as the reason.
      if (!(err instanceof acp.RequestError) && !(err instanceof TimeoutError)) {
        await Promise.race([proc.exited, delay(this.deps.timeouts.exitWaitMs)]);
        if (!this.live) return;
      }
      this.fail(proc.hasExited() ? this.exitMessage() : rpcErrorText(err), this.authMethodsFor(err));
    }
  }

  /**
   * How to log in, reported with a failed open: the agent's advertised methods, else those an `auth_required`
   * error carries (pi-acp puts them in its data), else the preset's login command.
   */
  private authMethodsFor(err: unknown): AuthMethod[] {
    const authRequired = err instanceof acp.RequestError && err.code === AUTH_REQUIRED_CODE;
    if (this.authMethods.length) return this.authMethods;
    if (!authRequired) return [];
    const fromError = authMethodsFrom(isRecord(err.data) ? err.data.authMethods : undefined, this.loginHint);
    if (fromError.length) return fromError;
    return this.loginHint ? [{ id: "login", name: "Log in", description: null, command: this.loginHint }] : [];
  }

  /**
   * After `session/load` the agent reports its defaults: write back what the session had (before `ready`, so
   * the next prompt already runs with it) and return a line per setting that did not come back.
   */
  private async reapply(conn: acp.ClientConnection, wanted: SessionSettings): Promise<string[]> {
    const reported = this.config!;
    for (const step of reapplyPlan(wanted, reported)) {
      if (!this.live) return [];
      try {
        await this.applyStep(conn, step);
      } catch (err) {
        this.deps.log.warn(`session ${this.sessionId}: could not re-apply ${JSON.stringify(step)}: ${rpcErrorText(err)}`);
      }
    }
    return reapplyNotices(wanted, this.config!, reported);
  }

  private async applyStep(conn: acp.ClientConnection, step: ReapplyStep): Promise<void> {
    const sessionId = this.agentSessionId!;
    const t = this.deps.timeouts.requestMs;
    switch (step.kind) {
      case "mode":
        await withTimeout(conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: step.modeId }), t, "session/set_mode");
        this.config = configAfterSetMode(this.config!, step.modeId);
        return;
      case "model":
        await withTimeout(conn.agent.request(SET_MODEL_METHOD, { sessionId, modelId: step.modelId }), t, SET_MODEL_METHOD);
        this.config = configAfterSetModel(this.config!, step.modelId);
        return;
      case "option": {
        const res: unknown = await withTimeout(conn.agent.request(acp.methods.agent.session.setConfigOption, setOptionParams(sessionId, step.configId, step.value)), t, "session/set_config_option");
        this.config = configAfterSetOption(this.config!, res, step.configId, step.value);
        return;
      }
      default:
        return assertNever(step);
    }
  }

  readyEvent(): DaemonEvent {
    return {
      t: "session.ready",
      sessionId: this.sessionId,
      agentSessionId: this.agentSessionId ?? "",
      config: this.config ?? { modes: null, models: null, configOptions: [], steering: false, images: false },
      resumed: this.resumed,
    };
  }

  // ------------------------------------------------------------------ agent → daemon

  private onAgentMessage(m: AnyMessage): TapVerdict {
    if (!this.live) return "pass";
    const kind = messageKind(m);
    if (kind === "notification" && "method" in m && m.method === acp.methods.client.session.update) {
      const update = isRecord(m.params) ? m.params.update : undefined;
      if (isRecord(update) && typeof update.sessionUpdate === "string") {
        if (this.replaying && HISTORY_UPDATE_KINDS.has(update.sessionUpdate)) {
          this.replayedDropped++;
          this.lastReplayAt = Date.now();
          return "drop";
        }
        this.emit({ t: "session.update", sessionId: this.sessionId, update: update as DaemonUpdate });
        this.applyConfig(this.config && configAfterUpdate(this.config, update));
      } else {
        this.deps.log.debug(`session ${this.sessionId}: ignored a malformed session/update`);
      }
      return "drop"; // relayed raw; the SDK's typed handler would only re-validate it
    }
    if (kind === "notification" && "method" in m && m.method === AUTH_STATUS_METHOD) {
      this.onAuthStatus(m.params);
      return "drop";
    }
    if (kind === "request" && "method" in m && m.method === acp.methods.client.elicitation.create && "id" in m) {
      this.registerElicitation(m.id, m.params);
    }
    if (kind === "request" && "method" in m && m.method === acp.methods.client.session.requestPermission && "id" in m) {
      this.registerPermission(m.id, m.params);
    }
    return "pass";
  }

  /** A logged-out report becomes a visible notice (once per change): the next prompt would fail on it. */
  private onAuthStatus(params: unknown): void {
    const status = authStatusFrom(params);
    if (!status || status.loggedOut === this.loggedOut) return;
    this.loggedOut = status.loggedOut;
    if (!status.loggedOut) return;
    const how = this.authMethods.find((a) => a.command)?.command ?? this.loginHint;
    const text = `The agent reports it is not logged in on this machine${status.label ? ` (${status.label})` : ""}.${how ? ` To log in, run there: ${how}` : ""}`;
    this.emit({ t: "session.notice", sessionId: this.sessionId, level: "warn", text });
  }

  private registerPermission(id: unknown, params: unknown): void {
    const p = isRecord(params) ? params : {};
    const toolCall = isRecord(p.toolCall) ? p.toolCall : {};
    const options = Array.isArray(p.options) ? p.options.filter((o) => PermissionOption.safeParse(o).success) : [];
    const pending: PendingPermission = {
      requestId: `perm-${randomUUID()}`,
      rpcKey: rpcKey(id),
      optionIds: options.map((o) => String((o as { optionId: unknown }).optionId)),
      answer: deferred<string | null>(),
    };
    this.permissions.set(pending.requestId, pending);
    this.permissionsByRpc.set(pending.rpcKey, pending);
    this.emit({
      t: "permission.request",
      sessionId: this.sessionId,
      requestId: pending.requestId,
      toolCall,
      options: options as PermissionOption[],
    });
  }

  /** A session-scoped form (claude's AskUserQuestion, an MCP server's question) goes to every viewer. */
  private registerElicitation(id: unknown, params: unknown): void {
    const p = isRecord(params) ? params : {};
    const schema = p.requestedSchema;
    if (p.mode !== "form" || p.sessionId !== this.agentSessionId || !isRecord(schema)) return;
    const pending: PendingElicitation = { requestId: `elicit-${randomUUID()}`, rpcKey: rpcKey(id), answer: deferred<ElicitationAnswer>() };
    this.elicitations.set(pending.requestId, pending);
    this.elicitationsByRpc.set(pending.rpcKey, pending);
    this.emit({
      t: "elicitation.request",
      sessionId: this.sessionId,
      requestId: pending.requestId,
      message: typeof p.message === "string" ? p.message : "",
      requestedSchema: schema,
      toolCallId: typeof p.toolCallId === "string" ? p.toolCallId : null,
    });
  }

  private cancelElicitation(e: PendingElicitation): void {
    if (!this.elicitations.delete(e.requestId)) return;
    e.answer.resolve({ action: "cancel" });
    this.emit({ t: "elicitation.cancelled", sessionId: this.sessionId, requestId: e.requestId });
  }

  /** The room checked the answer against the form; the first one settles it. */
  respondElicitation(requestId: string, action: ElicitationAction, content: ElicitationContent | undefined): void {
    const e = this.elicitations.get(requestId);
    if (!e) return; // already answered, cancelled or unknown: first answer won
    this.elicitations.delete(requestId);
    e.answer.resolve(action === "accept" ? { action, content: content ?? {} } : { action });
  }

  private settlePermission(p: PendingPermission, optionId: string | null): void {
    this.permissions.delete(p.requestId);
    p.answer.resolve(optionId);
  }

  private cancelPermission(p: PendingPermission): void {
    if (!this.permissions.has(p.requestId)) return;
    this.settlePermission(p, null);
    this.emit({ t: "permission.cancelled", sessionId: this.sessionId, requestId: p.requestId });
  }

  /** Permission requests and forms: nobody can answer them usefully any more (turn end, cancel, exit). */
  private cancelAllPermissions(): void {
    for (const p of [...this.permissions.values()]) this.cancelPermission(p);
    for (const e of [...this.elicitations.values()]) this.cancelElicitation(e);
  }

  private applyConfig(next: AgentConfig | null): void {
    if (!next || !this.config || sameConfig(this.config, next)) return;
    this.config = next;
    this.emit({ t: "config.state", sessionId: this.sessionId, config: next });
  }

  // ------------------------------------------------------------------ commands

  private readyConn(command: string): acp.ClientConnection | null {
    if (this.state !== "ready" || !this.conn || !this.agentSessionId) {
      this.commandFailed(command, this.state === "opening" ? "session is still starting" : `session is ${this.state}`);
      return null;
    }
    return this.conn;
  }

  /** Resolves once no replayed update has arrived for `replayQuietMs` (bounded by `replaySettleMaxMs`). */
  private async replaySettled(): Promise<void> {
    const { replayQuietMs, replaySettleMaxMs } = this.deps.timeouts;
    const start = Date.now();
    this.lastReplayAt = Math.max(this.lastReplayAt, start);
    while (this.live && Date.now() - start < replaySettleMaxMs) {
      const quietFor = Date.now() - this.lastReplayAt;
      if (quietFor >= replayQuietMs) return;
      await delay(replayQuietMs - quietFor);
    }
  }

  private endReplay(): void {
    if (!this.replaying) return;
    this.replaying = false;
    this.deps.log.info(`session ${this.sessionId}: ${this.replayedDropped} replayed history updates not relayed`);
  }

  prompt(turnId: string, blocks: PromptBlock[]): void {
    const conn = this.readyConn("prompt");
    if (!conn) return;
    if (this.turn) return this.commandFailed("prompt", `a turn is already running (${this.turn.turnId})`);
    this.endReplay();
    const turn: Turn = { turnId, cancelTimer: null };
    this.turn = turn;
    this.emit({ t: "turn.started", sessionId: this.sessionId, turnId });
    conn.agent.request(acp.methods.agent.session.prompt, { sessionId: this.agentSessionId!, prompt: blocks as acp.ContentBlock[] }).then(
      (res: unknown) => {
        const stopReason = isRecord(res) && typeof res.stopReason === "string" && res.stopReason ? res.stopReason : "end_turn";
        this.endTurn(turn, stopReason, null);
      },
      async (err: unknown) => {
        if (!(err instanceof acp.RequestError) && this.proc) {
          await Promise.race([this.proc.exited, delay(this.deps.timeouts.exitWaitMs)]);
          if (this.proc.hasExited()) return this.endTurn(turn, "error", this.exitMessage());
        }
        this.endTurn(turn, "error", rpcErrorText(err));
      },
    );
  }

  private endTurn(turn: Turn, stopReason: string, error: string | null): void {
    if (this.turn !== turn) return; // already ended (forced after cancel, crash, close)
    this.turn = null;
    if (turn.cancelTimer) clearTimeout(turn.cancelTimer);
    // A request the agent abandoned at turn end can no longer be answered usefully.
    this.cancelAllPermissions();
    this.permissionsByRpc.clear(); // requests the agent abandoned without the SDK handler ever running
    this.elicitationsByRpc.clear();
    this.emit({ t: "turn.ended", sessionId: this.sessionId, turnId: turn.turnId, stopReason, error });
  }

  cancel(): void {
    const turn = this.turn;
    if (!turn || !this.conn || !this.agentSessionId) return;
    this.cancelAllPermissions();
    this.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId: this.agentSessionId }).catch(() => {});
    if (!turn.cancelTimer) {
      turn.cancelTimer = setTimeout(() => {
        this.deps.log.warn(`session ${this.sessionId}: agent did not end the turn after cancel; ending it`);
        this.endTurn(turn, "cancelled", "the agent did not confirm the cancel in time");
      }, this.deps.timeouts.cancelForceMs);
    }
  }

  respondPermission(requestId: string, optionId: string | null): void {
    const p = this.permissions.get(requestId);
    if (!p) return; // already answered, cancelled or unknown: first answer won
    if (optionId === null) return this.cancelPermission(p);
    if (p.optionIds.length && !p.optionIds.includes(optionId))
      return this.commandFailed("permission.respond", `unknown option ${optionId}`);
    this.settlePermission(p, optionId);
  }

  async setConfig(configId: string, value: string | boolean): Promise<void> {
    const conn = this.readyConn("config.set");
    if (!conn) return;
    try {
      const res: unknown = await withTimeout(conn.agent.request(acp.methods.agent.session.setConfigOption, setOptionParams(this.agentSessionId!, configId, value)), this.deps.timeouts.requestMs, "session/set_config_option");
      if (this.config) this.applyConfig(configAfterSetOption(this.config, res, configId, value));
    } catch (err) {
      if (this.live) this.commandFailed("config.set", rpcErrorText(err));
    }
  }

  async setMode(modeId: string): Promise<void> {
    const conn = this.readyConn("mode.set");
    if (!conn) return;
    if (this.config && !this.config.modes) return this.commandFailed("mode.set", "this agent has no modes");
    try {
      await withTimeout(conn.agent.request(acp.methods.agent.session.setMode, { sessionId: this.agentSessionId!, modeId }), this.deps.timeouts.requestMs, "session/set_mode");
      if (this.config) this.applyConfig(configAfterSetMode(this.config, modeId));
    } catch (err) {
      if (this.live) this.commandFailed("mode.set", rpcErrorText(err));
    }
  }

  async setModel(modelId: string): Promise<void> {
    const conn = this.readyConn("model.set");
    if (!conn) return;
    if (!this.config?.models) return this.commandFailed("model.set", "this agent has no legacy model list; use config.set");
    try {
      await withTimeout(conn.agent.request(SET_MODEL_METHOD, { sessionId: this.agentSessionId!, modelId }), this.deps.timeouts.requestMs, SET_MODEL_METHOD);
      this.applyConfig(configAfterSetModel(this.config, modelId));
    } catch (err) {
      if (this.live) this.commandFailed("model.set", rpcErrorText(err));
    }
  }

  async steer(entryId: string, blocks: PromptBlock[]): Promise<void> {
    const result = (outcome: Extract<DaemonEvent, { t: "steer.result" }>["outcome"]) =>
      this.emit({ t: "steer.result", sessionId: this.sessionId, entryId, outcome });
    if (this.state !== "ready" || !this.conn || !this.agentSessionId || !this.config?.steering) return result("failed");
    try {
      const res: unknown = await withTimeout(
        this.conn.agent.request(STEERING_METHOD, { sessionId: this.agentSessionId, prompt: blocks }),
        this.deps.timeouts.steerMs,
        STEERING_METHOD,
      );
      const outcome = isRecord(res) ? res.outcome : undefined;
      switch (outcome) {
        case "injected":
        case "startedNewTurn":
        case "promptRequired":
          return result(outcome);
        default:
          return result("failed");
      }
    } catch (err) {
      // The agent said no → failed; no answer (timeout, connection lost) → we cannot know.
      result(err instanceof acp.RequestError ? "failed" : "indeterminate");
    }
  }

  // ------------------------------------------------------------------ end of life

  private exitMessage(): string {
    const info = this.lastExit ?? { code: null, signal: null };
    const tail = this.proc?.stderrTail().slice(-1)[0];
    const text = tail ? `${describeExit(info)}: ${tail}` : describeExit(info);
    return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS - 1)}…` : text;
  }

  private lastExit: ExitInfo | null = null;

  private onExit(info: ExitInfo): void {
    this.lastExit = info;
    if (!this.live) return;
    const message = this.exitMessage();
    this.deps.log.warn(`session ${this.sessionId}: ${message}`);
    this.cancelAllPermissions();
    if (this.turn) this.endTurn(this.turn, "error", message);
    this.fail(message);
  }

  private fail(message: string, authMethods: AuthMethod[] = this.authMethods): void {
    if (!this.live) return;
    this.state = "failed";
    this.cancelAllPermissions();
    if (this.turn) this.endTurn(this.turn, "error", message);
    this.emit({ t: "session.failed", sessionId: this.sessionId, message, ...(authMethods.length ? { authMethods } : {}) });
    this.conn?.close();
    void this.proc?.kill();
  }

  async close(): Promise<void> {
    const wasLive = this.live;
    this.state = "closed";
    if (wasLive) {
      this.cancelAllPermissions();
      if (this.turn) {
        const turn = this.turn;
        this.turn = null;
        if (turn.cancelTimer) clearTimeout(turn.cancelTimer);
        this.emit({ t: "turn.ended", sessionId: this.sessionId, turnId: turn.turnId, stopReason: "cancelled", error: "session closed" });
      }
    }
    this.conn?.close();
    await this.proc?.kill();
  }
}

type DaemonUpdate = Extract<DaemonEvent, { t: "session.update" }>["update"];

function setOptionParams(sessionId: string, configId: string, value: string | boolean): acp.SetSessionConfigOptionRequest {
  return typeof value === "boolean" ? { sessionId, configId, type: "boolean", value } : { sessionId, configId, value };
}
