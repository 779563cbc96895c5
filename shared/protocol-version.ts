/**
 * Tunnel protocol versioning: the daemon's hello carries `protocolVersion`; the Machine refuses a
 * daemon outside [MIN_DAEMON_PROTOCOL_VERSION, TUNNEL_PROTOCOL_VERSION] with an `UPGRADE_REQUIRED`
 * error frame and close code CLOSE_UPGRADE_REQUIRED, and the daemon tells its user how to upgrade.
 *
 * A hello without the field comes from a daemon older than versioning (protocol 0, the repo's tsx
 * daemon before issue 22): it is refused like any too-old daemon.
 */

/** Bump when a daemon ⇄ Machine change is not understood by the other side. */
export const TUNNEL_PROTOCOL_VERSION = 1;
/** The oldest daemon protocol this server still speaks. */
export const MIN_DAEMON_PROTOCOL_VERSION = 1;
/** The npm package the daemon ships in (daemon/package.json `name`). */
export const DAEMON_PACKAGE = "baton-acp";
/** WebSocket close code for an incompatible daemon (4000–4999 are the application's; 426 = Upgrade Required). */
export const CLOSE_UPGRADE_REQUIRED = 4426;
export const UPGRADE_REQUIRED = "UPGRADE_REQUIRED";

export const upgradeCommand = `npm i -g ${DAEMON_PACKAGE}`;

export type ProtocolVerdict = { ok: true } | { ok: false; reason: "too_old" | "too_new"; message: string };

/** Whether a daemon speaking `daemonVersion` (undefined: before versioning) may connect. */
export function checkDaemonProtocol(daemonVersion: number | undefined): ProtocolVerdict {
  const v = daemonVersion ?? 0;
  if (v < MIN_DAEMON_PROTOCOL_VERSION)
    return {
      ok: false,
      reason: "too_old",
      message: `this daemon speaks tunnel protocol ${v}; the server needs ${MIN_DAEMON_PROTOCOL_VERSION}–${TUNNEL_PROTOCOL_VERSION}. Upgrade the daemon: ${upgradeCommand}`,
    };
  if (v > TUNNEL_PROTOCOL_VERSION)
    return {
      ok: false,
      reason: "too_new",
      message: `this daemon speaks tunnel protocol ${v}, newer than the server's ${TUNNEL_PROTOCOL_VERSION}: update the Baton server, or install a daemon that matches it`,
    };
  return { ok: true };
}
