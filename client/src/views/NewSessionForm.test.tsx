import { Route, Router } from "@solidjs/router";
import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { MachineSummary, SessionSummary } from "../../../shared/api";
import { NewSessionForm } from "./NewSessionForm";

const caps = { loadSession: false, resume: false, images: false, steering: false } as unknown as MachineSummary["agents"][number]["capabilities"];
const MACHINES: MachineSummary[] = [
  { id: "off", name: "Old box", online: false, hostname: null, agents: [{ id: "x", label: "X", capabilities: caps }], roots: ["/srv"], lastSeenAt: 1 },
  {
    id: "lap",
    name: "Laptop",
    online: true,
    hostname: "lap.local",
    agents: [
      { id: "claude", label: "Claude Code", capabilities: caps },
      { id: "gemini", label: "Gemini CLI", capabilities: caps },
    ],
    roots: ["/home/me/code", "/home/me/work"],
    lastSeenAt: 2,
  },
];
const CREATED: SessionSummary = { id: "new-1", title: "Gemini CLI · other", machineId: "lap", machineName: "Laptop", agentId: "gemini", agentLabel: "Gemini CLI", cwd: "/home/me/code/other", status: "starting", createdAt: 1, lastActivityAt: 1 };

function mockFetch() {
  const posts: unknown[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    if (url === "/api/me") return json(200, { id: "u", name: "Me", email: "me@x" });
    if (url === "/api/machines") return json(200, { machines: MACHINES });
    if (url.startsWith("/api/machines/lap/git?")) {
      const cwd = new URL(url, "http://x").searchParams.get("cwd");
      return json(200, cwd === "/home/me/code/app" ? { repo: { root: cwd, name: "app", branch: "dev", branches: ["dev", "main"] }, reason: null } : { repo: null, reason: "not inside a git repository" });
    }
    if (url === "/api/sessions" && init?.method === "POST") {
      posts.push(JSON.parse(String(init.body)));
      return json(201, { session: CREATED });
    }
    return json(404, { error: { code: "NOT_FOUND", message: "nope" } });
  });
  vi.stubGlobal("fetch", fetchMock);
  return posts;
}

beforeEach(() => history.replaceState(null, "", "/"));
afterEach(() => vi.unstubAllGlobals());

function renderList() {
  render(() => (
    <Router>
      <Route path="/" component={NewSessionForm} />
      <Route path="/s/:id" component={() => <div data-testid="session-page">opened</div>} />
    </Router>
  ));
}

describe("NewSessionForm", () => {
  it("new session: machine → that machine's agents → its roots (editable) → POST → /s/:id", async () => {
    const posts = mockFetch();
    renderList();
    const machine = (await screen.findByTestId("machine-select")) as HTMLSelectElement;
    await waitFor(() => expect(machine.value).toBe("lap"));
    const agent = screen.getByTestId("agent-select") as HTMLSelectElement;
    expect([...agent.options].map((o) => o.value)).toEqual(["claude", "gemini"]);
    const cwd = screen.getByTestId("cwd-input") as HTMLInputElement;
    expect(cwd.value).toBe("/home/me/code");
    fireEvent.change(agent, { target: { value: "gemini" } });
    fireEvent.input(cwd, { target: { value: "/home/me/code/other" } });
    // Start waits for the machine's word on the directory (it is not a repository: no worktree).
    expect(screen.getByTestId("create-session")).toBeDisabled();
    await waitFor(() => expect(screen.getByTestId("worktree-note")).toHaveTextContent("Off: not inside a git repository"));
    expect(screen.getByRole("checkbox", { name: "Work in a new worktree" })).toBeDisabled();
    fireEvent.click(screen.getByTestId("create-session"));
    await screen.findByTestId("session-page");
    expect(posts).toEqual([{ machineId: "lap", agentId: "gemini", cwd: "/home/me/code/other" }]);
    // The router writes the address when its navigation ends, which can be a tick after the new page shows.
    await waitFor(() => expect(location.pathname).toBe("/s/new-1"));
  });

  it("in a repository: a new worktree by default, from the current branch, on a branch named from the session", async () => {
    const posts = mockFetch();
    renderList();
    const machine = (await screen.findByTestId("machine-select")) as HTMLSelectElement;
    await waitFor(() => expect(machine.value).toBe("lap"));
    fireEvent.input(screen.getByTestId("cwd-input"), { target: { value: "/home/me/code/app" } });
    const toggle = (await screen.findByRole("checkbox", { name: "Work in a new worktree" })) as HTMLInputElement;
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).toBeChecked();
    expect((screen.getByRole("combobox", { name: "Base branch" }) as HTMLSelectElement).value).toBe("dev");
    const branch = screen.getByRole("textbox", { name: "New branch" }) as HTMLInputElement;
    expect(branch.value).toBe("baton/claude-code-app");
    fireEvent.change(screen.getByRole("combobox", { name: "Base branch" }), { target: { value: "main" } });
    fireEvent.input(branch, { target: { value: "fix/login" } });
    fireEvent.click(screen.getByTestId("create-session"));
    await screen.findByTestId("session-page");
    expect(posts).toEqual([{ machineId: "lap", agentId: "claude", cwd: "/home/me/code/app", worktree: { base: "main", branch: "fix/login" } }]);
  });

  it("an offline machine cannot start a session", async () => {
    mockFetch();
    renderList();
    const machine = (await screen.findByTestId("machine-select")) as HTMLSelectElement;
    await waitFor(() => expect(machine.value).toBe("lap"));
    fireEvent.change(machine, { target: { value: "off" } });
    expect((screen.getByTestId("agent-select") as HTMLSelectElement).value).toBe("x");
    expect((screen.getByTestId("cwd-input") as HTMLInputElement).value).toBe("/srv");
    expect(screen.getByTestId("create-session")).toBeDisabled();
    expect(screen.getByTestId("new-session")).toHaveTextContent("Old box is offline");
  });
});
