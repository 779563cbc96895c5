/**
 * What only a locally started server may do, keyed to how it was started (the `LOCAL_STACK` var set by
 * scripts/dev-stack.mjs and the Vite dev config), never to a request's Host header: a self-hosted proxy
 * forwarding `Host: localhost` must not unlock any of it.
 */
import type { Env } from "../env";

export const isLocalStack = (env: Pick<Env, "LOCAL_STACK">): boolean => env.LOCAL_STACK === "1";

/** The HMAC key for sign-in codes on a local stack without AUTH_SECRET, so builtin mode can be tried without setup. */
export const LOCAL_DEV_SECRET = "baton-local-development-only";

/** Shorter keys are refused: a guessable HMAC key would let anyone mint valid codes offline. */
export const MIN_AUTH_SECRET_LENGTH = 16;

/** The key that signs sign-in codes, or null when the server has none (sign-in then answers 503). */
export function codeSecret(env: Pick<Env, "AUTH_SECRET" | "LOCAL_STACK">): string | null {
  if (env.AUTH_SECRET && env.AUTH_SECRET.length >= MIN_AUTH_SECRET_LENGTH) return env.AUTH_SECRET;
  return isLocalStack(env) ? LOCAL_DEV_SECRET : null;
}

/**
 * The session cookie's name: `__Host-` (Secure, host-only, path /: no sibling subdomain can set or shadow it)
 * everywhere but a local stack on plain http, where browsers would drop a Secure cookie.
 */
export const sessionCookieName = (env: Pick<Env, "LOCAL_STACK">): string => (isLocalStack(env) ? "baton_session" : "__Host-baton_session");
