/** `baton` CLI entry (loaded by bin/baton.mjs through tsx). */
import { detectAgents } from "./agent-presets";
import { USAGE, UsageError, parseCli } from "./cli-args";
import { startDaemon } from "./index";
import { errorMessage } from "./log";
import { DAEMON_VERSION } from "./version";

async function main(argv: readonly string[]): Promise<number | null> {
  let cmd;
  try {
    cmd = parseCli(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`baton: ${err.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw err;
  }
  switch (cmd.kind) {
    case "help":
      process.stdout.write(`${USAGE}\n`);
      return 0;
    case "version":
      process.stdout.write(`${DAEMON_VERSION}\n`);
      return 0;
    case "agents": {
      const agents = detectAgents({ custom: cmd.options.customAgents, only: cmd.options.agents });
      for (const a of agents) process.stdout.write(`${a.info.id.padEnd(10)} ${a.info.label.padEnd(16)} ${[a.launch.command, ...a.launch.args].join(" ")}\n`);
      return 0;
    }
    case "daemon": {
      const daemon = await startDaemon(cmd.options);
      // Bad input must never take the daemon (and its running turns) down: log and carry on.
      process.on("uncaughtException", (err) => daemon.log.error(`uncaught: ${errorMessage(err)}`));
      process.on("unhandledRejection", (err) => daemon.log.error(`unhandled rejection: ${errorMessage(err)}`));
      let signals = 0;
      const onSignal = (sig: NodeJS.Signals) => {
        if (++signals > 1) process.exit(1); // second Ctrl-C: do not wait
        daemon.log.info(`${sig}: stopping agents and closing the tunnel`);
        void daemon.stop().then(() => process.exit(0));
      };
      process.on("SIGINT", onSignal);
      process.on("SIGTERM", onSignal);
      return null; // keep running
    }
    default:
      return null;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== null) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`baton: ${errorMessage(err)}\n`);
    process.exit(1);
  },
);
