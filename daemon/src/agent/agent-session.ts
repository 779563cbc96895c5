/**
 * One Baton session = one agent subprocess + one ACP client connection over its stdio.
 * Turns MachineCommands for this session into ACP calls and the agent's traffic into DaemonEvents. It owns the
 * process, the connection and the session's lifecycle (open → ready → failed / closed) and composes the rest:
 * the running turn (turn-runner.ts), steering (steer.ts), the agent's questions to a person (agent-requests.ts),
 * the config and its writes / re-apply (session-config.ts), login state (session-auth.ts) and the history replay
 * after a load (history-replay.ts).
 */
import * as acp from "@agentclientprotocol/sdk";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import type { PromptBlock } from "../../../shared/blocks";
import type { AgentCapabilities, AgentConfig, DaemonEvent, SessionSettings } from "../../../shared/tunnel-protocol";
import type { AuthMethod, ElicitationAction, ElicitationContent } from "../../../shared/viewer-protocol";
import { isRecord, messageKind, tappedStdioStream, type TapVerdict } from "./acp-tap";
import { capabilitiesFrom, initialAgentConfig } from "./agent-config";
import { describeExit, spawnAgent, type AgentProcess, type ExitInfo, type LaunchSpec } from "./agent-process";
import { AgentRequests } from "./agent-requests";
import { AUTH_STATUS_METHOD, clipError, rpcErrorText } from "./agent-rpc";
import { HistoryReplay } from "./history-replay";
import { HistoryRelay } from "./history-relay";
import { errorMessage, type Logger } from "../log";
import { SessionAuth } from "./session-auth";
import { type ConfigWrite, SessionConfig } from "./session-config";
import type { SessionTimeouts } from "./session-timeouts";
import { steer } from "./steer";
import { TimeoutError, delay, withTimeout } from "../timing";
import { TurnRunner } from "./turn-runner";
import { DAEMON_VERSION } from "../version";

export type SessionDeps = {
  emit(e: DaemonEvent): void;
  /** What the agent showed it can do, after each successful open. */
  learnt?(agentId: string, capabilities: AgentCapabilities): void;
  log: Logger;
  timeouts: SessionTimeouts;
  /** Issue 28 #2: a snapshot of `cwd` as a git tree at each turn's edges (turn-snapshot.ts); null: none. */
  snapshot?(cwd: string): Promise<string | null>;
};

export type SessionState = "opening" | "ready" | "failed" | "closed";

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

type DaemonUpdate = Extract<DaemonEvent, { t: "session.update" }>["update"];

export class AgentSession {
  state: SessionState = "opening";
  agentSessionId: string | null = null;
  private proc: AgentProcess | null = null;
  private conn: acp.ClientConnection | null = null;
  private resumed = false;
  private lastExit: ExitInfo | null = null;
  private readonly settings: SessionConfig;
  private readonly auth: SessionAuth;
  private readonly requests: AgentRequests;
  private readonly turns: TurnRunner;
  private readonly replay: HistoryReplay;
  /** Issue 26: an import's history, relayed once (the opposite of `replay`, which drops it on a reattach). */
  private readonly relay: HistoryRelay;

  constructor(
    readonly sessionId: string,
    readonly agentId: string,
    readonly cwd: string,
    private readonly launch: LaunchSpec,
    private readonly deps: SessionDeps,
    /** The preset's login command, for auth methods without a `terminal-auth` hint of their own. */
    private readonly loginHint: string | null = null,
  ) {
    const emit = (e: DaemonEvent) => this.deps.emit(e);
    this.settings = new SessionConfig(sessionId, emit, deps.log, deps.timeouts.requestMs);
    this.auth = new SessionAuth(loginHint);
    this.requests = new AgentRequests(sessionId, emit, () => this.agentSessionId);
    this.replay = new HistoryReplay(sessionId, deps.log);
    this.relay = new HistoryRelay(sessionId, emit);
    const snapshot = deps.snapshot;
    this.turns = new TurnRunner({
      sessionId,
      emit,
      log: deps.log,
      cancelForceMs: deps.timeouts.cancelForceMs,
      exitReason: () => this.exitReasonIfDied(),
      onEnd: () => this.requests.turnEnded(),
      ...(snapshot ? { snapshot: () => snapshot(this.cwd) } : {}),
    });
  }

  get config(): AgentConfig | null {
    return this.settings.current;
  }

  get busy(): boolean {
    return this.turns.busy;
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

  /** `history`: what becomes of a load's replay — "drop" (reattach) or "relay" (import; an unknown id then fails). */
  async open(agentSessionId: string | null | undefined, restore?: SessionSettings | null, history: "drop" | "relay" = "drop"): Promise<void> {
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
    const app = acp
      .client({ name: "baton-daemon" })
      .onRequest(acp.methods.client.session.requestPermission, async ({ requestId, signal }) => ({
        outcome: await this.requests.answerPermission(requestId, signal),
      }))
      .onRequest(acp.methods.client.elicitation.create, ({ requestId, signal }) => this.requests.answerElicitation(requestId, signal));
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
      this.auth.fromInitialize(init);
      const caps = isRecord(init) && isRecord(init.agentCapabilities) ? init.agentCapabilities : {};
      let sessionResult: unknown = null;
      const resumeAdvertised = isRecord(caps.sessionCapabilities) && isRecord(caps.sessionCapabilities.resume);
      const reattach =
        caps.loadSession === true ? acp.methods.agent.session.load : resumeAdvertised ? acp.methods.agent.session.resume : null;
      if (agentSessionId && history === "relay" && !reattach) throw new Error("this agent cannot load its past sessions (no session/load or session/resume)");
      if (agentSessionId && reattach) {
        try {
          const params = { sessionId: agentSessionId, cwd: this.cwd, mcpServers: [] };
          const loading = reattach === acp.methods.agent.session.load;
          const relaying = history === "relay";
          if (loading) (relaying ? this.relay : this.replay).start();
          sessionResult = await withTimeout(conn.agent.request(reattach, params), t, reattach);
          this.agentSessionId = agentSessionId;
          this.resumed = true;
          const { replayQuietMs, replaySettleMaxMs } = this.deps.timeouts;
          if (loading) await (relaying ? this.relay : this.replay).settled(replayQuietMs, replaySettleMaxMs, () => this.live);
          if (relaying) log.info(`session ${this.sessionId}: imported agent session ${agentSessionId} (${this.relay.end()} history updates relayed)`);
          else log.info(`session ${this.sessionId}: resumed agent session ${agentSessionId}`);
        } catch (err) {
          this.replay.end();
          this.relay.end();
          // An import of a session the agent does not know fails: starting fresh would pass for the import.
          if (history === "relay" && this.live && err instanceof acp.RequestError)
            throw new acp.RequestError(err.code, `the agent could not open its session ${agentSessionId}: ${rpcErrorText(err)}`);
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
      this.settings.current = initialAgentConfig(init, sessionResult, this.loginHint);
      this.deps.learnt?.(this.agentId, capabilitiesFrom(init, sessionResult));
      const notices =
        this.resumed && restore && this.agentSessionId
          ? await this.settings.reapply(conn, this.agentSessionId, restore, () => this.live)
          : [];
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
      this.fail(proc.hasExited() ? this.exitMessage() : rpcErrorText(err), this.auth.methodsFor(err));
    }
  }

  readyEvent(): DaemonEvent {
    return {
      t: "session.ready",
      sessionId: this.sessionId,
      agentSessionId: this.agentSessionId ?? "",
      config: this.settings.forReady,
      resumed: this.resumed,
    };
  }

  // ------------------------------------------------------------------ agent → daemon

  /** Every message the agent sends, in wire order, before the SDK sees it. */
  private onAgentMessage(m: AnyMessage): TapVerdict {
    if (!this.live) return "pass";
    const kind = messageKind(m);
    if (kind === "notification" && "method" in m && m.method === acp.methods.client.session.update) {
      const update = isRecord(m.params) ? m.params.update : undefined;
      if (isRecord(update) && typeof update.sessionUpdate === "string") {
        if (this.replay.drops(update.sessionUpdate)) return "drop";
        if (this.relay.take({ sessionUpdate: update.sessionUpdate, content: update.content })) return "drop";
        this.emit({ t: "session.update", sessionId: this.sessionId, update: update as DaemonUpdate });
        this.settings.onUpdate(update);
      } else {
        this.deps.log.debug(`session ${this.sessionId}: ignored a malformed session/update`);
      }
      return "drop"; // relayed raw; the SDK's typed handler would only re-validate it
    }
    if (kind === "notification" && "method" in m && m.method === AUTH_STATUS_METHOD) {
      const text = this.auth.noticeFor(m.params);
      if (text) this.emit({ t: "session.notice", sessionId: this.sessionId, level: "warn", text });
      return "drop";
    }
    if (kind === "request" && "method" in m && m.method === acp.methods.client.elicitation.create && "id" in m) {
      this.requests.registerElicitation(m.id, m.params);
    }
    if (kind === "request" && "method" in m && m.method === acp.methods.client.session.requestPermission && "id" in m) {
      this.requests.registerPermission(m.id, m.params);
    }
    return "pass";
  }

  // ------------------------------------------------------------------ commands

  private ready(command: string): { conn: acp.ClientConnection; agentSessionId: string } | null {
    if (this.state !== "ready" || !this.conn || !this.agentSessionId) {
      this.commandFailed(command, this.state === "opening" ? "session is still starting" : `session is ${this.state}`);
      return null;
    }
    return { conn: this.conn, agentSessionId: this.agentSessionId };
  }

  prompt(turnId: string, blocks: PromptBlock[]): void {
    // The room forwards a prompt again (same turn id) when it cannot know the first one arrived: run it once.
    if (this.turns.has(turnId)) return this.deps.log.info(`prompt for turn ${turnId} already started; ignored`);
    const r = this.ready("prompt");
    if (!r) return;
    if (this.turns.busy) return this.commandFailed("prompt", `a turn is already running (${this.turns.turnId})`);
    this.replay.end();
    this.turns.start(r.conn, r.agentSessionId, turnId, blocks);
  }

  cancel(): void {
    if (!this.turns.busy || !this.conn || !this.agentSessionId) return;
    this.requests.cancelAll();
    this.turns.cancel(this.conn, this.agentSessionId);
  }

  respondPermission(requestId: string, optionId: string | null): void {
    this.requests.respondPermission(requestId, optionId);
  }

  respondElicitation(requestId: string, action: ElicitationAction, content: ElicitationContent | undefined): void {
    this.requests.respondElicitation(requestId, action, content);
  }

  setConfig(configId: string, value: string | boolean): Promise<void> {
    return this.writeConfig("config.set", { kind: "option", configId, value });
  }

  setMode(modeId: string): Promise<void> {
    return this.writeConfig("mode.set", { kind: "mode", modeId });
  }

  setModel(modelId: string): Promise<void> {
    return this.writeConfig("model.set", { kind: "model", modelId });
  }

  private async writeConfig(command: string, write: ConfigWrite): Promise<void> {
    const r = this.ready(command);
    if (!r) return;
    const refused = this.settings.refusal(write);
    if (refused) return this.commandFailed(command, refused);
    try {
      await this.settings.write(r.conn, r.agentSessionId, write);
    } catch (err) {
      if (this.live) this.commandFailed(command, rpcErrorText(err));
    }
  }

  async steer(entryId: string, blocks: PromptBlock[]): Promise<void> {
    const { conn, agentSessionId } = this;
    const steerable = this.state === "ready" && conn && agentSessionId && this.config?.steering;
    const outcome = steerable ? await steer(conn, agentSessionId, blocks, this.deps.timeouts.steerMs) : "failed";
    this.emit({ t: "steer.result", sessionId: this.sessionId, entryId, outcome });
  }

  // ------------------------------------------------------------------ end of life

  private exitMessage(): string {
    const info = this.lastExit ?? { code: null, signal: null };
    const tail = this.proc?.stderrTail().slice(-1)[0];
    return clipError(tail ? `${describeExit(info)}: ${tail}` : describeExit(info));
  }

  /** After a request failed without an agent error: the exit message if the process died (waits briefly for it). */
  private async exitReasonIfDied(): Promise<string | null> {
    if (!this.proc) return null;
    await Promise.race([this.proc.exited, delay(this.deps.timeouts.exitWaitMs)]);
    return this.proc.hasExited() ? this.exitMessage() : null;
  }

  private onExit(info: ExitInfo): void {
    this.lastExit = info;
    if (!this.live) return;
    const message = this.exitMessage();
    this.deps.log.warn(`session ${this.sessionId}: ${message}`);
    this.requests.cancelAll();
    this.turns.fail(message);
    this.fail(message);
  }

  private fail(message: string, authMethods: AuthMethod[] = this.auth.methods): void {
    if (!this.live) return;
    this.state = "failed";
    this.requests.cancelAll();
    this.turns.fail(message);
    this.emit({ t: "session.failed", sessionId: this.sessionId, message, ...(authMethods.length ? { authMethods } : {}) });
    this.conn?.close();
    void this.proc?.kill();
  }

  async close(): Promise<void> {
    const wasLive = this.live;
    this.state = "closed";
    if (wasLive) {
      this.requests.cancelAll();
      this.turns.close();
    }
    this.conn?.close();
    await this.proc?.kill();
  }
}
