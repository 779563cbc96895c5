/** "Continue a past session" (issue 26): whether the agent's sessions can be listed here, and how a row reads. */
import type { MachineSummary } from "../../../shared/api";
import type { AgentSessionInfo } from "../../../shared/tunnel-ask";
import type { AgentInfo } from "../../../shared/tunnel-protocol";
import { timeAgo } from "../lib/format";

export type PastAvailability = { ok: true } | { ok: false; reason: string };

/** Listing needs an online machine, an agent that offers `session/list` and a directory. */
export function pastSessionsAvailability(machine: MachineSummary | undefined, agent: AgentInfo | undefined, cwd: string): PastAvailability {
  if (!machine) return { ok: false, reason: "Pick a machine first." };
  if (!machine.online) return { ok: false, reason: `${machine.name} is offline.` };
  if (!agent) return { ok: false, reason: "Pick an agent first." };
  if (!agent.capabilities.list) return { ok: false, reason: `${agent.label} does not list its past sessions.` };
  if (!cwd.trim()) return { ok: false, reason: "Pick a directory first." };
  return { ok: true };
}

/** A row's title (the agent's, else its id's start) and its updated time, relative ("3 h ago"); "" when unknown. */
export function pastSessionRow(s: AgentSessionInfo, now = Date.now()): { title: string; updated: string } {
  const at = s.updatedAt ? Date.parse(s.updatedAt) : Number.NaN;
  return { title: s.title?.trim() || `Untitled session ${s.agentSessionId.slice(0, 8)}`, updated: Number.isNaN(at) ? "" : timeAgo(at, now) };
}

/** Appends a page, dropping ids already listed (an agent's list can shift while paging). */
export function appendPage(have: readonly AgentSessionInfo[], page: readonly AgentSessionInfo[]): AgentSessionInfo[] {
  const seen = new Set(have.map((s) => s.agentSessionId));
  return [...have, ...page.filter((s) => !seen.has(s.agentSessionId))];
}
