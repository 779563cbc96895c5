/** How long a session waits on its agent, per kind of wait (tests shorten them). */
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
