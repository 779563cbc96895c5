/** The directory HTTP API (shapes in shared/api.ts). Errors arrive as `{error: {code, message}}`. */
import type { AuthConfig, CreateSessionBody, MachineSummary, Me, Member, SessionSummary } from "../../../shared/api";
import type { DeviceApproval, DeviceDecisionBody } from "../../../shared/device-api";
import type { Viewer } from "../../../shared/viewer-protocol";
import type { BulkArchiveBody, DeleteSessionBody, UpdateSessionBody } from "../../../shared/session-list";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let onUnauthorized: (() => void) | null = null;
/** The AuthGate re-checks who we are when any call finds the session gone (expired, signed out elsewhere). */
export function setUnauthorizedHandler(f: (() => void) | null): void {
  onUnauthorized = f;
}

export async function call<T>(path: string, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers: { "content-type": "application/json", ...(init?.headers ?? {}) } });
  } catch {
    throw new ApiError(0, "NETWORK", "Cannot reach the server — check your connection.");
  }
  const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  if (res.status === 401 && path !== "/api/me" && !path.startsWith("/api/auth/")) onUnauthorized?.();
  if (!res.ok) throw new ApiError(res.status, body?.error?.code ?? `HTTP_${res.status}`, body?.error?.message ?? (res.statusText || "Request failed"));
  return body as T;
}

export type PairResult = { machine: { id: string; name: string }; token: string; command: string };

export const api = {
  me: () => call<Me>("/api/me"),
  machines: () => call<{ machines: MachineSummary[] }>("/api/machines").then((r) => r.machines),
  sessions: () => call<{ sessions: SessionSummary[] }>("/api/sessions").then((r) => r.sessions),
  // The session list's routes (issue 26) answer `unknown`: the list checks them with its schemas
  // (session/list-check.ts, loaded on demand so the home page paints without zod).
  /** One page of the list (`SessionListPage`); `search` from `listSearch` (filter + cursor). */
  sessionPage: (search: URLSearchParams) => call<unknown>(`/api/sessions?${search.toString()}`),
  /** Rename / archive / unarchive. */
  updateSession: (id: string, body: UpdateSessionBody) => call<unknown>(sessionPath(id), { method: "PATCH", body: JSON.stringify(body) }),
  /** Owner only (`DeleteSessionResult`). */
  deleteSession: (id: string, body: DeleteSessionBody) => call<unknown>(sessionPath(id), { method: "DELETE", body: JSON.stringify(body) }),
  /** `BulkArchiveResult`. */
  bulkArchive: (body: BulkArchiveBody) => call<unknown>("/api/sessions/archive", { method: "POST", body: JSON.stringify(body) }),
  session: (id: string) => call<{ session: SessionSummary; role?: Viewer["role"] }>(`/api/sessions/${encodeURIComponent(id)}`),
  createSession: (body: CreateSessionBody) =>
    call<{ session: SessionSummary }>("/api/sessions", { method: "POST", body: JSON.stringify(body) }).then((r) => r.session),
  pairMachine: (name: string) => call<PairResult>("/api/machines", { method: "POST", body: JSON.stringify({ name }) }),
  revokeMachine: (id: string) => call<{ ok: true }>(`/api/machines/${encodeURIComponent(id)}`, { method: "DELETE" }),
  deviceApproval: (userCode: string) => call<{ approval: DeviceApproval }>(`/api/device/approvals/${encodeURIComponent(userCode)}`).then((r) => r.approval),
  decideDevice: (userCode: string, body: DeviceDecisionBody) =>
    call<{ approval: DeviceApproval }>(`/api/device/approvals/${encodeURIComponent(userCode)}`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.approval),

  members: (sessionId: string) => call<{ members: Member[]; role: Member["role"] }>(`${membersPath(sessionId)}`),
  addMember: (sessionId: string, email: string, role: GrantableRole) =>
    call<{ members: Member[] }>(membersPath(sessionId), { method: "POST", body: JSON.stringify({ email, role }) }).then((r) => r.members),
  setRole: (sessionId: string, userId: string, role: GrantableRole) =>
    call<{ members: Member[] }>(`${membersPath(sessionId)}/${encodeURIComponent(userId)}`, { method: "PATCH", body: JSON.stringify({ role }) }).then((r) => r.members),
  removeMember: (sessionId: string, userId: string) =>
    call<{ members: Member[] }>(`${membersPath(sessionId)}/${encodeURIComponent(userId)}`, { method: "DELETE" }).then((r) => r.members),

  authConfig: () => call<AuthConfig>("/api/auth/config"),
  requestCode: (email: string) => call<{ ok: true; message: string }>("/api/auth/code", { method: "POST", body: JSON.stringify({ email }) }),
  verifyCode: (email: string, code: string) => call<{ user: Me }>("/api/auth/verify", { method: "POST", body: JSON.stringify({ email, code }) }),
  signOut: () => call<{ ok: true }>("/api/auth/signout", { method: "POST" }),
};

export type GrantableRole = "member" | "viewer";
const sessionPath = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;
const membersPath = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}/members`;
