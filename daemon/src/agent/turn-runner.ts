/**
 * A session's one running turn: `session/prompt` sent, `turn.started` / `turn.ended` emitted around it.
 * Invariant: at most one turn; it ends exactly once (the agent's answer, its error, a forced end after an
 * unanswered cancel, the process dying, or the session closing — whichever comes first).
 */
import * as acp from "@agentclientprotocol/sdk";
import type { PromptBlock } from "../../../shared/blocks";
import type { DaemonEvent } from "../../../shared/tunnel-protocol";
import { isRecord } from "./acp-tap";
import { rpcErrorText } from "./agent-rpc";
import type { Logger } from "../log";

/** `cancelled`: Stop came before the prompt was sent (during the start snapshot); `snapped`: the start tree was taken. */
type Turn = { turnId: string; cancelTimer: NodeJS.Timeout | null; cancelled: boolean; snapped: boolean };

/** Turn ids remembered after they end: a room reset mid-forward sends its prompt again only moments later. */
const RECENT_TURN_IDS = 32;

export type TurnDeps = {
  sessionId: string;
  emit(e: DaemonEvent): void;
  log: Logger;
  /** After session/cancel, how long the agent gets to end the turn before the daemon ends it itself. */
  cancelForceMs: number;
  /** The prompt request failed without an agent error: the process's exit, if it died (the better reason). */
  exitReason(): Promise<string | null>;
  /** Runs as a turn ends (requests the agent abandoned can no longer be answered usefully). */
  onEnd(): void;
  /**
   * Issue 28 #2: the worktree as a git tree (turn-snapshot.ts), taken before the prompt is sent and after the
   * agent answered (`turn.tree`); null: no snapshot for this session. Absent: none taken, the prompt goes at once.
   */
  snapshot?(): Promise<string | null>;
};

export class TurnRunner {
  private turn: Turn | null = null;
  private readonly recent: string[] = [];

  constructor(private readonly deps: TurnDeps) {}

  get busy(): boolean {
    return this.turn !== null;
  }

  get turnId(): string | null {
    return this.turn?.turnId ?? null;
  }

  /** This turn is running or ran lately: a prompt naming it again is the same prompt forwarded twice. */
  has(turnId: string): boolean {
    return this.turn?.turnId === turnId || this.recent.includes(turnId);
  }

  /** Sends the prompt; the turn ends when the agent answers (the caller checked no turn is running). */
  start(conn: acp.ClientConnection, agentSessionId: string, turnId: string, blocks: PromptBlock[]): void {
    const turn: Turn = { turnId, cancelTimer: null, cancelled: false, snapped: false };
    this.turn = turn;
    this.recent.push(turnId);
    if (this.recent.length > RECENT_TURN_IDS) this.recent.shift();
    this.deps.emit({ t: "turn.started", sessionId: this.deps.sessionId, turnId });
    const snapshot = this.deps.snapshot;
    if (!snapshot) return this.send(conn, agentSessionId, turn, blocks);
    // The start snapshot before the agent sees the prompt: the turn's changes are everything after it.
    void snapshot().then((tree) => {
      if (this.turn !== turn) return; // ended meanwhile (closed, failed, forced after a cancel)
      if (tree) {
        turn.snapped = true;
        this.deps.emit({ t: "turn.tree", sessionId: this.deps.sessionId, turnId, edge: "start", tree });
      }
      if (turn.cancelled) return this.end(turn, "cancelled", null);
      this.send(conn, agentSessionId, turn, blocks);
    });
  }

  private send(conn: acp.ClientConnection, agentSessionId: string, turn: Turn, blocks: PromptBlock[]): void {
    conn.agent.request(acp.methods.agent.session.prompt, { sessionId: agentSessionId, prompt: blocks as acp.ContentBlock[] }).then(
      (res: unknown) => {
        const stopReason = isRecord(res) && typeof res.stopReason === "string" && res.stopReason ? res.stopReason : "end_turn";
        this.end(turn, stopReason, null);
      },
      async (err: unknown) => {
        if (!(err instanceof acp.RequestError)) {
          const exit = await this.deps.exitReason();
          if (exit !== null) return this.end(turn, "error", exit);
        }
        this.end(turn, "error", rpcErrorText(err));
      },
    );
  }

  /** session/cancel; the agent should end the turn itself, else it is ended after `cancelForceMs`. */
  cancel(conn: acp.ClientConnection, agentSessionId: string): void {
    const turn = this.turn;
    if (!turn) return;
    turn.cancelled = true;
    conn.agent.notify(acp.methods.agent.session.cancel, { sessionId: agentSessionId }).catch(() => {});
    if (turn.cancelTimer) return;
    turn.cancelTimer = setTimeout(() => {
      this.deps.log.warn(`session ${this.deps.sessionId}: agent did not end the turn after cancel; ending it`);
      this.end(turn, "cancelled", "the agent did not confirm the cancel in time");
    }, this.deps.cancelForceMs);
  }

  /** Ends the running turn, if any, as failed (the process died, the session failed). */
  fail(message: string): void {
    if (this.turn) this.end(this.turn, "error", message);
  }

  /** The session is closing: the running turn, if any, ends as cancelled. */
  close(): void {
    const turn = this.turn;
    if (!turn) return;
    this.turn = null;
    if (turn.cancelTimer) clearTimeout(turn.cancelTimer);
    this.deps.emit({ t: "turn.ended", sessionId: this.deps.sessionId, turnId: turn.turnId, stopReason: "cancelled", error: "session closed" });
  }

  private end(turn: Turn, stopReason: string, error: string | null): void {
    if (this.turn !== turn) return; // already ended (forced after cancel, crash, close)
    this.turn = null;
    if (turn.cancelTimer) clearTimeout(turn.cancelTimer);
    this.deps.onEnd();
    this.deps.emit({ t: "turn.ended", sessionId: this.deps.sessionId, turnId: turn.turnId, stopReason, error });
    if (turn.snapped && this.deps.snapshot)
      void this.deps.snapshot().then((tree) => {
        if (tree) this.deps.emit({ t: "turn.tree", sessionId: this.deps.sessionId, turnId: turn.turnId, edge: "end", tree });
      });
  }
}
