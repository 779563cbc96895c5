/** New-session form decisions (machine → agent → directory) and session-list wording. Plain. */
import type { CreateSessionBody, MachineSummary, SessionSummary } from "../../../shared/api";
import { insideRoots, withoutTrailingSlashes } from "../../../shared/paths";

export type NewSessionChoice = { machineId: string; agentId: string; cwd: string };

/** The machine the form shows: the chosen one, else the first online, else the first. */
export function pickMachine(machines: readonly MachineSummary[], chosenId: string): MachineSummary | undefined {
  return machines.find((m) => m.id === chosenId) ?? machines.find((m) => m.online) ?? machines[0];
}

/** Agent ids come only from what this machine advertised; a stale choice falls back to the first. */
export function pickAgent(machine: MachineSummary | undefined, chosenId: string): string {
  if (!machine) return "";
  return machine.agents.some((a) => a.id === chosenId) ? chosenId : (machine.agents[0]?.id ?? "");
}

/** The directory: what the user typed (even if not a root), else the machine's first root. */
export function pickCwd(machine: MachineSummary | undefined, typed: string | null): string {
  if (typed !== null) return typed;
  return machine?.roots[0] ?? "";
}

/** The POST body, or why it cannot be sent yet. */
export function createBody(machine: MachineSummary | undefined, agentId: string, cwd: string): { body: CreateSessionBody } | { reason: string } {
  if (!machine) return { reason: "Pair a machine first" };
  if (!machine.online) return { reason: `${machine.name} is offline` };
  if (!agentId) return { reason: `${machine.name} advertises no agents` };
  if (!cwd.trim()) return { reason: "Choose a directory" };
  if (!insideRoots(cwd.trim(), machine.roots))
    return { reason: `Choose a directory inside ${machine.roots.length === 1 ? machine.roots[0] : `one of ${machine.roots.join(", ")}`}` };
  return { body: { machineId: machine.id, agentId, cwd: cwd.trim() } };
}


/** Running sessions first, then by last activity. */
export function sortSessions(list: readonly SessionSummary[]): SessionSummary[] {
  const rank = (s: SessionSummary) => (s.status === "active" ? 0 : s.status === "closed" ? 2 : 1);
  return [...list].sort((a, b) => rank(a) - rank(b) || b.lastActivityAt - a.lastActivityAt);
}

/**
 * What tells a session apart in the list: the agent's own title, else the first prompt, else the
 * title it was created with (agent · folder). The preview line is the first prompt, when the title
 * is not already it.
 */
export function sessionHeading(s: Pick<SessionSummary, "title" | "cwd" | "firstPrompt" | "agentTitle">): { title: string; preview: string | null } {
  const first = s.firstPrompt || null;
  if (s.agentTitle) return { title: s.agentTitle, preview: first };
  if (first) return { title: first, preview: null };
  return { title: s.title || shortPath(s.cwd), preview: null };
}

/** Last path segment, for compact display of a cwd. */
export function shortPath(p: string): string {
  const parts = withoutTrailingSlashes(p).split("/");
  return parts[parts.length - 1] || p;
}
