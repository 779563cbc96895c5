// The `baton` CLI that local stacks and tests spawn: the repository's sources through tsx, or a bundle named by
// BATON_DAEMON_BIN (npm test builds one per run with `build-daemon.mjs --out`, so no spawned daemon pays for tsx).
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export const BATON_BIN = process.env.BATON_DAEMON_BIN || join(ROOT, "daemon", "bin", "baton.mjs");
