import type { CreateSessionBody, MachineSummary, Me, SessionSummary } from "../../../shared/api";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(path, { ...init, headers: { "content-type": "application/json", ...(init?.headers ?? {}) } });
  const body = (await res.json().catch(() => null)) as any;
  if (!res.ok) throw new ApiError(res.status, body?.error?.code ?? "HTTP", body?.error?.message ?? res.statusText);
  return body as T;
}

export const api = {
  me: () => call<Me>("/api/me"),
  machines: () => call<{ machines: MachineSummary[] }>("/api/machines").then((r) => r.machines),
  sessions: () => call<{ sessions: SessionSummary[] }>("/api/sessions").then((r) => r.sessions),
  session: (id: string) => call<{ session: SessionSummary; role: string }>(`/api/sessions/${encodeURIComponent(id)}`),
  createSession: (body: CreateSessionBody) =>
    call<{ session: SessionSummary }>("/api/sessions", { method: "POST", body: JSON.stringify(body) }).then((r) => r.session),
};
