/** The `baton` CLI to spawn: `daemon/bin/baton.mjs` (tsx), or the bundle BATON_DAEMON_BIN names. */
export const BATON_BIN: string;
