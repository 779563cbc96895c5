// Sits between the daemon and an agent process and records the ACP traffic, so a test can check what the
// agent itself received. Usage: node stdio-recorder.mjs LOG_DIR -- COMMAND [ARGS...]
// Writes LOG_DIR/<pid>.jsonl: one {dir: "toAgent" | "fromAgent", t, msg} per NDJSON line, in the order the
// recorder saw them (a reply is logged before it is forwarded, so the log order is causal).
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

const [logDir, sep, command, ...args] = process.argv.slice(2);
if (!logDir || sep !== "--" || !command) {
  process.stderr.write("usage: stdio-recorder.mjs LOG_DIR -- COMMAND [ARGS...]\n");
  process.exit(2);
}
mkdirSync(logDir, { recursive: true });
const logFile = join(logDir, `${process.pid}.jsonl`);
const record = (dir, line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    msg = { unparsed: line };
  }
  appendFileSync(logFile, JSON.stringify({ dir, t: Date.now(), msg }) + "\n");
};

const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
child.stdin.on("error", () => {});
createInterface({ input: process.stdin }).on("line", (line) => {
  record("toAgent", line);
  child.stdin.write(line + "\n");
}).on("close", () => child.stdin.end());
createInterface({ input: child.stdout }).on("line", (line) => {
  record("fromAgent", line);
  process.stdout.write(line + "\n");
});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => child.kill(sig));
