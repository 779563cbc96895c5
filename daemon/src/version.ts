/**
 * The daemon's version (sent in hello and initialize): daemon/package.json's. `../package.json` is that file
 * both from the sources (daemon/src/) and from the bundle (daemon/dist/, the npm package's root beside it).
 */
import { readFileSync } from "node:fs";

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version?: unknown };
    return typeof pkg.version === "string" ? pkg.version : "0.0.0";
  } catch {
    return "0.0.0";
  }
}

export const DAEMON_VERSION = readVersion();
