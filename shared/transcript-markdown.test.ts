/** The Markdown export of rows: what each row reads as, and hostile content kept in its place. */
import { describe, expect, it } from "vitest";
import { fold, initialSessionState } from "./fold";
import type { SessionEvent } from "./viewer-protocol";
import { exportFileName, fenced, inline, markdownHeader, rowsMarkdown } from "./transcript-markdown";

const acp = (update: Record<string, unknown>): SessionEvent => ({ kind: "acp", update: update as Extract<SessionEvent, { kind: "acp" }>["update"] });
const rows = (events: SessionEvent[]) => fold(initialSessionState(), { type: "snapshot", seq: 0, events, at: events.map((_, i) => i + 1) }).rows;
const AT = Date.UTC(2026, 11, 4, 18, 40);

describe("transcript markdown", () => {
  it("a turn: author and time, the answer's markdown, no thoughts, the tool with its command and output, a plan, a permission and its answer", () => {
    const md = rowsMarkdown(
      rows([
        { kind: "user_message", id: "u1", blocks: [{ type: "text", text: "Fix the **bug**" }], author: { id: "a", name: "Ann" }, at: AT },
        { kind: "session_status", state: "active", turnId: "t1" },
        acp({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "secret musing" } }),
        acp({ sessionUpdate: "plan", entries: [{ content: "read", status: "completed", priority: "high" }, { content: "fix", status: "in_progress", priority: "high" }] }),
        acp({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Run tests", kind: "execute", status: "completed", content: [{ type: "content", content: { type: "text", text: "2 passed" } }] }),
        acp({ sessionUpdate: "tool_call", toolCallId: "t2", title: "Edit a.ts", kind: "edit", status: "completed", content: [{ type: "diff", path: "a.ts", oldText: "x", newText: "y" }] }),
        { kind: "permission_request", requestId: "p1", toolCall: { title: "rm -rf build", rawInput: { command: "rm -rf build" } }, options: [{ optionId: "ok", name: "Allow once", kind: "allow_once" }, { optionId: "no", name: "Reject", kind: "reject_once" }] },
        { kind: "permission_resolved", requestId: "p1", outcome: "selected", optionId: "ok", by: { id: "b", name: "Bob" } },
        acp({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Done:\n\n- fixed `x`" } }),
        { kind: "session_status", state: "idle", stopReason: "cancelled" },
      ]),
      (row) => (row.toolCallId === "t1" ? "npm test" : null),
    );
    expect(md).toContain("## Ann · 2026-12-04 18:40 UTC\n\nFix the **bug**\n");
    expect(md).not.toContain("secret musing");
    expect(md).toContain("**Plan:**\n\n- [x] read\n- [ ] fix _(in progress)_");
    expect(md).toContain("### Tool: Run tests — execute · completed\n\n```sh\nnpm test\n```\n");
    expect(md).toContain("```\n2 passed\n```");
    expect(md).toContain("```diff\n--- a/a.ts\n+++ b/a.ts\n-x\n+y\n```");
    expect(md).toContain("**Permission asked:** rm -rf build");
    expect(md).toContain("**Answer:** Allow once — by Bob");
    expect(md).toContain("**Agent:**\n\nDone:\n\n- fixed `x`\n");
    expect(md).toContain("> _Turn ended: cancelled._");
    // In the order of the transcript.
    expect(md.indexOf("## Ann")).toBeLessThan(md.indexOf("Run tests"));
    expect(md.indexOf("Run tests")).toBeLessThan(md.indexOf("**Agent:**"));
  });

  it("hostile content stays in its place: backticks cannot close a fence, HTML and markdown in titles are inert", () => {
    const output = "before\n````\n``` not a fence end\nafter";
    const block = fenced(output);
    expect(block.startsWith("`````\n")).toBe(true);
    expect(block.endsWith("\n`````\n")).toBe(true);
    const md = rowsMarkdown(
      rows([acp({ sessionUpdate: "tool_call", toolCallId: "t", title: "<script>alert(1)</script>\n# not a heading [x](javascript:1)", kind: "execute", status: "failed", content: [{ type: "content", content: { type: "text", text: output } }] })]),
    );
    expect(md).not.toContain("<script>");
    expect(md).toContain("&lt;script&gt;alert(1)&lt;/script&gt; \\# not a heading \\[x\\](javascript:1)");
    expect(md).toContain("`````\nbefore\n````\n``` not a fence end\nafter\n`````");
    expect(inline("a\n\n## b | c")).toBe("a \\#\\# b \\| c");
  });

  it("huge output is written whole in one fence (the room already bounds what a tool keeps)", () => {
    const big = "line\n".repeat(20_000);
    const md = rowsMarkdown(rows([acp({ sessionUpdate: "tool_call", toolCallId: "t", title: "yes", kind: "execute", status: "completed", content: [{ type: "content", content: { type: "text", text: big } }] })]));
    expect(md.split("```").length).toBe(3);
    expect(md).toContain(big);
  });

  it("the header and the file name", () => {
    const h = markdownHeader({ title: "Fix <b>login</b>", agent: "claude", cwd: "/home/a/`proj`", exportedAt: AT });
    expect(h).toContain("# Fix &lt;b&gt;login&lt;/b&gt;");
    expect(h).toContain("- **Agent:** claude");
    expect(h).toContain("- **Directory:** `/home/a/'proj'`");
    expect(h).toContain("- **Exported:** 2026-12-04 18:40 UTC");
    expect(h).toContain("thoughts are omitted");
    expect(exportFileName('Fix "login" / ../etc\\passwd\r\n')).toBe("Fix login .etcpasswd.md");
    expect(exportFileName("Café ☕ plan")).toBe("Cafe plan.md");
    expect(exportFileName("")).toBe("session.md");
  });
});
