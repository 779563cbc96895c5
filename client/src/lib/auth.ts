/** The signed-in user, shared by the views below the AuthGate; sign-out per auth mode. */
import { createContext, useContext } from "solid-js";
import type { Me } from "../../../shared/api";
import { api } from "./api";
import { clearDeviceState } from "./device-state";

export type AuthState = { me: Me; refresh: () => void };
export const AuthContext = createContext<AuthState>();

export const useMe = (): Me | null => useContext(AuthContext)?.me ?? null;

/** Where Cloudflare Access ends its session (the app cookie and the team session). */
export const ACCESS_LOGOUT_PATH = "/cdn-cgi/access/logout";

/** Removing this device's push subscription must not hold up a sign-out (server slow, worker gone). */
const FORGET_PUSH_TIMEOUT_MS = 3_000;

/**
 * Signs out and reloads into the sign-in page (in Access mode Access itself signs out); this device's
 * drafts, unsent outbox and push subscription go with the sign-in (the next person on it gets none of
 * the last one's notifications).
 */
export async function signOut(
  me: Me,
  go: (url: string) => void = (u) => location.assign(u),
  // Loaded on sign-out only: the push client (and zod with it) stays out of the first paint's JS.
  forgetPush: () => Promise<void> = () => import("../push/push-controller").then((m) => m.pushController().forgetDevice()),
): Promise<void> {
  // Before the sign-out: removing the subscription on the server needs the session.
  await Promise.race([forgetPush().catch(() => {}), new Promise((r) => setTimeout(r, FORGET_PUSH_TIMEOUT_MS))]);
  if (me.authMode !== "access") await api.signOut();
  try {
    clearDeviceState(localStorage);
  } catch {
    /* storage refused (private mode): nothing was kept */
  }
  go(me.authMode === "access" ? ACCESS_LOGOUT_PATH : "/");
}
