/**
 * Routes for daemons and their pairing:
 * - public (mounted before sign-in): `POST /api/device/code`, `POST /api/device/token` (the daemon's side of
 *   `baton login`), `GET /api/tunnel/check` (the machine token, for `baton doctor`);
 * - signed in: `GET|POST /api/device/approvals/:userCode` (the Approve view).
 */
import { Hono } from "hono";
import { DeviceCodeRequest, DeviceDecisionBody, DeviceTokenError, DeviceTokenRequest, normalizeUserCode, type DeviceCodeResponse } from "../shared/device-api";
import { checkDaemonProtocol, MIN_DAEMON_PROTOCOL_VERSION, TUNNEL_PROTOCOL_VERSION, UPGRADE_REQUIRED } from "../shared/protocol-version";
import { TUNNEL_TOKEN_HEADER } from "../shared/tunnel-protocol";
import type { UserTokenResponse } from "../shared/attach-api";
import { apiError } from "./api-error";
import type { AccountScope } from "../shared/api";
import type { AuthMode } from "./auth/identity";
import { decideDeviceCode, deviceApproval, issueDeviceCode, pollDeviceCode } from "./device-auth";
import { getMachine, knownSessions, machineForToken, type User } from "./d1-directory";
import { KnownSessionsBody } from "../shared/worktree";
import type { Env } from "./env";

/** Who asked for a code: Cloudflare's client address; local development has none. */
const clientKey = (req: Request) => req.headers.get("CF-Connecting-IP") ?? "local";

export const daemonPublicRoutes = new Hono<{ Bindings: Env }>();

daemonPublicRoutes.post("/device/code", async (c) => {
  const parsed = DeviceCodeRequest.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", parsed.error.issues[0]?.message ?? "invalid body");
  const protocol = checkDaemonProtocol(parsed.data.protocolVersion);
  if (!protocol.ok) return apiError(c, 426, UPGRADE_REQUIRED, protocol.message);
  const issued = await issueDeviceCode(c.env.DB, parsed.data, clientKey(c.req.raw), Date.now());
  if (!issued.ok) return apiError(c, 429, "RATE_LIMITED", issued.message);
  const origin = new URL(c.req.url).origin;
  const verificationUri = `${origin}/machines/approve`;
  const body: DeviceCodeResponse = {
    deviceCode: issued.code.deviceCode,
    userCode: issued.code.userCode,
    verificationUri,
    verificationUriComplete: `${verificationUri}?code=${issued.code.userCode}`,
    expiresIn: Math.round((issued.code.expiresAt - Date.now()) / 1000),
    interval: Math.round(issued.code.intervalMs / 1000),
  };
  return c.json(body, 201);
});

daemonPublicRoutes.post("/device/token", async (c) => {
  const parsed = DeviceTokenRequest.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", parsed.error.issues[0]?.message ?? "invalid body");
  const r = await pollDeviceCode(c.env.DB, parsed.data.deviceCode, Date.now());
  switch (r.kind) {
    case "issued":
      return c.json({ token: r.token, machine: r.machine });
    case "issued_user":
      return c.json({ token: r.token, user: r.user } satisfies UserTokenResponse);
    case "pending":
      return apiError(c, 400, DeviceTokenError.pending, "waiting for someone to approve the code in the browser");
    case "slow_down":
      return c.json({ error: { code: DeviceTokenError.slowDown, message: "polling too fast", interval: Math.ceil(r.intervalMs / 1000) } }, 400);
    case "denied":
      return apiError(c, 400, DeviceTokenError.denied, "the login was denied in the browser");
    case "expired":
      return apiError(c, 400, DeviceTokenError.expired, "the code expired before it was approved; run `baton login` again");
    case "used":
      return apiError(c, 400, DeviceTokenError.invalid, "this code was already used; run `baton login` again");
    case "unknown":
      return apiError(c, 400, DeviceTokenError.invalid, "unknown device code; run `baton login` again");
  }
});

/** For `baton doctor`: is this machine token valid, and which protocol does the server speak. */
daemonPublicRoutes.get("/tunnel/check", async (c) => {
  const token = c.req.header(TUNNEL_TOKEN_HEADER);
  if (!token) return apiError(c, 401, "NO_TOKEN", "missing machine token");
  const m = await machineForToken(c.env.DB, token);
  const machine = m && (await getMachine(c.env.DB, m.id));
  if (!machine) return apiError(c, 401, "BAD_TOKEN", "unknown or revoked machine token");
  return c.json({ machine: { id: machine.id, name: machine.name }, protocolVersion: TUNNEL_PROTOCOL_VERSION, minProtocolVersion: MIN_DAEMON_PROTOCOL_VERSION });
});

/** For `baton doctor` (issue 28): which of these session ids still exist on this machine (orphan worktrees are the rest). */
daemonPublicRoutes.post("/tunnel/sessions/known", async (c) => {
  const token = c.req.header(TUNNEL_TOKEN_HEADER);
  const m = token ? await machineForToken(c.env.DB, token) : null;
  if (!m) return apiError(c, 401, "BAD_TOKEN", "unknown or revoked machine token");
  const body = KnownSessionsBody.safeParse(await c.req.json().catch(() => null));
  if (!body.success) return apiError(c, 400, "BAD_REQUEST", body.error.issues[0]?.message ?? "invalid body");
  return c.json({ known: await knownSessions(c.env.DB, m.id, body.data.ids) });
});

export const deviceApprovalRoutes = new Hono<{ Bindings: Env; Variables: { user: User; via: AuthMode; scope: AccountScope } }>();

/** Guests act only in the sessions they were given: a sign-in as themselves for `baton attach` is that; a machine is not. */
const GUEST_MACHINE = "your account was invited to sessions; it cannot pair machines (it may approve its own `baton login --user`)";

deviceApprovalRoutes.get("/:userCode", async (c) => {
  const approval = await deviceApproval(c.env.DB, normalizeUserCode(c.req.param("userCode")), Date.now());
  if (!approval) return apiError(c, 404, "NOT_FOUND", "no such code: check it against the terminal, or run `baton login` again");
  if (c.get("scope") !== "full" && approval.kind !== "user") return apiError(c, 403, "GUEST_ACCOUNT", GUEST_MACHINE);
  return c.json({ approval });
});

deviceApprovalRoutes.post("/:userCode", async (c) => {
  const parsed = DeviceDecisionBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", parsed.error.issues[0]?.message ?? "invalid body");
  const code = normalizeUserCode(c.req.param("userCode"));
  if (c.get("scope") !== "full" && (await deviceApproval(c.env.DB, code, Date.now()))?.kind !== "user") return apiError(c, 403, "GUEST_ACCOUNT", GUEST_MACHINE);
  const ok = await decideDeviceCode(c.env.DB, code, c.get("user").id, parsed.data.decision, parsed.data.name, Date.now());
  if (!ok) {
    const approval = await deviceApproval(c.env.DB, code, Date.now());
    if (!approval) return apiError(c, 404, "NOT_FOUND", "no such code");
    return apiError(c, 409, "NOT_PENDING", `this code is ${approval.status}; run \`baton login\` again for a new one`);
  }
  return c.json({ approval: await deviceApproval(c.env.DB, code, Date.now()) });
});
