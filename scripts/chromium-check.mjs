// The one system prerequisite of the end-to-end tests: a Chromium (Debian's at /usr/bin/chromium, or the
// one CHROMIUM_PATH names). `npm test` and the e2e project's global setup check it once, up front, so a
// machine without it gets one line saying what is missing instead of every browser test failing alike.
import { accessSync, constants, statSync } from "node:fs";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";

/** The Chromium the tests drive: CHROMIUM_PATH when set, else Debian's. */
export function chromiumPath(env = process.env) {
  return env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
}

/** Why the tests cannot launch Chromium, in one line, or null when an executable file is there. */
export function chromiumProblem(env = process.env) {
  const path = chromiumPath(env);
  const named = env.CHROMIUM_PATH ? `CHROMIUM_PATH=${path}` : path;
  const say = (what) =>
    `Chromium is missing: ${named} ${what}; the end-to-end tests need it — apt-get install -y chromium, or CHROMIUM_PATH=/path/to/chromium.`;
  try {
    if (!statSync(path).isFile()) return say("is not a file");
    accessSync(path, constants.X_OK);
    return null;
  } catch (err) {
    const code = err && typeof err === "object" && "code" in err ? err.code : "";
    return say(code === "EACCES" ? "is not executable" : "does not exist");
  }
}
