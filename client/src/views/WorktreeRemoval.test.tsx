import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SessionListItem } from "../../../shared/session-list";
import { DeleteDialog } from "./SessionDialogs";

const WT = { repoRoot: "/r/app", repoName: "app", worktreePath: "/w/app/baton-x", path: "/w/app/baton-x", branch: "baton/x", base: "main" };
const SESSION: SessionListItem = {
  id: "s1",
  title: "Demo · app",
  machineId: "m",
  machineName: "Laptop",
  agentId: "demo",
  agentLabel: "Demo",
  cwd: WT.path,
  status: "idle",
  createdAt: 1,
  lastActivityAt: 1,
  worktree: WT,
  archivedAt: null,
  needsYou: false,
  unread: false,
  role: "owner",
  version: 1,
};

afterEach(() => vi.unstubAllGlobals());

describe("Delete offers to remove the worktree", () => {
  it("keeps a worktree holding work until 'remove it anyway', then deletes", async () => {
    const removals: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init?: RequestInit) => {
        const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
        if (url === "/api/machines") return json({ machines: [] });
        if (url === "/api/sessions/s1") return json({ session: SESSION });
        if (url === "/api/sessions/s1/worktree/remove") {
          const body = JSON.parse(String(init?.body)) as { force: boolean };
          removals.push(body);
          return json(body.force ? { removed: true, reason: null, dirtyFiles: 2, unpushedCommits: 0 } : { removed: false, reason: "the worktree holds 2 uncommitted files", dirtyFiles: 2, unpushedCommits: 0 });
        }
        return new Response("{}", { status: 404 });
      }),
    );
    const onDelete = vi.fn(async () => true);
    // The list's row may lack the worktree (its first paint): the dialog asks the session.
    render(() => <DeleteDialog session={{ ...SESSION, worktree: undefined }} onDelete={onDelete} onClose={() => {}} />);
    expect(await screen.findByRole("checkbox", { name: /Also remove its worktree/ })).toBeChecked();
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    await screen.findByText(/Kept: the worktree holds 2 uncommitted files/);
    expect(onDelete).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("checkbox", { name: /Remove it anyway/ }));
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(onDelete).toHaveBeenCalledWith(false));
    expect(removals).toEqual([{ force: false }, { force: true }]);
  });

  it("unticked, the session is deleted and the worktree left alone", async () => {
    const fetchMock = vi.fn(async (url: string) => new Response(JSON.stringify(url === "/api/sessions/s1" ? { session: SESSION } : { machines: [] }), { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    const onDelete = vi.fn(async () => true);
    render(() => <DeleteDialog session={SESSION} onDelete={onDelete} onClose={() => {}} />);
    fireEvent.click(await screen.findByRole("checkbox", { name: /Also remove its worktree/ }));
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(onDelete).toHaveBeenCalled());
    expect(fetchMock.mock.calls.map((c) => String((c as unknown[])[0]))).not.toContain("/api/sessions/s1/worktree/remove");
  });
});
