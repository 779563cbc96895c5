import { Route, Router } from "@solidjs/router";
import { fireEvent, render, screen, waitFor, within } from "@solidjs/testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionFeedFrame, SessionListItem } from "../../../shared/session-list";
import type { SessionFeedOptions } from "../connection/session-feed";
import { api } from "../lib/api";
import { toasts } from "../lib/toasts";
import { createSessionList } from "../session/create-session-list";
import { item, NOW } from "../session/list-fixtures";
import { SessionList } from "./SessionList";
import { SessionsPanel } from "./SessionsPanel";

const at = (minAgo: number) => Date.now() - minAgo * 60_000;

type Call = { method: string; url: string; body: unknown };

/** The list API over a fetch stub: pages answered by `pages(query)`, writes recorded (and answered by `write`). */
function mockApi(pages: (q: URLSearchParams) => { sessions: SessionListItem[]; nextCursor: string | null }, write?: (c: Call) => Response | undefined) {
  const calls: Call[] = [];
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      const call = { method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      if (url === "/api/machines") return json(200, { machines: MACHINES });
      if (method === "GET" && url.startsWith("/api/sessions?")) return json(200, pages(new URL(url, "http://x").searchParams));
      if (method !== "GET") return write?.(call) ?? json(200, { ok: true, agentSessionDeleted: null, archived: [], skipped: [] });
      return json(404, { error: { code: "NOT_FOUND", message: "nope" } });
    }),
  );
  return { calls, writes: () => calls.filter((c) => c.method !== "GET"), gets: () => calls.filter((c) => c.method === "GET" && c.url.startsWith("/api/sessions?")) };
}

/** The feed without a socket: the test says hello and sends frames. */
function fakeFeed() {
  let o: SessionFeedOptions | null = null;
  return {
    make: (opts: SessionFeedOptions) => {
      o = opts;
      return { close() {} };
    },
    hello: () => o!.onHello(),
    send: (f: SessionFeedFrame) => o!.onFrame(f),
  };
}

function renderPanel(feed = fakeFeed()) {
  render(() => (
    <Router>
      <Route path="/" component={() => <SessionsPanel store={createSessionList({ api, makeFeed: feed.make })} />} />
      <Route path="/s/:id" component={() => <div data-testid="session-page">opened</div>} />
    </Router>
  ));
  feed.hello();
  return feed;
}

const titles = () => screen.queryAllByTestId("session-title").map((t) => t.textContent);
const row = (title: string) => screen.getAllByTestId("session-row").find((r) => within(r).queryByTestId("session-title")?.textContent === title)!;

/** The owner's machine "lap": its claude advertises session/delete, its demo agent does not. */
const CAPS = { loadSession: true, resume: false, modes: false, configOptions: false, steering: false, images: false };
const MACHINES = [
  {
    id: "lap",
    name: "Laptop",
    online: true,
    hostname: "lap",
    roots: ["/home/me/code"],
    lastSeenAt: null,
    agents: [
      { id: "claude", label: "Claude Code", capabilities: { ...CAPS, delete: true } },
      { id: "demo", label: "Demo", capabilities: CAPS },
    ],
  },
];

const ROWS = () => [
  item("a", { customTitle: "Fix the tests", status: "active", lastActivityAt: at(1) }),
  item("b", { agentTitle: "Refactor the parser", firstPrompt: "please refactor the parser", needsYou: true, lastActivityAt: at(5) }),
  item("c", { firstPrompt: "write the docs", unread: true, agentId: "demo", agentLabel: "Demo", lastActivityAt: at(60), role: "member" }),
];

beforeEach(() => history.replaceState(null, "", "/"));
afterEach(() => vi.unstubAllGlobals());

describe("SessionsPanel: the live list", () => {
  it("rows show title, markers (word + icon), status, agent, machine, directory and last activity", async () => {
    mockApi(() => ({ sessions: ROWS(), nextCursor: null }));
    renderPanel();
    await waitFor(() => expect(titles()).toEqual(["Fix the tests", "Refactor the parser", "write the docs"]));
    expect(within(row("Fix the tests")).getByTestId("marker-running")).toHaveTextContent("Running");
    expect(within(row("Refactor the parser")).getByTestId("marker-needs-you")).toHaveTextContent("Needs you");
    expect(within(row("Refactor the parser")).getByTestId("session-preview")).toHaveTextContent("please refactor the parser");
    expect(within(row("write the docs")).getByTestId("marker-new")).toHaveTextContent("New");
    expect(within(row("write the docs")).queryByTestId("marker-running")).toBeNull();
    const c = row("write the docs");
    expect(c).toHaveTextContent("Idle · Demo · Laptop · ~/code/c");
    expect(c).toHaveTextContent("1 hr. ago");
    expect(within(c).getByTestId("session-link")).toHaveAttribute("href", "/s/c");
  });

  it("a feed upsert moves a row to the top with its new title; a remove takes it out", async () => {
    mockApi(() => ({ sessions: ROWS(), nextCursor: null }));
    const feed = renderPanel();
    await waitFor(() => expect(titles()).toHaveLength(3));
    feed.send({ type: "upsert", item: item("c", { customTitle: "Docs, renamed", lastActivityAt: Date.now(), version: 2, agentId: "demo", agentLabel: "Demo", role: "member" }) });
    await waitFor(() => expect(titles()).toEqual(["Docs, renamed", "Fix the tests", "Refactor the parser"]));
    feed.send({ type: "remove", id: "a", reason: "deleted" });
    await waitFor(() => expect(titles()).toEqual(["Docs, renamed", "Refactor the parser"]));
    // A stale frame (older version) changes nothing.
    feed.send({ type: "upsert", item: item("c", { firstPrompt: "write the docs", version: 1, lastActivityAt: at(60) }) });
    expect(titles()[0]).toBe("Docs, renamed");
  });

  it("the filter goes to the server and applies to live frames", async () => {
    const api = mockApi((q) => ({
      sessions: ROWS().filter((r) => (q.get("text") ? (r.customTitle ?? "").toLowerCase().includes(q.get("text")!) : true)),
      nextCursor: null,
    }));
    const feed = renderPanel();
    await waitFor(() => expect(titles()).toHaveLength(3));
    fireEvent.input(screen.getByRole("searchbox", { name: "Search sessions" }), { target: { value: "fix" } });
    await waitFor(() => expect(titles()).toEqual(["Fix the tests"]));
    expect(api.gets().at(-1)!.url).toBe("/api/sessions?text=fix&archived=hide");
    // A change that does not match stays out; one that starts matching comes in; one that stops matching leaves.
    feed.send({ type: "upsert", item: item("b", { agentTitle: "Still the parser", version: 2, lastActivityAt: Date.now() }) });
    feed.send({ type: "upsert", item: item("c", { customTitle: "Fix the docs", version: 2, lastActivityAt: at(2) }) });
    await waitFor(() => expect(titles()).toEqual(["Fix the tests", "Fix the docs"]));
    feed.send({ type: "upsert", item: item("a", { customTitle: "Fix the tests", archivedAt: NOW, version: 2, lastActivityAt: at(1) }) });
    await waitFor(() => expect(titles()).toEqual(["Fix the docs"]));
    // The archived filter: asks for archived rows only.
    fireEvent.change(screen.getByRole("combobox", { name: "Archived" }), { target: { value: "only" } });
    await waitFor(() => expect(api.gets().at(-1)!.url).toBe("/api/sessions?text=fix&archived=only"));
  });

  it("Load more asks for the next page with the cursor and adds its rows below", async () => {
    const api = mockApi((q) =>
      q.get("cursor") === "p2" ? { sessions: [item("d", { customTitle: "Older one", lastActivityAt: at(600) })], nextCursor: null } : { sessions: ROWS(), nextCursor: "p2" },
    );
    renderPanel();
    fireEvent.click(await screen.findByRole("button", { name: "Load more" }));
    await waitFor(() => expect(titles()).toEqual(["Fix the tests", "Refactor the parser", "write the docs", "Older one"]));
    expect(api.gets().at(-1)!.url).toBe("/api/sessions?archived=hide&cursor=p2");
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
  });
});

describe("SessionsPanel: lifecycle from the row menu", () => {
  it("rename: empty and too long are refused in words and send nothing; Escape cancels; a valid title is sent", async () => {
    const api = mockApi(() => ({ sessions: ROWS(), nextCursor: null }));
    renderPanel();
    fireEvent.click(await screen.findByRole("button", { name: "Actions for Fix the tests" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "Rename" }));
    const dialog = screen.getByRole("dialog", { name: "Rename session" });
    const input = within(dialog).getByRole("textbox", { name: "Title" });
    expect(input).toHaveValue("Fix the tests");
    expect(document.activeElement).toBe(input);
    fireEvent.input(input, { target: { value: "   " } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent("A title cannot be empty.");
    fireEvent.input(input, { target: { value: "x".repeat(500) } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent("A title is at most 120 characters (this one has 500).");
    expect(api.writes()).toEqual([]);
    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Actions for Fix the tests" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "Rename" }));
    fireEvent.input(screen.getByRole("textbox", { name: "Title" }), { target: { value: "  Green tests  " } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(api.writes()).toEqual([{ method: "PATCH", url: "/api/sessions/a", body: { title: "Green tests" } }]);
  });

  it("the server's refusal is a toast in its words, and the dialog stays", async () => {
    mockApi(
      () => ({ sessions: ROWS(), nextCursor: null }),
      () => new Response(JSON.stringify({ error: { code: "FORBIDDEN", message: "only people who can write rename a session" } }), { status: 403 }),
    );
    renderPanel();
    fireEvent.click(await screen.findByRole("button", { name: "Actions for Fix the tests" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "Rename" }));
    fireEvent.input(screen.getByRole("textbox", { name: "Title" }), { target: { value: "Nope" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(toasts().map((t) => t.text)).toContain("Only people who can write rename a session."));
    expect(screen.getByRole("dialog", { name: "Rename session" })).toBeInTheDocument();
  });

  it("delete: owner only, a dialog naming the session, the agent's own session only when asked", async () => {
    const api = mockApi(() => ({ sessions: ROWS(), nextCursor: null }));
    renderPanel();
    // A member's row has no Delete.
    fireEvent.click(await screen.findByRole("button", { name: "Actions for write the docs" }));
    expect(screen.getAllByRole("menuitem").map((m) => m.textContent)).toEqual(["Rename", "Archive", "Select"]);
    fireEvent.keyDown(screen.getByRole("menu"), { key: "Escape" });

    fireEvent.click(screen.getByRole("button", { name: "Actions for Refactor the parser" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "Delete…" }));
    const dialog = screen.getByRole("dialog", { name: "Delete session?" });
    expect(dialog).toHaveTextContent("Refactor the parser and its whole transcript will be deleted");
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Cancel" }));
    // Offered once the machines' answer says this agent can delete its own sessions.
    const also = await within(dialog).findByRole("checkbox", { name: /Also delete the agent's own session/ });
    expect(also).not.toBeChecked();
    fireEvent.click(also);
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(titles()).toEqual(["Fix the tests", "write the docs"]));
    expect(api.writes()).toEqual([{ method: "DELETE", url: "/api/sessions/b", body: { deleteAgentSession: true } }]);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("delete of a session whose agent cannot delete its own: no checkbox", async () => {
    const api = mockApi(() => ({ sessions: [item("d", { customTitle: "Demo run", agentId: "demo", agentLabel: "Demo" })], nextCursor: null }));
    renderPanel();
    fireEvent.click(await screen.findByRole("button", { name: "Actions for Demo run" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "Delete…" }));
    // The machines' answer is in (asked, then a task later read) and still no checkbox: demo does not advertise delete.
    await waitFor(() => expect(api.calls.some((c) => c.url === "/api/machines")).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(within(screen.getByRole("dialog", { name: "Delete session?" })).queryByRole("checkbox")).toBeNull();
  });

  it("archiving a running session asks first; an idle one is archived at once", async () => {
    const api = mockApi(() => ({ sessions: ROWS(), nextCursor: null }));
    renderPanel();
    fireEvent.click(await screen.findByRole("button", { name: "Actions for Fix the tests" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "Archive" }));
    const dialog = screen.getByRole("dialog", { name: "Archive a running session?" });
    expect(api.writes()).toEqual([]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Archive" }));
    await waitFor(() => expect(api.writes()).toEqual([{ method: "PATCH", url: "/api/sessions/a", body: { archived: true, confirmRunning: true } }]));

    fireEvent.click(screen.getByRole("button", { name: "Actions for write the docs" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "Archive" }));
    await waitFor(() => expect(api.writes().at(-1)).toEqual({ method: "PATCH", url: "/api/sessions/c", body: { archived: true } }));
  });

  it("selection: Archive selected sends the chosen ids; Archive idle sends the days chosen", async () => {
    const api = mockApi(
      () => ({ sessions: ROWS(), nextCursor: null }),
      (c) => new Response(JSON.stringify({ archived: c.url.endsWith("/archive") ? ["a", "c"] : [], skipped: [] }), { status: 200 }),
    );
    renderPanel();
    await waitFor(() => expect(titles()).toHaveLength(3));
    fireEvent.click(screen.getByRole("button", { name: "Select" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Select write the docs" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Select Fix the tests" }));
    expect(screen.getByRole("toolbar", { name: "Bulk actions" })).toHaveTextContent("2 selected");
    fireEvent.click(screen.getByRole("button", { name: "Archive selected" }));
    await waitFor(() => expect(api.writes()).toEqual([{ method: "POST", url: "/api/sessions/archive", body: { ids: ["a", "c"] } }]));
    await waitFor(() => expect(toasts().map((t) => t.text)).toContain("Archived 2 sessions"));

    fireEvent.click(screen.getByRole("button", { name: "Select" }));
    fireEvent.click(screen.getByRole("button", { name: "Archive idle…" }));
    const dialog = screen.getByRole("dialog", { name: "Archive idle sessions" });
    fireEvent.change(within(dialog).getByRole("combobox", { name: "Days without activity" }), { target: { value: "30" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Archive" }));
    await waitFor(() => expect(api.writes().at(-1)).toEqual({ method: "POST", url: "/api/sessions/archive", body: { idleOlderThanDays: 30 } }));
  });
});

describe("SessionList page", () => {
  it("has the New session form and the list", async () => {
    mockApi(() => ({ sessions: [], nextCursor: null }));
    render(() => (
      <Router>
        <Route path="/" component={SessionList} />
      </Router>
    ));
    expect(await screen.findByTestId("new-session")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Sessions" })).toBeInTheDocument();
    expect(screen.getByRole("search", { name: "Filter sessions" })).toBeInTheDocument();
  });
});
