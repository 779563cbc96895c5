/** Writes the daemon's config file (what `baton login` stores): owner-only, replaced atomically. */
import fs from "node:fs";
import path from "node:path";
import { type ConfigFile, readConfigFile } from "./config-file";

/** The file holds the machine token: owner read/write only; its directory owner-only when we create it. */
export const CONFIG_FILE_MODE = 0o600;
const CONFIG_DIR_MODE = 0o700;

/**
 * Merges `patch` into the file's current content (other keys kept) and writes it with mode 0600: a temp
 * file created 0600 in the same directory, then renamed over the old one, so no reader ever sees a
 * half-written file and the token is never readable by others, even for a moment.
 */
export function updateConfigFile(file: string, patch: Partial<ConfigFile>): ConfigFile {
  const current = readConfigFile(file, false);
  const next: ConfigFile = { ...current, ...patch };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: CONFIG_DIR_MODE });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: CONFIG_FILE_MODE, flag: "wx" });
    // The mode above is filtered by the umask; make it exact.
    fs.chmodSync(tmp, CONFIG_FILE_MODE);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return next;
}

/** Whether others than the owner may read or write the file (POSIX mode bits; always false on Windows). */
export function configTooOpen(file: string): boolean {
  if (process.platform === "win32") return false;
  return (fs.statSync(file).mode & 0o077) !== 0;
}
