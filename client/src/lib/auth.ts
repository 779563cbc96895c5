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

/**
 * Signs out and reloads into the sign-in page (in Access mode Access itself signs out); this device's
 * drafts and unsent outbox go with the sign-in.
 */
export async function signOut(me: Me, go: (url: string) => void = (u) => location.assign(u)): Promise<void> {
  if (me.authMode !== "access") await api.signOut();
  try {
    clearDeviceState(localStorage);
  } catch {
    /* storage refused (private mode): nothing was kept */
  }
  go(me.authMode === "access" ? ACCESS_LOGOUT_PATH : "/");
}
