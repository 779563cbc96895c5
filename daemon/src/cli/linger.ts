/**
 * systemd lingering: without it, a user's services (the daemon's unit) run only while that user has a login
 * session, so the daemon stops at logout and does not start at boot. Asked of `loginctl`; used by
 * `baton service install` (to say so) and `baton doctor` (to check it).
 */
import { spawnSync } from "node:child_process";
import type { Check } from "./doctor-check";

export type LingerState = { linger: "yes" | "no" } | { linger: "unknown"; why: string };

/** loginctl answers at once; a hung one (a broken D-Bus) must not hang install or doctor. */
const LOGINCTL_TIMEOUT_MS = 5_000;

export const enableLingerCommand = (user: string) => `loginctl enable-linger ${user}`;

/** Reads `loginctl show-user USER --property=Linger --value` (older systemd prints `Linger=yes`). */
export function lingerFromLoginctl(r: { status: number | null; stdout: string; stderr: string; error?: Error }): LingerState {
  if (r.error) return { linger: "unknown", why: `loginctl: ${r.error.message}` };
  const answer = /^(?:Linger=)?(yes|no)\s*$/m.exec(r.stdout)?.[1];
  if (r.status === 0 && (answer === "yes" || answer === "no")) return { linger: answer };
  // logind knows only users with a session or lingering: one it does not know is not lingering.
  if (/not logged in or lingering/i.test(r.stderr)) return { linger: "no" };
  return { linger: "unknown", why: `loginctl: ${r.stderr.trim() || r.stdout.trim() || `exit ${r.status}`}` };
}

export function queryLinger(user: string, env: NodeJS.ProcessEnv = process.env): LingerState {
  const r = spawnSync("loginctl", ["show-user", user, "--property=Linger", "--value"], { env, encoding: "utf8", timeout: LOGINCTL_TIMEOUT_MS });
  return lingerFromLoginctl({ status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "", error: r.error });
}

/** What `service install` adds after installing a systemd unit. */
export function lingerAdvice(user: string, state: LingerState): string {
  switch (state.linger) {
    case "yes":
      return "lingering is on: the daemon also runs without a login session (from boot, after logout)";
    case "no":
      return `note: systemd runs your services only while you are logged in. To keep the daemon running after logout and start it at boot: ${enableLingerCommand(user)}`;
    case "unknown":
      return `could not tell whether lingering is on (${state.why}). systemd runs your services only while you are logged in unless it is: ${enableLingerCommand(user)}`;
  }
}

/** doctor: an installed unit without lingering is a warning (fine on a desktop you stay logged in to). */
export function lingerCheck(unitInstalled: boolean, user: string, state: LingerState): Check {
  const name = "service";
  if (!unitInstalled) return { name, ok: true, detail: "not installed (`baton service install` runs the daemon at login)" };
  switch (state.linger) {
    case "yes":
      return { name, ok: true, detail: "systemd user unit installed; lingering is on, so it runs without a login session" };
    case "no":
      return { name, ok: true, warn: true, detail: "systemd user unit installed, but it runs only while you are logged in (lingering is off)", fix: enableLingerCommand(user) };
    case "unknown":
      return { name, ok: true, warn: true, detail: `systemd user unit installed; could not tell whether lingering is on (${state.why})`, fix: enableLingerCommand(user) };
  }
}
