/** The push routes of `shared/push-api.ts`, each answer parsed with its schema. */
import type { z } from "zod";
import { PushConfig, PushPreferences, type PushSubscriptionBody } from "../../../shared/push-api";
import { ApiError } from "../lib/api";

async function call<S extends z.ZodType>(schema: S | null, path: string, init?: RequestInit): Promise<z.infer<S> | null> {
  let res: Response;
  try {
    res = await fetch(path, { ...init, credentials: "same-origin", headers: { "content-type": "application/json" } });
  } catch {
    throw new ApiError(0, "NETWORK", "Cannot reach the server — check your connection.");
  }
  const json: unknown = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) {
    const err = typeof json === "object" && json !== null && "error" in json ? json.error : null;
    const message = typeof err === "object" && err !== null && "message" in err && typeof err.message === "string" ? err.message : res.statusText || "Request failed";
    throw new ApiError(res.status, `HTTP_${res.status}`, message);
  }
  if (!schema) return null;
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiError(res.status, "BAD_RESPONSE", `Unexpected answer from ${path}`);
  return parsed.data;
}

const must = <T>(v: T | null): T => {
  if (v === null) throw new ApiError(0, "BAD_RESPONSE", "Empty answer");
  return v;
};

export const pushHttp = {
  config: async () => must(await call(PushConfig, "/api/push/config")),
  addSubscription: async (body: PushSubscriptionBody) => void (await call(null, "/api/push/subscriptions", { method: "POST", body: JSON.stringify(body) })),
  removeSubscription: async (endpoint: string) => void (await call(null, "/api/push/subscriptions", { method: "DELETE", body: JSON.stringify({ endpoint }) })),
  preferences: async () => must(await call(PushPreferences, "/api/push/preferences")),
  setPreferences: async (p: PushPreferences) => must(await call(PushPreferences, "/api/push/preferences", { method: "PUT", body: JSON.stringify(p) })),
  setMuted: async (sessionId: string, muted: boolean) =>
    void (await call(null, `/api/sessions/${encodeURIComponent(sessionId)}/push-mute`, { method: "PUT", body: JSON.stringify({ muted }) })),
};
export type PushHttp = typeof pushHttp;
