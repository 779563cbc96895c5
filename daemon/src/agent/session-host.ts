/** The ACP host: routes MachineCommands to per-session agent processes; every outcome becomes a DaemonEvent. */
import type { z } from "zod";
import { assertNever } from "../../../shared/assert-never";
import type { AgentCapabilities, DaemonEvent, DaemonSession, MachineCommand } from "../../../shared/tunnel-protocol";
import type { ResolvedAgent } from "./agent-presets";
import { AgentSession } from "./agent-session";
import { DEFAULT_TIMEOUTS, type SessionTimeouts } from "./session-timeouts";
import { checkCwd } from "../allowed-roots";
import { errorMessage, silentLogger, type Logger } from "../log";

export type SessionHostOptions = {
  agents: readonly ResolvedAgent[];
  /** Real paths (see resolveRoots); a session's cwd must be inside one. */
  roots: readonly string[];
  emit(e: DaemonEvent): void;
  log?: Logger;
  timeouts?: Partial<SessionTimeouts>;
  /** What an agent showed it can do after a session opened (see capabilitiesFrom). */
  learnt?(agentId: string, capabilities: AgentCapabilities): void;
  /** Local backstop on concurrent turns (the Machine DO enforces the real budget); null = none. */
  budget?: number | null;
  /** Issue 28 #2: each turn's worktree snapshots (daemon/src/git/turn-snapshot.ts). */
  snapshot?(cwd: string): Promise<string | null>;
};

export type SessionHost = {
  /** Hands a command over; never throws, never blocks on the agent. */
  handle(cmd: MachineCommand): void;
  liveSessions(): z.infer<typeof DaemonSession>[];
  activeTurns(): number;
  session(sessionId: string): AgentSession | undefined;
  closeAll(): Promise<void>;
};

export function createSessionHost(o: SessionHostOptions): SessionHost {
  const log = o.log ?? silentLogger;
  const timeouts: SessionTimeouts = { ...DEFAULT_TIMEOUTS, ...(o.timeouts ?? {}) };
  const sessions = new Map<string, AgentSession>();
  const emit = (e: DaemonEvent) => {
    try {
      o.emit(e);
    } catch (err) {
      log.error(`event sink failed: ${errorMessage(err)}`);
    }
  };
  const failed = (sessionId: string, command: string, message: string) => emit({ t: "command.failed", sessionId, command, message });
  const learnt = (agentId: string, caps: AgentCapabilities) => {
    try {
      o.learnt?.(agentId, caps);
    } catch (err) {
      log.error(`capability sink failed: ${errorMessage(err)}`);
    }
  };
  const activeTurns = () => [...sessions.values()].filter((s) => s.busy).length;

  function open(cmd: Extract<MachineCommand, { t: "session.open" }>): void {
    const existing = sessions.get(cmd.sessionId);
    if (existing?.live) {
      // A re-sent open (e.g. after the machine restarted): the session is already there.
      if (existing.state === "ready") emit(existing.readyEvent());
      return;
    }
    const agent = o.agents.find((a) => a.info.id === cmd.agentId);
    if (!agent) return emit({ t: "session.failed", sessionId: cmd.sessionId, message: `agent "${cmd.agentId}" is not available on this machine` });
    const cwd = checkCwd(cmd.cwd, o.roots);
    if (!cwd.ok) return emit({ t: "session.failed", sessionId: cmd.sessionId, message: cwd.message });
    const s = new AgentSession(cmd.sessionId, cmd.agentId, cwd.cwd, agent.launch, { emit, log, timeouts, learnt, ...(o.snapshot ? { snapshot: o.snapshot } : {}) }, agent.login ?? null);
    sessions.set(cmd.sessionId, s);
    log.info(`session ${cmd.sessionId}: starting ${cmd.agentId} in ${cwd.cwd}`);
    s.open(cmd.agentSessionId, cmd.restore, cmd.history ?? "drop").catch((err: unknown) => log.error(`session ${cmd.sessionId}: open crashed: ${errorMessage(err)}`));
  }

  function dispatch(cmd: MachineCommand): void {
    if (cmd.t === "session.open") return open(cmd);
    const s = sessions.get(cmd.sessionId);
    if (!s) {
      if (cmd.t === "session.close" || cmd.t === "permission.respond" || cmd.t === "elicitation.respond") return; // nothing to do
      if (cmd.t === "steer") return emit({ t: "steer.result", sessionId: cmd.sessionId, entryId: cmd.entryId, outcome: "failed" });
      return failed(cmd.sessionId, cmd.t, "no such session on this machine");
    }
    switch (cmd.t) {
      case "prompt":
        if (o.budget && !s.busy && activeTurns() >= o.budget) return failed(cmd.sessionId, cmd.t, "MACHINE_BUSY: local turn budget reached");
        return s.prompt(cmd.turnId, cmd.blocks);
      case "cancel":
        return s.cancel();
      case "config.set":
        return void s.setConfig(cmd.configId, cmd.value);
      case "mode.set":
        return void s.setMode(cmd.modeId);
      case "model.set":
        return void s.setModel(cmd.modelId);
      case "permission.respond":
        return s.respondPermission(cmd.requestId, cmd.optionId);
      case "elicitation.respond":
        return s.respondElicitation(cmd.requestId, cmd.action, cmd.content);
      case "steer":
        return void s.steer(cmd.entryId, cmd.blocks);
      case "session.close":
        sessions.delete(cmd.sessionId);
        log.info(`session ${cmd.sessionId}: closed`);
        return void s.close();
      default:
        return assertNever(cmd);
    }
  }

  return {
    handle(cmd) {
      try {
        dispatch(cmd);
      } catch (err) {
        log.error(`command ${cmd.t} failed: ${errorMessage(err)}`);
        failed(cmd.sessionId, cmd.t, errorMessage(err));
      }
    },
    liveSessions() {
      return [...sessions.values()]
        .filter((s) => s.live)
        .map((s) => ({ sessionId: s.sessionId, agentId: s.agentId, agentSessionId: s.agentSessionId ?? "", cwd: s.cwd, busy: s.busy }));
    },
    activeTurns,
    session: (id) => sessions.get(id),
    async closeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map((s) => s.close().catch(() => {})));
    },
  };
}
