/**
 * `baton doctor`'s question to the server (issue 28 #1): which of these session ids are still sessions of this
 * machine (`POST /api/tunnel/sessions/known`, machine token). Apart from doctor.ts so the workerd tests ask the
 * real Worker with it.
 */
import { TUNNEL_TOKEN_HEADER } from "../../../shared/tunnel-protocol";
import { MAX_DOCTOR_WORKTREES } from "../../../shared/worktree";

/** How long doctor waits for the answer. */
export const KNOWN_SESSIONS_TIMEOUT_MS = 10_000;

export type KnownSessions = { ok: true; known: Set<string> } | { ok: false; why: string };

/** The ids (at most MAX_DOCTOR_WORKTREES asked) the server still has for this machine, or why it did not say. */
export async function knownSessions(doFetch: typeof fetch, base: string, token: string, ids: readonly string[]): Promise<KnownSessions> {
  const r = await doFetch(`${base}/api/tunnel/sessions/known`, {
    method: "POST",
    headers: { [TUNNEL_TOKEN_HEADER]: token, "content-type": "application/json" },
    body: JSON.stringify({ ids: [...new Set(ids)].slice(0, MAX_DOCTOR_WORKTREES) }),
    signal: AbortSignal.timeout(KNOWN_SESSIONS_TIMEOUT_MS),
  });
  if (!r.ok) return { ok: false, why: `HTTP ${r.status}` };
  const body: unknown = await r.json();
  if (typeof body !== "object" || body === null || !("known" in body) || !Array.isArray(body.known)) return { ok: false, why: "the answer had no list of sessions" };
  return { ok: true, known: new Set(body.known.filter((k): k is string => typeof k === "string")) };
}
