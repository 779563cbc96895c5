import { describe, expect, it } from "vitest";
import { collectChanges } from "./changes-from-log";

const user = (id: string) => ({ kind: "user_message", id });
const tool = (update: Record<string, unknown>) => ({ kind: "acp", update: { sessionUpdate: "tool_call", ...update } });
const toolUpdate = (update: Record<string, unknown>) => ({ kind: "acp", update: { sessionUpdate: "tool_call_update", ...update } });
const diff = (path: string, oldText: string | null, newText: string) => ({ type: "diff", path, oldText, newText });

describe("changes from the room's log", () => {
  it("per session and per turn: the text before the first edit and after the last, relative to the cwd", () => {
    const c = collectChanges("/w/app", 1e6);
    c.add([
      user("m1"),
      tool({ toolCallId: "t1", kind: "edit", locations: [{ path: "/w/app/a.ts" }] }),
      toolUpdate({ toolCallId: "t1", status: "completed", content: [diff("/w/app/a.ts", "one\n", "two\n")] }),
      tool({ toolCallId: "r1", kind: "read", locations: [{ path: "/w/app/b.ts" }] }),
      user("m2"),
      toolUpdate({ toolCallId: "t2", content: [diff("/w/app/a.ts", "two\n", "three\n"), diff("/w/app/new.md", null, "# new\n")] }),
      tool({ toolCallId: "t3", kind: "delete", locations: [{ path: "/w/app/old.txt" }] }),
    ]);
    const r = c.result();
    expect(r.files).toEqual([
      { path: "a.ts", oldText: "one\n", newText: "three\n", hasDiff: true },
      { path: "new.md", oldText: null, newText: "# new\n", hasDiff: true },
      { path: "old.txt", oldText: null, newText: null, hasDiff: false },
    ]);
    expect(r.turns).toEqual([
      { index: 0, messageId: "m1", files: [{ path: "a.ts", oldText: "one\n", newText: "two\n", hasDiff: true }] },
      {
        index: 1,
        messageId: "m2",
        files: [
          { path: "a.ts", oldText: "two\n", newText: "three\n", hasDiff: true },
          { path: "new.md", oldText: null, newText: "# new\n", hasDiff: true },
          { path: "old.txt", oldText: null, newText: null, hasDiff: false },
        ],
      },
    ]);
    expect(r.truncated).toBe(false);
  });

  it("drops a file edited back to where it was; fed in steps gives the same answer", () => {
    const events = [user("m"), toolUpdate({ toolCallId: "a", content: [diff("x", "1", "2")] }), toolUpdate({ toolCallId: "b", content: [diff("x", "2", "1")] })];
    const once = collectChanges(null, 1e6);
    once.add(events);
    const steps = collectChanges(null, 1e6);
    for (const e of events) steps.add([e]);
    expect(once.result()).toEqual(steps.result());
    expect(once.result().files).toEqual([]);
  });

  it("past the budget a change is kept as a location only, and says so", () => {
    const c = collectChanges(null, 10);
    c.add([toolUpdate({ toolCallId: "a", content: [diff("small", "ab", "cd"), diff("big", "x".repeat(50), "y")] })]);
    const r = c.result();
    expect(r.files).toEqual([
      { path: "small", oldText: "ab", newText: "cd", hasDiff: true },
      { path: "big", oldText: null, newText: null, hasDiff: false },
    ]);
    expect(r.truncated).toBe(true);
  });

  it("ignores what is not a tool call's diff or location", () => {
    const c = collectChanges(null, 1e6);
    c.add([{ kind: "acp", update: { sessionUpdate: "agent_message_chunk" } }, { kind: "acp", update: null }, toolUpdate({ toolCallId: "x", content: [{ type: "diff" }, "junk"] })]);
    expect(c.result()).toEqual({ files: [], turns: [], truncated: false });
  });
});

describe("a turn's snapshots (issue 28 #2)", () => {
  const from = "a".repeat(40);
  const to = "b".repeat(40);
  it("a turn with snapshots carries them, and is listed even when its tools logged no change; one without has none", () => {
    const c = collectChanges(null, 1e6, new Map([["m2", { from, to }]]));
    c.add([
      { kind: "user_message", id: "m1" },
      { kind: "acp", update: { sessionUpdate: "tool_call", toolCallId: "t1", kind: "edit", content: [{ type: "diff", path: "a.ts", oldText: "1", newText: "2" }] } },
      // Turn 2 changed files through a shell command: nothing in the log, everything in git.
      { kind: "user_message", id: "m2" },
      { kind: "acp", update: { sessionUpdate: "tool_call", toolCallId: "t2", kind: "execute", title: "sed -i s/x/y/ b.ts" } },
      { kind: "user_message", id: "m3" },
    ]);
    const r = c.result();
    expect(r.turns.map((t) => [t.index, t.messageId, t.files.map((f) => f.path), t.trees ?? null])).toEqual([
      [0, "m1", ["a.ts"], null],
      [1, "m2", [], { from, to }],
    ]);
  });
});
