/**
 * /api/auth/*: which sign-in the deployment uses, and the built-in email-code sign-in.
 * These routes run before the identity middleware (they are how a browser gets an identity).
 */
import { Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { apiError } from "../api-error";
import { PushUnsubscribeBody } from "../../shared/push-api";
import { isInvited, newSecret, sha256Hex, upsertUser } from "../d1-directory";
import { deleteSubscription, deleteSubscriptionsOfAuthSession } from "../push/push-directory";
import type { Env } from "../env";
import { AUTH_SESSION_TTL_MS, createAuthSession, deleteAuthSession, userForAuthSession } from "./auth-sessions";
import { authMode, readCookie, sameOriginWrite } from "./identity";
import { codeSecret, isLocalStack, sessionCookieName } from "./local-stack";
import { allowListed, checkLoginCode, issueLoginCode, LOGIN_CODE_TTL_MS, normalizeEmail } from "./login-codes";
import { sendLoginMail } from "./mailer";

/** The browser's login cookie: binds the codes it asks for to it (see login-codes.ts). `__Host-` off a local stack. */
const loginCookieName = (env: Env) => (isLocalStack(env) ? "baton_login" : "__Host-baton_login");

/** The client as the edge reports it (Cloudflare sets it; it cannot be forged through the edge). */
const clientOf = (req: Request) => req.headers.get("CF-Connecting-IP") ?? "unknown";

/** Cookie flags shared by the session and login cookies: Secure (required by `__Host-`) except on a local stack over http. */
const cookieBase = (env: Env) => ({ path: "/", httpOnly: true, secure: !isLocalStack(env) });

export const authRoutes = new Hono<{ Bindings: Env }>();

authRoutes.get("/config", (c) => c.json({ mode: authMode(c.env) }));

// Every write here must come from our own pages (login CSRF, forced sign-out).
authRoutes.use("*", async (c, next) => {
  if (c.req.method !== "GET" && !sameOriginWrite(c.env, c.req.raw)) return apiError(c, 403, "BAD_ORIGIN", "cross-site request refused");
  await next();
});

const SENT = { ok: true, message: "If this address may sign in, a code is on its way." } as const;

authRoutes.post("/code", async (c) => {
  if (authMode(c.env) !== "builtin") return apiError(c, 404, "NOT_FOUND", "built-in sign-in is not enabled");
  const secret = codeSecret(c.env);
  if (!secret) return apiError(c, 503, "AUTH_NOT_CONFIGURED", "the server has no AUTH_SECRET; ask your admin");
  const body = (await c.req.json().catch(() => null)) as { email?: unknown } | null;
  const email = normalizeEmail(body?.email);
  if (!email) return apiError(c, 400, "BAD_EMAIL", "enter a valid email address");
  const binding = readCookie(c.req.raw, loginCookieName(c.env)) ?? newSecret("");
  setCookie(c, loginCookieName(c.env), binding, { ...cookieBase(c.env), sameSite: "Strict", maxAge: Math.floor(LOGIN_CODE_TTL_MS / 1000) });
  const allowed = allowListed(email, c.env.BUILTIN_ALLOWED_EMAILS, c.env.BUILTIN_ALLOWED_DOMAINS) || (await isInvited(c.env.DB, email));
  // Same answer for addresses that may not sign in: the form does not reveal who is on the list.
  if (!allowed) return c.json(SENT);
  const issued = await issueLoginCode(c.env.DB, secret, email, { client: clientOf(c.req.raw), binding });
  if (issued === "rate_limited_client") return apiError(c, 429, "RATE_LIMITED", "too many codes requested from here; try again later");
  if (issued === "rate_limited_address") return apiError(c, 429, "RATE_LIMITED", "too many codes were sent to this address this hour; try again later");
  const site = new URL(c.req.url).host;
  const sent = await sendLoginMail(c.env, { to: email, code: issued.code, site, ttlMinutes: LOGIN_CODE_TTL_MS / 60_000 }, isLocalStack(c.env));
  if (sent === "not_configured") return apiError(c, 503, "MAIL_NOT_CONFIGURED", "the server cannot send email yet; ask your admin");
  if (sent === "failed") return apiError(c, 502, "MAIL_FAILED", "the code could not be sent; try again");
  return c.json(SENT);
});

authRoutes.post("/verify", async (c) => {
  if (authMode(c.env) !== "builtin") return apiError(c, 404, "NOT_FOUND", "built-in sign-in is not enabled");
  const secret = codeSecret(c.env);
  if (!secret) return apiError(c, 503, "AUTH_NOT_CONFIGURED", "the server has no AUTH_SECRET; ask your admin");
  const body = (await c.req.json().catch(() => null)) as { email?: unknown; code?: unknown } | null;
  const email = normalizeEmail(body?.email);
  const code = typeof body?.code === "string" ? body.code.slice(0, 32) : "";
  if (!email || !code) return apiError(c, 400, "BAD_REQUEST", "email and code are required");
  const result = await checkLoginCode(c.env.DB, secret, email, readCookie(c.req.raw, loginCookieName(c.env)) ?? "", code);
  switch (result) {
    case "invalid":
      return apiError(c, 401, "BAD_CODE", "that code is not right");
    case "expired":
      return apiError(c, 401, "CODE_EXPIRED", "that code has expired; request a new one");
    case "too_many_attempts":
      return apiError(c, 429, "TOO_MANY_ATTEMPTS", "too many wrong codes; request a new one");
    case "ok":
      break;
  }
  const user = await upsertUser(c.env.DB, email, email.split("@")[0] ?? email);
  const session = await createAuthSession(c.env.DB, user.id);
  setCookie(c, sessionCookieName(c.env), session.value, { ...cookieBase(c.env), sameSite: "Lax", maxAge: Math.floor(AUTH_SESSION_TTL_MS / 1000) });
  deleteCookie(c, loginCookieName(c.env), cookieBase(c.env));
  return c.json({ user });
});

authRoutes.post("/signout", async (c) => {
  const cookie = readCookie(c.req.raw, sessionCookieName(c.env));
  // This browser's push subscription goes with its sign-in: the one made under it, and the endpoint it names.
  const body = PushUnsubscribeBody.safeParse(await c.req.json().catch(() => null));
  const user = cookie ? await userForAuthSession(c.env.DB, cookie) : null;
  if (user && body.success) await deleteSubscription(c.env.DB, user.id, body.data.endpoint);
  if (cookie) await deleteSubscriptionsOfAuthSession(c.env.DB, await sha256Hex(cookie));
  await deleteAuthSession(c.env.DB, cookie);
  deleteCookie(c, sessionCookieName(c.env), cookieBase(c.env));
  return c.json({ ok: true });
});
