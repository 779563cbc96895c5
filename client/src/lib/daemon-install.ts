/** What the Machines page says about installing and updating daemons (pure, tested). */
import { DAEMON_PACKAGE, MIN_DAEMON_PROTOCOL_VERSION, TUNNEL_PROTOCOL_VERSION, upgradeCommand } from "../../../shared/protocol-version";

/** The commands to put the daemon on a machine and pair it with this server. */
export function installCommands(origin: string): { install: string; login: string; service: string } {
  return { install: `npm i -g ${DAEMON_PACKAGE}`, login: `baton login ${origin}`, service: "baton service install" };
}

export type DaemonVersionNote = { level: "ok" | "old" | "refused"; text: string };

/** How a machine's daemon compares with this server's tunnel protocol; null before it first said hello. */
export function daemonVersionNote(m: { daemonVersion?: string | null; protocolVersion?: number | null }): DaemonVersionNote | null {
  if (!m.daemonVersion) return null;
  const v = m.protocolVersion ?? 0;
  if (v < MIN_DAEMON_PROTOCOL_VERSION)
    return { level: "refused", text: `daemon ${m.daemonVersion} is too old for this server and was refused — upgrade it: ${upgradeCommand}` };
  if (v < TUNNEL_PROTOCOL_VERSION) return { level: "old", text: `daemon ${m.daemonVersion} is older than this server's protocol — upgrade soon: ${upgradeCommand}` };
  return { level: "ok", text: `daemon ${m.daemonVersion}` };
}
