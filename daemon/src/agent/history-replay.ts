/**
 * The agent's history replay after `session/load`, kept from the viewers: the room already holds that transcript.
 * Invariant: while `active`, history kinds are dropped (counted); the replay is over at the first prompt, not at
 * the load's answer (Gemini 0.61 answers first and streams the history after).
 */
import type { Logger } from "../log";
import { untilQuiet } from "../timing";
import { TRANSCRIPT_UPDATE_KINDS } from "../../../shared/acp-update-kinds";

export class HistoryReplay {
  private active = false;
  private dropped = 0;
  private lastAt = 0;

  constructor(
    private readonly sessionId: string,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.active = true;
  }

  /** True when this update is replayed history (the caller drops it). */
  drops(sessionUpdate: string): boolean {
    // The conversation is replayed (ACP requires it); live kinds (mode, config options, commands, usage, title) still pass.
    if (!this.active || !TRANSCRIPT_UPDATE_KINDS.has(sessionUpdate)) return false;
    this.dropped++;
    this.lastAt = Date.now();
    return true;
  }

  /** Resolves once no replayed update has arrived for `quietMs` (bounded by `maxMs`, or sooner when `live()` turns false). */
  settled(quietMs: number, maxMs: number, live: () => boolean): Promise<void> {
    return untilQuiet(() => this.lastAt, quietMs, maxMs, live);
  }

  end(): void {
    if (!this.active) return;
    this.active = false;
    this.log.info(`session ${this.sessionId}: ${this.dropped} replayed history updates not relayed`);
  }
}
