import { Route, Router } from "@solidjs/router";
import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DeviceApproval } from "../../../shared/device-api";
import { MachineApprove } from "./MachineApprove";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

let approval: DeviceApproval;
let posts: unknown[];

beforeEach(() => {
  approval = {
    userCode: "ACDE-FGHJ",
    hostname: "build-box",
    os: "Linux 6.1.0 (x64)",
    agents: [{ id: "demo", label: "Demo agent" }, { id: "gemini", label: "Gemini CLI", version: "0.61.0" }],
    daemonVersion: "0.1.0",
    protocolVersion: 1,
    status: "pending",
    expiresAt: Date.now() + 600_000,
    kind: "machine",
  };
  posts = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === "/api/me") return json(200, { id: "u", name: "Ann", email: "ann@example.com" });
      if (url === "/api/device/approvals/ACDE-FGHJ") {
        if (init?.method === "POST") {
          const body = JSON.parse(String(init.body)) as { decision: string };
          posts.push(body);
          approval = { ...approval, status: body.decision === "approve" ? "approved" : "denied" };
        }
        return json(200, { approval });
      }
      return json(404, { error: { code: "NOT_FOUND", message: "no such code" } });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  history.replaceState(null, "", "/");
});

const mount = (url: string) => {
  history.replaceState(null, "", url);
  return render(() => (
    <Router>
      <Route path="*" component={MachineApprove} />
    </Router>
  ));
};

describe("Approve a machine", () => {
  it("shows what the daemon said (code, hostname, OS, agents) and approves it under the chosen name", async () => {
    mount("/machines/approve?code=acde-fghj");
    expect(await screen.findByTestId("approve-hostname")).toHaveTextContent("build-box");
    expect(screen.getByTestId("approve-code")).toHaveTextContent("ACDE-FGHJ");
    expect(screen.getByTestId("approve-os")).toHaveTextContent("Linux 6.1.0 (x64)");
    expect(screen.getByTestId("approve-agents")).toHaveTextContent("Demo agent");
    expect(screen.getByTestId("approve-agents")).toHaveTextContent("Gemini CLI 0.61.0");
    expect(screen.getByRole("heading", { name: "Approve a machine" })).toBeInTheDocument();
    expect(screen.getByTestId("approve-name")).toHaveValue("build-box");
    fireEvent.input(screen.getByTestId("approve-name"), { target: { value: "Build box" } });
    fireEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(await screen.findByTestId("approve-result")).toHaveTextContent("Approved");
    expect(posts).toEqual([{ decision: "approve", name: "Build box" }]);
  });

  it("a user sign-in (baton login --user) says it acts as you, asks no machine name, and approves", async () => {
    approval = { ...approval, kind: "user", agents: [] };
    mount("/machines/approve?code=ACDE-FGHJ");
    expect(await screen.findByRole("heading", { name: "Approve a sign-in" })).toBeInTheDocument();
    expect(screen.getByText(/join your sessions as\s+you/)).toBeInTheDocument();
    expect(screen.queryByTestId("approve-name")).toBeNull();
    expect(screen.queryByTestId("approve-agents")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(await screen.findByTestId("approve-result")).toHaveTextContent("signed in as you");
    expect(posts).toEqual([{ decision: "approve", name: "build-box" }]);
  });

  it("denies", async () => {
    mount("/machines/approve?code=ACDE-FGHJ");
    fireEvent.click(await screen.findByRole("button", { name: "Deny" }));
    expect(await screen.findByTestId("approve-result")).toHaveTextContent("Denied");
    expect(posts).toEqual([{ decision: "deny" }]);
  });

  it("an expired code says to run baton login again, with no buttons", async () => {
    approval = { ...approval, status: "expired" };
    mount("/machines/approve?code=ACDE-FGHJ");
    expect(await screen.findByTestId("approve-result")).toHaveTextContent("expired");
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
  });

  it("an unknown code is explained", async () => {
    mount("/machines/approve?code=AAAA-AAAA");
    expect(await screen.findByTestId("approve-error")).toHaveTextContent("No login is waiting for the code AAAA-AAAA");
  });

  it("a malformed code is refused; without a code the person can type it", async () => {
    mount("/machines/approve?code=ZZZZ-0000");
    expect(await screen.findByText(/not a valid code/)).toBeInTheDocument();
    const input = screen.getByTestId("approve-code-input");
    fireEvent.input(input, { target: { value: "acdefghj" } });
    fireEvent.click(screen.getByRole("button", { name: "Look up" }));
    await waitFor(() => expect(screen.getByTestId("approve-hostname")).toHaveTextContent("build-box"));
  });
});
