/**
 * Web Push routes (shared/push-api.ts), mounted under /api after the identity and CSRF middleware, so
 * they follow the same rules as every other write. Guests may use them: subscriptions and choices are
 * their own, and what they are told about is limited to the sessions they were invited to.
 */
import { Hono } from "hono";
import { assertNever } from "../../shared/assert-never";
import { PushActionBody, PushMuteBody, PushPreferences, PushSubscriptionBody, PushUnsubscribeBody } from "../../shared/push-api";
import type { Viewer } from "../../shared/viewer-protocol";
import { apiError } from "../api-error";
import { readCookie } from "../auth/identity";
import { isLocalStack, sessionCookieName } from "../auth/local-stack";
import { sessionAccess, sha256Hex, type User } from "../d1-directory";
import { type Env, roomStub } from "../env";
import { pushTarget } from "./push-endpoint";
import { deleteSubscription, readPreferences, saveSubscription, setSessionMuted, writePreferences } from "./push-directory";
import { vapidOf } from "./push-sender";

export const pushRoutes = new Hono<{ Bindings: Env; Variables: { user: User } }>();

/** More mutes than anyone has sessions in their list (it shows 200): a bound on one request's D1 writes. */
const MAX_MUTED_SESSIONS = 500;

const badRequest = (issues: { message: string }[]) => issues[0]?.message ?? "invalid body";

pushRoutes.get("/push/config", (c) => c.json({ publicKey: vapidOf(c.env)?.publicKey ?? null }));

pushRoutes.post("/push/subscriptions", async (c) => {
  if (!vapidOf(c.env)) return apiError(c, 503, "PUSH_NOT_CONFIGURED", "push notifications are not set up on this server");
  const parsed = PushSubscriptionBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", badRequest(parsed.error.issues));
  if (!pushTarget(parsed.data.endpoint, isLocalStack(c.env))) return apiError(c, 400, "BAD_ENDPOINT", "a push endpoint must be an https URL");
  // Built-in sign-in: remember which sign-in made it, so signing out of this browser removes it.
  const cookie = readCookie(c.req.raw, sessionCookieName(c.env));
  const id = await saveSubscription(c.env.DB, c.get("user").id, parsed.data, cookie ? await sha256Hex(cookie) : null);
  return c.json({ id }, 201);
});

pushRoutes.delete("/push/subscriptions", async (c) => {
  const parsed = PushUnsubscribeBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", badRequest(parsed.error.issues));
  await deleteSubscription(c.env.DB, c.get("user").id, parsed.data.endpoint);
  return c.body(null, 204);
});

pushRoutes.get("/push/preferences", async (c) => c.json(await readPreferences(c.env.DB, c.get("user").id)));

pushRoutes.put("/push/preferences", async (c) => {
  const parsed = PushPreferences.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", badRequest(parsed.error.issues));
  if (parsed.data.mutedSessions.length > MAX_MUTED_SESSIONS) return apiError(c, 400, "BAD_REQUEST", `at most ${MAX_MUTED_SESSIONS} muted sessions`);
  return c.json(await writePreferences(c.env.DB, c.get("user").id, parsed.data));
});

pushRoutes.put("/sessions/:id/push-mute", async (c) => {
  const access = await sessionAccess(c.env.DB, c.req.param("id"), c.get("user").id);
  if (!access) return apiError(c, 404, "NOT_FOUND", "no such session");
  const parsed = PushMuteBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", badRequest(parsed.error.issues));
  await setSessionMuted(c.env.DB, c.get("user").id, access.session.id, parsed.data.muted);
  return c.json({ muted: parsed.data.muted });
});

/** Approve / Deny from a notification: answered in the session's room with the card's rules. */
pushRoutes.post("/push/action", async (c) => {
  const parsed = PushActionBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", badRequest(parsed.error.issues));
  const user = c.get("user");
  const access = await sessionAccess(c.env.DB, parsed.data.sessionId, user.id);
  if (!access) return apiError(c, 404, "NOT_FOUND", "no such session");
  if (access.role === "viewer") return apiError(c, 403, "FORBIDDEN", "viewers are read-only in this session");
  const viewer: Viewer = { id: user.id, name: user.name, role: access.role };
  const answer = await roomStub(c.env, access.session.id).answerPermission(viewer, parsed.data.requestId, parsed.data.optionId);
  if (answer.ok) return c.json({ ok: true as const });
  switch (answer.error) {
    case "ALREADY_ANSWERED":
      return c.json({ error: "ALREADY_ANSWERED" as const, by: answer.by }, 409);
    case "NOT_FOUND":
      return apiError(c, 404, "NOT_FOUND", answer.message);
    case "FORBIDDEN":
      return apiError(c, 403, "FORBIDDEN", answer.message);
    case "BAD_OPTION":
      return apiError(c, 400, "BAD_OPTION", answer.message);
    default:
      return assertNever(answer);
  }
});
