import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SessionListItem } from "../../../shared/session-list";
import { ArchiveDialog, DeleteDialog } from "./SessionDialogs";

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

describe("Archive offers to remove the worktree", () => {
  /** fetch answering the removal ask: kept unless forced, holding `dirty` files and `unpushed` commits. */
  function machineWith(dirty: number, unpushed: number, removals: unknown[]) {
    return vi.fn(async (url: string, init?: RequestInit) => {
      if (url !== "/api/sessions/s1/worktree/remove") return new Response("{}", { status: 404 });
      const body = JSON.parse(String(init?.body)) as { force: boolean };
      removals.push(body);
      const holds = dirty > 0 || unpushed > 0;
      const reason = dirty ? `the worktree holds ${dirty} uncommitted files` : `the worktree holds ${unpushed} commits on no remote`;
      const r = body.force || !holds ? { removed: true, reason: null, dirtyFiles: dirty, unpushedCommits: unpushed } : { removed: false, reason, dirtyFiles: dirty, unpushedCommits: unpushed };
      return new Response(JSON.stringify(r), { status: 200, headers: { "content-type": "application/json" } });
    });
  }

  it("a clean worktree is removed, then the session archived", async () => {
    const removals: unknown[] = [];
    vi.stubGlobal("fetch", machineWith(0, 0, removals));
    const onArchive = vi.fn(async () => true);
    render(() => <ArchiveDialog session={SESSION} onArchive={onArchive} onClose={() => {}} />);
    expect(screen.getByRole("dialog", { name: "Archive session?" })).toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: /Also remove its worktree/ })).toBeChecked();
    expect(screen.getByText(/baton\/x/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Archive" }));
    await waitFor(() => expect(onArchive).toHaveBeenCalledWith(false));
    expect(removals).toEqual([{ force: false }]);
  });

  it("keeps a worktree with unpushed commits, saying so, until 'remove it anyway'", async () => {
    const removals: unknown[] = [];
    vi.stubGlobal("fetch", machineWith(0, 3, removals));
    const onArchive = vi.fn(async () => true);
    render(() => <ArchiveDialog session={SESSION} onArchive={onArchive} onClose={() => {}} />);
    fireEvent.click(screen.getByRole("button", { name: "Archive" }));
    const alert = await screen.findByText(/Kept: the worktree holds 3 commits on no remote/);
    expect(alert.textContent).toContain("the branch baton/x keeps its commits");
    expect(onArchive).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("checkbox", { name: /Remove it anyway/ }));
    fireEvent.click(screen.getByRole("button", { name: "Archive" }));
    await waitFor(() => expect(onArchive).toHaveBeenCalled());
    expect(removals).toEqual([{ force: false }, { force: true }]);
  });

  it("unticked, the session is archived and the worktree left alone; a running one says the turn goes on", async () => {
    const removals: unknown[] = [];
    vi.stubGlobal("fetch", machineWith(1, 0, removals));
    const onArchive = vi.fn(async () => true);
    render(() => <ArchiveDialog session={{ ...SESSION, status: "active" }} onArchive={onArchive} onClose={() => {}} />);
    screen.getByRole("dialog", { name: "Archive a running session?" });
    screen.getByText(/the turn is not stopped/);
    fireEvent.click(screen.getByRole("checkbox", { name: /Also remove its worktree/ }));
    fireEvent.click(screen.getByRole("button", { name: "Archive" }));
    await waitFor(() => expect(onArchive).toHaveBeenCalledWith(true));
    expect(removals).toEqual([]);
  });
});
