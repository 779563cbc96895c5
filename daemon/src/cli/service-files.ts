/**
 * `baton service`: the files that run the daemon as a user service, rendered by pure functions.
 * Linux: a systemd user unit (starts at login, restarts on failure, logs to the journal).
 * macOS: a launchd agent (starts at login, restarts on failure, logs to ~/Library/Logs/baton/daemon.log).
 * The token is not in either file: the daemon reads it from its config file (0600).
 */
import path from "node:path";

export const SYSTEMD_UNIT_NAME = "baton.service";
export const LAUNCHD_LABEL = "dev.baton.daemon";
/** systemd: wait this long before a restart, so a daemon failing at start does not spin. */
export const RESTART_DELAY_S = 5;

export type ServiceSpec = {
  /** The Node executable and the `baton` script it runs. */
  node: string;
  script: string;
  configFile: string;
  roots: readonly string[];
  /** PATH for the service: the installing shell's, so agents found now are found by the service too. */
  path: string;
  home: string;
};

export type ServicePlatform = "systemd" | "launchd";

export function servicePlatform(platform: NodeJS.Platform): ServicePlatform | null {
  return platform === "linux" ? "systemd" : platform === "darwin" ? "launchd" : null;
}

export function daemonArgs(s: ServiceSpec): string[] {
  return [s.script, "daemon", "--config", s.configFile, ...s.roots.flatMap((r) => ["--root", r])];
}

/** Where each platform's file goes and where its logs are. */
export function serviceLocation(platform: ServicePlatform, home: string): { file: string; logs: string } {
  switch (platform) {
    case "systemd":
      return { file: path.join(home, ".config", "systemd", "user", SYSTEMD_UNIT_NAME), logs: `journalctl --user -u ${SYSTEMD_UNIT_NAME} -f` };
    case "launchd":
      return { file: path.join(home, "Library", "LaunchAgents", `${LAUNCHD_LABEL}.plist`), logs: path.join(home, "Library", "Logs", "baton", "daemon.log") };
  }
}

/** A double-quoted systemd word: backslashes and quotes escaped, and specifiers (%) doubled. */
function systemdString(arg: string): string {
  return `"${arg.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/%/g, "%%")}"`;
}

/** One ExecStart word: also `$`, which ExecStart (unlike Environment=) expands as a variable. */
export function systemdQuote(arg: string): string {
  return systemdString(arg.replace(/\$/g, "$$$$"));
}

/** An Environment= assignment (quoted whole). */
function systemdEnv(name: string, value: string): string {
  return `Environment=${systemdString(`${name}=${value}`)}`;
}

export function renderSystemdUnit(s: ServiceSpec): string {
  return [
    "# Written by `baton service install`; remove with `baton service uninstall`.",
    "[Unit]",
    "Description=Baton daemon: ACP coding agents on this machine, relayed to a Baton server",
    // No network-online.target: the user manager cannot order on a system target (a no-op there); the
    // daemon retries its tunnel until the network is up.
    "",
    "[Service]",
    "Type=simple",
    `ExecStart=${[s.node, ...daemonArgs(s)].map(systemdQuote).join(" ")}`,
    "WorkingDirectory=%h",
    systemdEnv("PATH", s.path),
    "Restart=on-failure",
    `RestartSec=${RESTART_DELAY_S}`,
    // SIGTERM stops the agents and closes the tunnel; give it the time it needs.
    "TimeoutStopSec=15",
    "",
    "[Install]",
    "WantedBy=default.target",
    "",
  ].join("\n");
}

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function renderLaunchdPlist(s: ServiceSpec): string {
  const log = serviceLocation("launchd", s.home).logs;
  const args = [s.node, ...daemonArgs(s)].map((a) => `    <string>${xml(a)}</string>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- Written by \`baton service install\`; remove with \`baton service uninstall\`. -->
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${LAUNCHD_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
${args}
  </array>
  <key>WorkingDirectory</key>
  <string>${xml(s.home)}</string>
  <key>EnvironmentVariables</key>
  <dict>
    <key>PATH</key>
    <string>${xml(s.path)}</string>
  </dict>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>ThrottleInterval</key>
  <integer>${RESTART_DELAY_S}</integer>
  <key>StandardOutPath</key>
  <string>${xml(log)}</string>
  <key>StandardErrorPath</key>
  <string>${xml(log)}</string>
</dict>
</plist>
`;
}

/** The commands that load / unload / show the service (run by `baton service`, printed by --dry-run). */
export function serviceCommands(platform: ServicePlatform, file: string, uid: number): Record<"install" | "uninstall" | "status", string[][]> {
  switch (platform) {
    case "systemd":
      return {
        install: [
          ["systemctl", "--user", "daemon-reload"],
          ["systemctl", "--user", "enable", "--now", SYSTEMD_UNIT_NAME],
        ],
        uninstall: [
          ["systemctl", "--user", "disable", "--now", SYSTEMD_UNIT_NAME],
          ["systemctl", "--user", "daemon-reload"],
        ],
        status: [["systemctl", "--user", "status", "--no-pager", SYSTEMD_UNIT_NAME]],
      };
    case "launchd":
      return {
        // bootout first so a re-install picks up the new file (its failure when not loaded is fine).
        install: [
          ["launchctl", "bootout", `gui/${uid}/${LAUNCHD_LABEL}`],
          ["launchctl", "bootstrap", `gui/${uid}`, file],
        ],
        uninstall: [["launchctl", "bootout", `gui/${uid}/${LAUNCHD_LABEL}`]],
        status: [["launchctl", "print", `gui/${uid}/${LAUNCHD_LABEL}`]],
      };
  }
}
