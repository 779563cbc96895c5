/** Session list rows for tests (client project). */
import type { SessionListItem } from "../../../shared/session-list";

export const NOW = Date.UTC(2026, 11, 4, 12, 0, 0);

export function item(id: string, over: Partial<SessionListItem> = {}): SessionListItem {
  return {
    id,
    title: `Claude Code · ${id}`,
    machineId: "lap",
    machineName: "Laptop",
    agentId: "claude",
    agentLabel: "Claude Code",
    cwd: `/home/me/code/${id}`,
    status: "idle",
    createdAt: NOW - 86_400_000,
    lastActivityAt: NOW - 60_000,
    firstPrompt: null,
    agentTitle: null,
    customTitle: null,
    archivedAt: null,
    needsYou: false,
    unread: false,
    role: "owner",
    version: 1,
    ...over,
  };
}
