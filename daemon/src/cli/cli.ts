/** `baton` CLI entry (the npm package's bundled bin, or bin/baton.mjs through tsx in the repository). */
import fs from "node:fs";
import os from "node:os";
import { detectAgents } from "../agent/agent-presets";
import { UsageError, parseCli, usage } from "./cli-args";
import { readConfigFile } from "./config-file";
import { formatChecks, runDoctor } from "./doctor";
import { deviceCodeRequest } from "./host-info";
import { startDaemon } from "../index";
import { errorMessage } from "../log";
import { queryLinger } from "./linger";
import { login } from "./login";
import { runAttach } from "../attach/run-attach";
import { runService } from "./service";
import { DAEMON_VERSION } from "../version";

const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(argv: readonly string[]): Promise<number | null> {
  let cmd;
  try {
    cmd = parseCli(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`baton: ${err.message}\n\n${usage(err.command)}\n`);
      return 2;
    }
    throw err;
  }
  switch (cmd.kind) {
    case "help":
      process.stdout.write(`${usage(cmd.command)}\n`);
      return 0;
    case "version":
      process.stdout.write(`${DAEMON_VERSION}\n`);
      return 0;
    case "agents": {
      const agents = detectAgents({ custom: cmd.options.customAgents, only: cmd.options.agents });
      for (const a of agents) process.stdout.write(`${a.info.id.padEnd(10)} ${a.info.label.padEnd(16)} ${[a.launch.command, ...a.launch.args].join(" ")}\n`);
      return 0;
    }
    case "login": {
      const agents = cmd.user ? [] : detectAgents({ custom: cmd.options.customAgents, only: cmd.options.agents });
      const r = await login(cmd.server, cmd.configFile, { ...deviceCodeRequest(agents), ...(cmd.user ? { kind: "user" as const } : {}) }, { say });
      if (!r.ok) {
        process.stderr.write(`baton login: ${r.message}\n`);
        return 1;
      }
      if ("user" in r) {
        say(`\nSigned in as ${r.user.email}. The token is stored in ${r.configFile} (readable only by you); revoke it on the Machines page.`);
        say("Join a session from an editor or terminal:   baton attach <the session's URL>");
        return 0;
      }
      say(`\nPaired as "${r.machine.name}". The machine token is stored in ${r.configFile} (readable only by you).`);
      say("Start the daemon now:        baton daemon --root <dir where agents may work>");
      say("or run it at every login:    baton service install --root <dir>");
      return 0;
    }
    case "service": {
      if (cmd.action === "install" && !cmd.dryRun && !readConfigFile(cmd.configFile, false).token) {
        process.stderr.write(`baton service: no machine token in ${cmd.configFile}; run \`baton login <server-url>\` first (the service reads the token from there)\n`);
        return 1;
      }
      const spec = {
        node: process.execPath,
        // The script this process runs (the package's bin, through npm's symlink), as the service must run it.
        script: fs.realpathSync(process.argv[1]!),
        configFile: cmd.configFile,
        roots: cmd.options.roots ?? [process.cwd()],
        path: process.env.PATH ?? "/usr/bin:/bin",
        home: os.homedir(),
      };
      const user = os.userInfo().username;
      return runService(cmd.action, spec, { dryRun: cmd.dryRun, platform: process.platform, uid: process.getuid?.() ?? 0, user, linger: () => queryLinger(user) });
    }
    case "attach":
      return runAttach(cmd);
    case "doctor": {
      say(`baton ${DAEMON_VERSION}`);
      const checks = await runDoctor(cmd.options, cmd.configFile);
      say(formatChecks(checks));
      return checks.every((c) => c.ok) ? 0 : 1;
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
