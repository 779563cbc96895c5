/** `baton service install | uninstall | status`: writes / removes the unit or agent file and runs the service manager. */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { lingerAdvice, type LingerState } from "./linger";
import {
  renderLaunchdPlist,
  renderSystemdUnit,
  serviceCommands,
  serviceLocation,
  servicePlatform,
  type ServicePlatform,
  type ServiceSpec,
} from "./service-files";

export type ServiceAction = "install" | "uninstall" | "status";

export type ServiceIo = {
  say(line: string): void;
  /** Runs a command, its output going to ours; returns its exit code. */
  run(argv: readonly string[]): number;
};

export const defaultServiceIo: ServiceIo = {
  say: (line) => process.stdout.write(`${line}\n`),
  run: (argv) => spawnSync(argv[0]!, argv.slice(1), { stdio: "inherit" }).status ?? 1,
};

const render = (platform: ServicePlatform, spec: ServiceSpec) => (platform === "systemd" ? renderSystemdUnit(spec) : renderLaunchdPlist(spec));

export type ServiceOptions = {
  dryRun: boolean;
  platform: NodeJS.Platform;
  uid: number;
  /** systemd: who installs, and whether they linger (asked after install; see linger.ts). */
  user: string;
  linger(): LingerState;
};

export function runService(action: ServiceAction, spec: ServiceSpec, opts: ServiceOptions, io: ServiceIo = defaultServiceIo): number {
  const platform = servicePlatform(opts.platform);
  if (!platform) {
    io.say(`baton service: ${opts.platform} is not supported (systemd on Linux, launchd on macOS); run \`baton daemon\` under your own supervisor`);
    return 1;
  }
  const { file, logs } = serviceLocation(platform, spec.home);
  const commands = serviceCommands(platform, file, opts.uid)[action];
  const show = (argv: readonly string[]) => argv.map((a) => (/[\s"'$]/.test(a) ? JSON.stringify(a) : a)).join(" ");
  switch (action) {
    case "install": {
      const text = render(platform, spec);
      if (opts.dryRun) {
        io.say(`would write ${file}:\n`);
        io.say(text);
        io.say("then run:");
        for (const c of commands) io.say(`  ${show(c)}`);
        io.say(`logs: ${logs}`);
        if (platform === "systemd") io.say(lingerAdvice(opts.user, opts.linger()));
        return 0;
      }
      fs.mkdirSync(path.dirname(file), { recursive: true });
      if (platform === "launchd") fs.mkdirSync(path.dirname(logs), { recursive: true });
      fs.writeFileSync(file, text, { mode: 0o644 });
      io.say(`wrote ${file}`);
      // launchd's bootout of a not-yet-loaded agent fails harmlessly; the last command decides.
      let code = 0;
      for (const c of commands) code = io.run(c);
      if (code !== 0) {
        io.say(`the service manager failed (exit ${code}); the file is in place: ${file}`);
        return code;
      }
      io.say(`the daemon now runs at login and restarts on failure; logs: ${logs}`);
      if (platform === "systemd") io.say(lingerAdvice(opts.user, opts.linger()));
      return 0;
    }
    case "uninstall": {
      if (opts.dryRun) {
        io.say("would run:");
        for (const c of commands) io.say(`  ${show(c)}`);
        io.say(`then remove ${file}`);
        return 0;
      }
      if (!fs.existsSync(file)) {
        io.say(`no service installed (${file} does not exist)`);
        return 0;
      }
      for (const c of commands) io.run(c);
      fs.rmSync(file, { force: true });
      io.say(`removed ${file}`);
      return 0;
    }
    case "status": {
      io.say(fs.existsSync(file) ? `installed: ${file}` : `not installed (${file} does not exist)`);
      io.say(`logs: ${logs}`);
      if (opts.dryRun || !fs.existsSync(file)) return fs.existsSync(file) ? 0 : 3;
      let code = 0;
      for (const c of commands) code = io.run(c);
      return code;
    }
  }
}
