import { Route, Router } from "@solidjs/router";
import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { MachineSummary } from "../../../shared/api";
import { Machines } from "./Machines";

const caps = { loadSession: false, resume: false, images: false, steering: false } as unknown as MachineSummary["agents"][number]["capabilities"];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

let machines: MachineSummary[];
let requests: { method: string; url: string; body: unknown }[];

beforeEach(() => {
  machines = [
    { id: "lap", name: "Laptop", online: true, hostname: "lap.local", agents: [{ id: "claude", label: "Claude Code", capabilities: caps }], roots: [], lastSeenAt: Date.now() },
    { id: "old", name: "Old box", online: false, hostname: null, agents: [], roots: [], lastSeenAt: Date.now() - 3 * 3600_000 },
  ];
  requests = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      requests.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : null });
      if (url === "/api/machines" && method === "GET") return json(200, { machines });
      if (url === "/api/machines" && method === "POST") {
        const m = { id: "new", name: "Work laptop", online: false, hostname: null, agents: [], roots: [], lastSeenAt: null };
        machines = [...machines, m];
        return json(201, { machine: m, token: "bt_secret123", command: "baton daemon --server http://localhost:8787 --token bt_secret123" });
      }
      if (url.startsWith("/api/machines/") && method === "DELETE") {
        machines = machines.filter((m) => `/api/machines/${m.id}` !== url);
        return json(200, { ok: true });
      }
      return json(404, { error: { code: "NOT_FOUND", message: "nope" } });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const mount = () =>
  render(() => (
    <Router>
      <Route path="*" component={Machines} />
    </Router>
  ));

describe("Machines", () => {
  it("lists machines with status, host, agents and last seen", async () => {
    mount();
    const rows = await screen.findAllByTestId("machine-row");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent("Laptop");
    expect(rows[0]).toHaveTextContent("lap.local");
    expect(rows[0]).toHaveTextContent("Online");
    expect(rows[0]).toHaveTextContent("Claude Code");
    expect(rows[1]).toHaveTextContent("Offline");
    expect(rows[1]).toHaveTextContent("last seen 3 hr. ago");
  });

  it("pairs a machine and shows the one-time command with a copy button, once", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    mount();
    await screen.findAllByTestId("machine-row");
    fireEvent.input(screen.getByTestId("pair-name"), { target: { value: "Work laptop" } });
    fireEvent.submit(screen.getByTestId("pair-form"));
    const cmd = await screen.findByTestId("pair-command");
    expect(cmd).toHaveTextContent("baton daemon --server http://localhost:8787 --token bt_secret123");
    expect(requests.find((r) => r.method === "POST")!.body).toEqual({ name: "Work laptop" });
    expect(screen.getByTestId("pair-status")).toHaveTextContent("Waiting for the daemon");
    fireEvent.click(screen.getByTestId("copy-command"));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith("baton daemon --server http://localhost:8787 --token bt_secret123"));
    fireEvent.click(screen.getByTestId("pair-done"));
    expect(screen.queryByTestId("pair-command")).toBeNull();
    expect(document.body.textContent).not.toContain("bt_secret123");
  });

  it("revokes after a confirmation", async () => {
    mount();
    await screen.findAllByTestId("machine-row");
    fireEvent.click(screen.getAllByTestId("revoke")[1]!);
    expect(requests.some((r) => r.method === "DELETE")).toBe(false);
    fireEvent.click(screen.getByTestId("revoke-confirm"));
    await waitFor(() => expect(screen.getAllByTestId("machine-row")).toHaveLength(1));
    expect(requests.find((r) => r.method === "DELETE")!.url).toBe("/api/machines/old");
  });
});

describe("Machines: install and daemon versions", () => {
  it("shows this server's install and login commands, copyable", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    mount();
    expect(screen.getByTestId("install-command")).toHaveTextContent("npm i -g baton-acp");
    expect(screen.getByTestId("login-command")).toHaveTextContent(`baton login ${location.origin}`);
    fireEvent.click(screen.getByRole("button", { name: "Copy login command" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`baton login ${location.origin}`));
  });

  it("shows each daemon's version and warns about one too old for the server", async () => {
    machines[0] = { ...machines[0]!, daemonVersion: "0.1.0", protocolVersion: 1 };
    machines[1] = { ...machines[1]!, daemonVersion: "0.0.9", protocolVersion: 0 };
    mount();
    const rows = await screen.findAllByTestId("machine-row");
    expect(rows[0]).toHaveTextContent("daemon 0.1.0");
    expect(rows[0]!.querySelector("[data-testid=daemon-outdated]")).toBeNull();
    const warn = rows[1]!.querySelector("[data-testid=daemon-outdated]");
    expect(warn).toHaveTextContent("daemon 0.0.9 is too old for this server");
    expect(warn).toHaveTextContent("npm i -g baton-acp");
    expect(warn).toHaveAttribute("role", "alert");
  });
});
