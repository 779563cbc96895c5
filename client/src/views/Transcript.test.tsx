import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { describe, expect, it, vi } from "vitest";
import { fold, initialSessionState, type Row } from "../../../shared/fold";
import type { ServerFrame, SessionEvent } from "../../../shared/viewer-protocol";
import { Transcript } from "./Transcript";

const bo = { id: "b", name: "Bo" };
const rowsFrom = (events: SessionEvent[]): Row[] =>
  events.map((event, i): ServerFrame => ({ type: "event", seq: i + 1, event })).reduce(fold, initialSessionState()).rows;

describe("Transcript", () => {
  it("an empty session invites a member to write and tells a viewer it is read-only", () => {
    const { unmount } = render(() => <Transcript rows={[]} canAct onPermission={() => {}} />);
    expect(screen.getByText(/Say hello/)).toBeInTheDocument();
    unmount();
    render(() => <Transcript rows={[]} canAct={false} onPermission={() => {}} />);
    expect(screen.queryByText(/Say hello/)).toBeNull();
    expect(screen.getByText(/read-only/)).toBeInTheDocument();
  });

  it("while the replay loads, an empty transcript says it is loading, not that the session is empty", () => {
    const [loading, setLoading] = createSignal(true);
    render(() => <Transcript rows={[]} canAct loading={loading()} onPermission={() => {}} />);
    expect(screen.getByTestId("transcript-loading")).toHaveTextContent("Loading the session");
    expect(screen.queryByText("No messages yet")).toBeNull();
    setLoading(false);
    expect(screen.queryByTestId("transcript-loading")).toBeNull();
    expect(screen.getByText("No messages yet")).toBeInTheDocument();
  });

  it("a message delivered by steering says so on its row (through the real fold)", () => {
    const rows = rowsFrom([
      { kind: "user_message", id: "m1", blocks: [{ type: "text", text: "long job" }], author: bo, at: 1 },
      { kind: "session_status", state: "active", turnId: "t" },
      { kind: "user_message", id: "q1", blocks: [{ type: "text", text: "also check the docs" }], author: bo, at: 2 },
      { kind: "steer_result", id: "q1", outcome: "injected" },
    ]);
    render(() => <Transcript rows={rows} canAct onPermission={() => {}} />);
    const [first, steered] = screen.getAllByTestId("row-user");
    expect(first!.querySelector("[data-testid=row-steered]")).toBeNull();
    expect(steered!.querySelector("[data-testid=row-steered]")).toHaveTextContent("steered mid-turn");
  });

  it("renders agent markdown sanitised: no script, no handlers, no javascript: links", () => {
    (window as unknown as { __pwned?: number }).__pwned = 0;
    const rows: Row[] = [
      {
        kind: "agent",
        id: "a",
        streaming: false,
        text: '**bold** <img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> [x](javascript:alert(3)) <a href="https://ok.example">ok</a>',
      },
      { kind: "user", id: "u", messageId: "u", blocks: [{ type: "text", text: "<svg onload=alert(4)>hi</svg> <iframe src=x></iframe>" }], author: { id: "e", name: "Eve" }, at: 1 },
    ];
    render(() => <Transcript rows={rows} canAct onPermission={() => {}} />);
    const t = screen.getByTestId("transcript");
    expect(t.querySelector("strong")?.textContent).toBe("bold");
    expect(t.querySelector("script")).toBeNull();
    expect(t.querySelector("iframe")).toBeNull();
    expect(t.querySelector("[onerror],[onload]")).toBeNull();
    expect(t.querySelector('a[href^="javascript"]')).toBeNull();
    expect(t.querySelector('a[href="https://ok.example"]')).not.toBeNull();
    expect(t.querySelector("img")?.getAttribute("onerror")).toBeFalsy();
    expect((window as unknown as { __pwned?: number }).__pwned).toBe(0);
    expect(screen.getByTestId("row-user")).toHaveTextContent("Eve");
  });

  it("renders the fold's rows: user, agent, collapsible thought, tool with kind/status/output, plan", async () => {
    const rows = rowsFrom([
      { kind: "user_message", id: "m1", blocks: [{ type: "text", text: "list files" }], author: bo, at: 1 },
      { kind: "acp", update: { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "I should run ls" } } },
      { kind: "acp", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "ls -la", kind: "execute", status: "in_progress" } },
      {
        kind: "acp",
        update: { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", content: [{ type: "content", content: { type: "text", text: "README.md\nsrc" } }] },
      },
      { kind: "acp", update: { sessionUpdate: "plan", entries: [{ content: "Read code", status: "completed", priority: "high" }, { content: "Fix bug", status: "in_progress", priority: "high" }] } },
      { kind: "acp", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Two `files`." } } },
      { kind: "acp", update: { sessionUpdate: "some_future_kind", foo: 1 } },
    ]);
    render(() => <Transcript rows={rows} canAct onPermission={() => {}} />);
    expect(screen.getAllByTestId("row-user")).toHaveLength(1);
    expect(screen.getByTestId("row-agent").querySelector("code")?.textContent).toBe("files");
    // Thoughts are collapsed by default and open on demand.
    const thought = screen.getByTestId("row-thought");
    const toggle = thought.querySelector("summary, button") as HTMLElement;
    expect(toggle).not.toBeNull();
    const body = () => thought.querySelector(".md");
    expect(body()?.textContent ?? "").not.toContain("I should run ls");
    fireEvent.click(toggle);
    await waitFor(() => expect(body()?.textContent).toContain("I should run ls"));
    const tool = screen.getByTestId("row-tool");
    expect(tool).toHaveTextContent("ls -la");
    expect(tool.querySelector(".tool-icon svg")).not.toBeNull(); // the kind shows as its icon
    expect(tool).toHaveTextContent("Done");
    if (!tool.querySelector(".tool-output")) fireEvent.click(tool.querySelector("summary, button") as HTMLElement);
    await waitFor(() => expect(tool.querySelector(".tool-output")?.textContent).toBe("README.md\nsrc"));
    expect(screen.getByTestId("row-plan").querySelectorAll("li")).toHaveLength(2);
  });

  it("a tool still running when the turn ended shows as interrupted", () => {
    const rows = rowsFrom([
      { kind: "user_message", id: "m1", blocks: [{ type: "text", text: "go" }], author: bo, at: 1 },
      { kind: "acp", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "build", kind: "execute", status: "in_progress" } },
      { kind: "session_status", state: "idle", stopReason: "cancelled" },
    ]);
    render(() => <Transcript rows={rows} canAct onPermission={() => {}} />);
    expect(screen.getByTestId("row-tool")).toHaveAttribute("data-status", "interrupted");
    expect(screen.getByTestId("transcript")).toHaveTextContent("Stopped");
  });

  it("permission cards offer the agent's options and send permission.respond with the request id", () => {
    const onPermission = vi.fn();
    const rows = rowsFrom([
      {
        kind: "permission_request",
        requestId: "req-7",
        toolCall: { title: "rm -rf build" },
        options: [
          { optionId: "allow", name: "Allow once", kind: "allow_once" },
          { optionId: "deny", name: "Reject", kind: "reject_once" },
        ],
      },
    ]);
    render(() => <Transcript rows={rows} canAct onPermission={onPermission} />);
    expect(screen.getByTestId("permission-card")).toHaveTextContent("rm -rf build");
    fireEvent.click(screen.getByRole("button", { name: "Reject" }));
    expect(onPermission).toHaveBeenCalledWith("req-7", "deny");
  });

  it("read-only viewers see permission options disabled", () => {
    const rows = rowsFrom([{ kind: "permission_request", requestId: "p", toolCall: {}, options: [{ optionId: "y", name: "Allow", kind: "allow_once" }] }]);
    render(() => <Transcript rows={rows} canAct={false} onPermission={() => {}} />);
    expect(screen.getByRole("button", { name: "Allow" })).toBeDisabled();
  });

  it("a resolved permission shows the choice and who answered to everyone, with no buttons", () => {
    const rows = rowsFrom([
      { kind: "permission_request", requestId: "p", toolCall: { title: "Delete file" }, options: [{ optionId: "y", name: "Allow", kind: "allow_once" }] },
      { kind: "permission_resolved", requestId: "p", outcome: "selected", optionId: "y", by: bo },
    ]);
    render(() => <Transcript rows={rows} canAct onPermission={() => {}} />);
    expect(screen.getByTestId("permission-card")).toHaveTextContent("Allow — Bo");
    expect(screen.queryByRole("button", { name: "Allow" })).toBeNull();
  });
});
