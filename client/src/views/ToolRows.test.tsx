/** Tool rows and permission cards from the real agents' shapes (codex / pi terminals, claude fences, copilot commands). */
import { render, screen, waitFor } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { describe, expect, it } from "vitest";
import { fold, initialSessionState, type Row, type ToolRow } from "../../../shared/fold";
import type { ServerFrame, SessionEvent } from "../../../shared/viewer-protocol";
import { Transcript } from "./Transcript";
import { kindIsRedundant } from "./TranscriptRows";

const bo = { id: "b", name: "Bo" };
const acp = (update: Record<string, unknown>): SessionEvent => ({ kind: "acp", update: update as { sessionUpdate: string } });
const foldAll = (events: SessionEvent[]) => events.map((event, i): ServerFrame => ({ type: "event", seq: i + 1, event })).reduce(fold, initialSessionState());
const start: SessionEvent[] = [
  { kind: "user_message", id: "m", blocks: [{ type: "text", text: "go" }], author: bo, at: 1 },
  { kind: "session_status", state: "active", turnId: "t" },
];

describe("tool rows: terminal output", () => {
  it("codex: a terminal tool shows its streamed output with ANSI colours as inert text, and the exit status", () => {
    const s = foldAll([
      ...start,
      acp({ sessionUpdate: "tool_call", toolCallId: "call_1", title: "ls -la", kind: "execute", status: "in_progress", content: [{ type: "terminal", terminalId: "call_1" }] }),
      acp({ sessionUpdate: "tool_call_update", toolCallId: "call_1", _meta: { terminal_output_delta: { terminal_id: "call_1", data: "\u001b[34mdir\u001b[0m\n<b>not bold</b>\n" } } }),
      acp({ sessionUpdate: "tool_call_update", toolCallId: "call_1", status: "completed", _meta: { terminal_exit: { terminal_id: "call_1", exit_code: 2, signal: null } } }),
    ]);
    render(() => <Transcript rows={s.rows} canAct onPermission={() => {}} />);
    const term = screen.getByTestId("terminal-output");
    expect(term).toHaveTextContent("dir <b>not bold</b>");
    expect(term.querySelector("b")).toBeNull();
    const dir = [...term.querySelectorAll("span")].find((e) => e.textContent === "dir");
    expect(dir?.style.color).toBe("var(--ansi-blue)");
    expect(screen.queryByText(/Terminal call_1/)).toBeNull();
    expect(screen.getByTestId("terminal-exit")).toHaveTextContent("exit 2");
  });

  it("output streams into the open row as it arrives", () => {
    const base = foldAll([
      ...start,
      acp({ sessionUpdate: "tool_call", toolCallId: "p", title: "npm test", kind: "execute", status: "in_progress", content: [{ type: "terminal", terminalId: "p" }] }),
    ]);
    const [rows, setRows] = createSignal<Row[]>(base.rows);
    render(() => <Transcript rows={rows()} canAct onPermission={() => {}} />);
    expect(screen.getByTestId("terminal-output")).toHaveTextContent("");
    let s = base;
    for (const data of ["one\n", "two\n"]) {
      s = fold(s, { type: "event", seq: s.seq + 1, event: acp({ sessionUpdate: "tool_call_update", toolCallId: "p", _meta: { terminal_output: { terminal_id: "p", data } } }) });
      setRows(s.rows);
    }
    expect(screen.getByTestId("terminal-output").textContent).toBe("one\ntwo\n");
    expect(screen.queryByTestId("terminal-exit")).toBeNull();
  });

  it("a cut output says so", () => {
    const row: ToolRow = {
      kind: "tool", id: "tool:t", toolCallId: "t", title: "yes", toolKind: "execute", status: "completed", content: [], locations: [], live: false,
      terminals: [{ terminalId: "t", output: "y\n", truncated: true, exit: null }],
    };
    render(() => <Transcript rows={[row]} canAct onPermission={() => {}} />);
    expect(screen.getByTestId("terminal-cut")).toBeInTheDocument();
  });
});

describe("tool rows: markdown output", () => {
  it("claude's fenced console output renders as a code block, not as raw fences; scripts stay out", () => {
    const s = foldAll([
      ...start,
      acp({
        sessionUpdate: "tool_call", toolCallId: "toolu_1", title: "`echo hi`", kind: "execute", status: "completed",
        content: [{ type: "content", content: { type: "text", text: "```console\nhi <script>window.__x=1</script>\n```" } }],
      }),
    ]);
    render(() => <Transcript rows={s.rows} canAct onPermission={() => {}} />);
    const row = screen.getByTestId("row-tool");
    expect(row).not.toHaveTextContent("```");
    expect(row.querySelector("pre code")).toHaveTextContent("hi <script>window.__x=1</script>");
    expect(row.querySelector("script")).toBeNull();
  });

  it("plain text output stays verbatim", () => {
    const s = foldAll([
      ...start,
      acp({ sessionUpdate: "tool_call", toolCallId: "t", title: "cat", kind: "read", status: "completed", content: [{ type: "content", content: { type: "text", text: "# not a heading\n* not a list" } }] }),
    ]);
    render(() => <Transcript rows={s.rows} canAct onPermission={() => {}} />);
    expect(screen.getByTestId("row-tool").querySelector("pre.tool-output")?.textContent).toBe("# not a heading\n* not a list");
  });
});

describe("permission card: what will run, first", () => {
  const perm = (toolCall: Record<string, unknown>) =>
    foldAll([...start, { kind: "permission_request", requestId: "r1", toolCall, options: [{ optionId: "y", name: "Allow", kind: "allow_once" }] }]);

  it("copilot: the command from rawInput, above the model's own title", () => {
    const s = perm({ toolCallId: "c", title: "print a greeting", kind: "execute", rawInput: { command: "echo hello && rm -rf build", description: "print a greeting" } });
    render(() => <Transcript rows={s.rows} canAct onPermission={() => {}} />);
    const card = screen.getByTestId("permission-card");
    const what = screen.getByTestId("permission-command");
    expect(what).toHaveTextContent("echo hello && rm -rf build");
    expect(card).toHaveTextContent("print a greeting");
    // The command comes first in reading order.
    expect(card.textContent!.indexOf("echo hello")).toBeLessThan(card.textContent!.indexOf("print a greeting"));
  });

  it("claude: the command once (the title repeats it), the file it touches and its description", () => {
    const s = perm({
      toolCallId: "toolu_1", name: "Bash", status: "pending", title: "touch baton-was-here.txt", kind: "execute",
      rawInput: { command: "touch baton-was-here.txt", description: "create a marker file" },
      content: [{ type: "content", content: { type: "text", text: "create a marker file" } }],
      locations: [{ path: "/w/baton-was-here.txt" }],
    });
    render(() => <Transcript rows={s.rows} canAct onPermission={() => {}} />);
    const card = screen.getByTestId("permission-card");
    expect(screen.getByTestId("permission-command")).toHaveTextContent("touch baton-was-here.txt");
    expect(card.textContent!.split("touch baton-was-here.txt")).toHaveLength(2); // once: the title repeats the command
    expect(screen.getByTestId("permission-path")).toHaveTextContent("/w/baton-was-here.txt");
    expect(card).toHaveTextContent("create a marker file");
  });

  it("an argv array is shown as one command line", () => {
    const s = perm({ toolCallId: "c", title: "Run", kind: "execute", rawInput: { command: ["bash", "-lc", "touch x"] } });
    render(() => <Transcript rows={s.rows} canAct onPermission={() => {}} />);
    expect(screen.getByTestId("permission-command")).toHaveTextContent("bash -lc 'touch x'");
  });

  it("an edit shows its path and diff", async () => {
    const s = perm({
      toolCallId: "e", title: "Write", kind: "edit",
      rawInput: { file_path: "/r/a.ts", content: "b" },
      content: [{ type: "diff", path: "/r/a.ts", oldText: "a", newText: "b" }],
    });
    render(() => <Transcript rows={s.rows} canAct onPermission={() => {}} />);
    const card = screen.getByTestId("permission-card");
    await waitFor(() => expect(card.querySelector(".diff-path")).toHaveTextContent("/r/a.ts")); // the diff view loads on demand
    expect(card.querySelector(".diff-add")).toHaveTextContent("b");
  });

  it("a path alone (no diff) is shown", () => {
    const s = perm({ toolCallId: "e", title: "Delete it", kind: "delete", rawInput: { file_path: "/r/old.txt" } });
    render(() => <Transcript rows={s.rows} canAct onPermission={() => {}} />);
    expect(screen.getByTestId("permission-path")).toHaveTextContent("/r/old.txt");
  });
});

describe("tool rows: accessible names", () => {
  it("the kind is said once, with spaces: not 'RunRun rm -rf build/Pending'", () => {
    expect(kindIsRedundant("Run", "Run `rm -rf build/`")).toBe(true);
    expect(kindIsRedundant("Edit", "src/app.ts")).toBe(false);
    const s = foldAll([...start, acp({ sessionUpdate: "tool_call", toolCallId: "r", title: "Run `rm -rf build/`", kind: "execute", status: "pending" })]);
    render(() => <Transcript rows={s.rows} canAct onPermission={() => {}} />);
    const head = screen.getByTestId("row-tool").querySelector("button")!;
    expect(head.textContent?.replace(/\s+/g, " ").trim()).toMatch(/^Run rm -rf build\/ \S/);
    expect(head.textContent).not.toMatch(/RunRun/);
  });
});
