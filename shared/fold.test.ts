import { beforeEach, describe, expect, it } from "vitest";
import { clearDropped, fold, type FoldState, framesOf, initialSessionState, rowById, rowsOf } from "./fold";
import { MAX_TERMINAL_OUTPUT_CHARS } from "./limits";
import { type QueueEntry, type ServerFrame, ServerFrame as ServerFrameSchema, type SessionEvent } from "./viewer-protocol";

let seq = 0;
beforeEach(() => {
  seq = 0;
});
const ev = (event: SessionEvent): ServerFrame => ({ type: "event", seq: ++seq, event });
const st = (event: SessionEvent): ServerFrame => ({ type: "state", event });
const run = (frames: ServerFrame[], s: FoldState = initialSessionState()) => frames.reduce((acc, f) => fold(acc, f), s);
const A = { id: "a", name: "Ann" };
const entry = (id: string, state: QueueEntry["state"] = "queued"): QueueEntry => ({ id, blocks: [{ type: "text", text: id }], author: A, createdAt: 1, state });
const echo = (id: string): SessionEvent => ({ kind: "user_message", id, blocks: [{ type: "text", text: id }], author: A, at: 1 });
const acp = (update: Record<string, unknown>): SessionEvent => ({ kind: "acp", update: update as { sessionUpdate: string } });
const chunk = (text: string, messageId?: string) => acp({ sessionUpdate: "agent_message_chunk", content: { type: "text", text }, ...(messageId ? { messageId } : {}) });
const thought = (text: string) => acp({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text } });
const idle = (stopReason = "end_turn"): SessionEvent => ({ kind: "session_status", state: "idle", stopReason });
const active = (): SessionEvent => ({ kind: "session_status", state: "active", turnId: "t" });
const kinds = (s: FoldState) => s.rows.map((r) => r.kind);

describe("fold: queue (the seed's cases)", () => {
  it("queue_state sets and clears the queue; a flush clear adds no row — the echo paints it", () => {
    let s = run([ev(echo("m1")), ev(active()), st({ kind: "queue_state", entries: [entry("q")], flushed: false })]);
    expect(s.queue.map((e) => e.id)).toEqual(["q"]);
    expect(kinds(s)).toEqual(["user"]);
    s = run([ev(idle()), st({ kind: "queue_state", entries: [], flushed: true })], s);
    expect(s.queue).toEqual([]);
    expect(kinds(s)).toEqual(["user"]);
    s = run([ev(echo("q"))], s);
    expect(rowsOf(s, "user").map((r) => r.messageId)).toEqual(["m1", "q"]);
    expect(s.turnActive).toBe(true);
  });

  it("the echo starts the turn for a non-sending viewer (Send becomes Queue + Stop)", () => {
    const s = run([st({ kind: "session_status", state: "idle", synthetic: true }), { type: "ready", seq: 0 }, ev(echo("from-someone-else"))]);
    expect(s.turnActive).toBe(true);
    expect(s.status).toBe("active");
    expect(rowsOf(s, "user")[0]).toMatchObject({ id: "user:from-someone-else", author: A });
  });

  it("a cancel clear adds no row; Stop's dropped entries stay offered until cleared locally", () => {
    let s = run([ev(echo("m")), st({ kind: "queue_state", entries: [entry("x"), entry("y")], flushed: false })]);
    s = run([st({ kind: "queue_state", entries: [], flushed: false, dropped: [entry("x"), entry("y")] })], s);
    expect(kinds(s)).toEqual(["user"]);
    expect(s.queue).toEqual([]);
    expect(s.dropped.map((e) => e.id)).toEqual(["x", "y"]);
    // A later queue frame without `dropped` (e.g. the replay state) keeps the offer.
    s = run([st({ kind: "queue_state", entries: [], flushed: false })], s);
    expect(s.dropped).toHaveLength(2);
    expect(clearDropped(s).dropped).toEqual([]);
  });

  it("a cancel of one entry keeps the rest in order", () => {
    const s = run([
      st({ kind: "queue_state", entries: [entry("a"), entry("b"), entry("c")], flushed: false }),
      st({ kind: "queue_state", entries: [entry("a"), entry("c")], flushed: false }),
    ]);
    expect(s.queue.map((e) => e.id)).toEqual(["a", "c"]);
  });

  it("steer results mark the entry while it is still queued and are pruned when it leaves", () => {
    let s = run([ev(echo("m")), ev(active()), st({ kind: "queue_state", entries: [entry("q", "steering")], flushed: false })]);
    s = run([st({ kind: "queue_state", entries: [entry("q")], flushed: false }), ev({ kind: "steer_result", id: "q", outcome: "failed" })], s);
    expect(s.steer).toEqual({ q: "failed" });
    // Injected: the entry leaves the queue, the echo paints the row inside the running turn.
    s = run([st({ kind: "queue_state", entries: [], flushed: true }), ev(echo("q")), ev({ kind: "steer_result", id: "q", outcome: "injected" })], s);
    expect(s.steer).toEqual({});
    expect(s.turnActive).toBe(true);
    expect(rowsOf(s, "user").map((r) => r.messageId)).toEqual(["m", "q"]);
    // The delivered row says how it got there; the row it came after is untouched.
    expect(rowsOf(s, "user").map((r) => r.steered)).toEqual([undefined, "injected"]);
    const again = run([ev({ kind: "steer_result", id: "q", outcome: "injected" })], s);
    expect(again.rows).toBe(s.rows);
  });
});

describe("fold: cursor, replay, snapshot", () => {
  it("ignores events at or below the cursor (no duplicates)", () => {
    const f = ev(echo("x"));
    const s = run([f, f, { type: "event", seq: 1, event: chunk("dup") }, { type: "event", seq: 0, event: echo("y") }]);
    expect(kinds(s)).toEqual(["user"]);
    expect(s.seq).toBe(1);
  });

  it("a replayed tail after reconnect applies only what was missed", () => {
    const frames = [ev(echo("m")), ev(chunk("Hel")), ev(chunk("lo"))];
    let s = run(frames.slice(0, 2));
    // Reconnect with ?after=2: the room may resend from 1 if the viewer raced; only seq 3 applies.
    s = run([{ type: "welcome", sessionId: "s", viewer: { id: "a", name: "Ann", role: "owner" }, headSeq: 3 }, ...frames, { type: "ready", seq: 3 }], s);
    expect(rowsOf(s, "agent").map((r) => r.text)).toEqual(["Hello"]);
    expect(s.ready).toBe(true);
  });

  it("snapshot resets the transcript, pages append, then the tail continues", () => {
    let s = run([ev(echo("old")), ev(chunk("stale"))]);
    s = fold(s, { type: "snapshot", seq: 0, events: [echo("a"), chunk("one ", "m1")] });
    expect(s.seq).toBe(0);
    s = fold(s, { type: "snapshot", seq: 50, append: true, events: [chunk("two", "m1")] });
    expect(s.rows.map((r) => r.id)).toEqual(["user:a", "agent:m1"]);
    expect(rowById(s, "agent:m1")).toMatchObject({ text: "one two" });
    s = fold(s, { type: "event", seq: 51, event: chunk("!", "m1") });
    s = fold(s, { type: "event", seq: 50, event: chunk("dup", "m1") });
    expect(rowById(s, "agent:m1")).toMatchObject({ text: "one two!" });
    expect(s.seq).toBe(51);
  });

  it("synthetic active after replay puts the viewer in Stop state; offline with a running turn too", () => {
    let s = run([
      { type: "snapshot", seq: 7, events: [echo("m"), active(), chunk("working")] },
      st({ kind: "queue_state", entries: [entry("q")], flushed: false }),
      st({ kind: "session_status", state: "active", synthetic: true }),
      { type: "ready", seq: 7 },
    ]);
    expect(s.turnActive).toBe(true);
    expect(s.ready).toBe(true);
    expect(s.queue).toHaveLength(1);
    expect(rowsOf(s, "agent")[0]).toMatchObject({ streaming: true });
    s = run([st({ kind: "session_status", state: "offline", turnRunning: true, message: "machine offline" })], s);
    expect(s.turnActive).toBe(true);
    expect(s.status).toBe("offline");
    expect(s.statusMessage).toBe("machine offline");
    s = run([st({ kind: "session_status", state: "offline", turnRunning: false })], s);
    expect(s.turnActive).toBe(false);
  });

  it("keeps untouched rows by identity (a store can diff by reference)", () => {
    const s1 = run([ev(echo("m")), ev(chunk("a")), ev({ kind: "acp", update: { sessionUpdate: "tool_call", toolCallId: "t", title: "T" } }), ev(chunk("b"))]);
    const s2 = fold(s1, ev(chunk("c")));
    expect(s2.rows[0]).toBe(s1.rows[0]);
    expect(s2.rows[1]).toBe(s1.rows[1]);
    expect(s2.rows[3]).not.toBe(s1.rows[3]);
    expect(s2.rowIndex).toBe(s1.rowIndex);
  });
});

describe("fold: transcript rows", () => {
  it("merges chunks by messageId, else into the open agent row; text after a tool starts a new row", () => {
    const s = run([
      ev(echo("m")),
      ev(chunk("Hel")),
      ev(chunk("lo")),
      ev(acp({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Read", kind: "read", status: "in_progress" })),
      ev(chunk("after")),
      ev(chunk(" A", "x")),
      ev(chunk(" B", "y")),
      ev(chunk(" A2", "x")),
    ]);
    expect(s.rows.map((r) => (r.kind === "agent" ? r.text : r.kind))).toEqual(["user", "Hello", "tool", "after", " A A2", " B"]);
  });

  it("row boundaries follow messageId: a chunk without one never joins a row whose chunks carry one, nor the reverse", () => {
    // claude: the answer's chunks carry a messageId, its first-turn warning does not.
    const s = run([
      ev(echo("m")),
      ev(chunk("Fake reply", "a1")),
      ev(chunk(" to: hello", "a1")),
      ev(chunk("**Warning:** no ")),
      ev(chunk("model")),
      ev(chunk("More", "a2")),
      ev(chunk("tail")),
    ]);
    expect(s.rows.map((r) => (r.kind === "agent" ? r.text : r.kind))).toEqual(["user", "Fake reply to: hello", "**Warning:** no model", "More", "tail"]);
    // Thoughts follow the same rule.
    const t = run([
      ev(echo("m")),
      ev(acp({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "plan" }, messageId: "t1" })),
      ev(thought("aside")),
    ]);
    expect(rowsOf(t, "thought").map((r) => r.text)).toEqual(["plan", "aside"]);
  });

  it("idle closes streaming rows and marks still-running tools interrupted", () => {
    let s = run([ev(echo("m")), ev(thought("hmm")), ev(chunk("Hi")), ev(acp({ sessionUpdate: "tool_call", toolCallId: "t", title: "Run", status: "in_progress" }))]);
    expect(rowsOf(s, "thought")[0]).toMatchObject({ text: "hmm", streaming: true });
    expect(rowsOf(s, "tool")[0]).toMatchObject({ live: true });
    s = run([ev(idle())], s);
    expect(s.turnActive).toBe(false);
    expect(rowsOf(s, "thought")[0]!.streaming).toBe(false);
    expect(rowsOf(s, "agent")[0]!.streaming).toBe(false);
    expect(rowsOf(s, "tool")[0]).toMatchObject({ status: "in_progress", live: false });
    // The next turn's text does not merge into the closed row.
    s = run([ev(echo("n")), ev(chunk("new"))], s);
    expect(rowsOf(s, "agent").map((r) => r.text)).toEqual(["Hi", "new"]);
  });

  it("tool calls merge updates (content and locations replace, the rest sticks)", () => {
    const s = run([
      ev(echo("m")),
      ev(acp({ sessionUpdate: "tool_call", toolCallId: "t", title: "Edit a.ts", kind: "edit", status: "pending", locations: [{ path: "/r/a.ts", line: 3 }] })),
      ev(acp({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "in_progress", content: [{ type: "content", content: { type: "text", text: "working" } }] })),
      ev(
        acp({
          sessionUpdate: "tool_call_update",
          toolCallId: "t",
          status: "completed",
          content: [
            { type: "diff", path: "/r/a.ts", oldText: "a", newText: "b" },
            { type: "terminal", terminalId: "term1" },
          ],
        }),
      ),
    ]);
    expect(rowsOf(s, "tool")).toEqual([
      {
        kind: "tool",
        id: "tool:t",
        toolCallId: "t",
        title: "Edit a.ts",
        toolKind: "edit",
        status: "completed",
        locations: ["/r/a.ts:3"],
        content: [
          { type: "diff", path: "/r/a.ts", oldText: "a", newText: "b" },
          { type: "terminal", terminalId: "term1" },
        ],
        live: true,
      },
    ]);
  });

  it("terminal output in _meta accumulates on the tool row (codex deltas, pi pieces), with the exit status", () => {
    const codex = run([
      ev(echo("m")),
      ev(acp({ sessionUpdate: "tool_call", toolCallId: "c1", title: "ls", kind: "execute", status: "in_progress", content: [{ type: "terminal", terminalId: "c1" }] })),
      ev(acp({ sessionUpdate: "tool_call_update", toolCallId: "c1", _meta: { terminal_output_delta: { terminal_id: "c1", data: "\u001b[32ma.txt\u001b[0m\n" } } })),
      ev(acp({ sessionUpdate: "tool_call_update", toolCallId: "c1", _meta: { terminal_output_delta: { terminal_id: "c1", data: "b.txt\n" } } })),
      ev(acp({ sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed", _meta: { terminal_exit: { terminal_id: "c1", exit_code: 0, signal: null } } })),
    ]);
    expect(rowById(codex, "tool:c1")).toMatchObject({
      status: "completed",
      content: [{ type: "terminal", terminalId: "c1" }],
      terminals: [{ terminalId: "c1", output: "\u001b[32ma.txt\u001b[0m\nb.txt\n", truncated: false, exit: { exitCode: 0, signal: null } }],
    });
    // pi: `terminal_output` pieces on updates that also set the status; a failed command's code.
    const pi = run([
      ev(echo("m")),
      ev(acp({ sessionUpdate: "tool_call", toolCallId: "p1", title: "false", kind: "execute", status: "pending", content: [{ type: "terminal", terminalId: "p1" }], _meta: { terminal_info: { terminal_id: "p1", cwd: "/r" } } })),
      ev(acp({ sessionUpdate: "tool_call_update", toolCallId: "p1", status: "in_progress", _meta: { terminal_output: { terminal_id: "p1", data: "one\n" } } })),
      ev(acp({ sessionUpdate: "tool_call_update", toolCallId: "p1", status: "failed", _meta: { terminal_output: { terminal_id: "p1", data: "two\n" }, terminal_exit: { terminal_id: "p1", exit_code: 1, signal: null } } })),
    ]);
    expect(rowById(pi, "tool:p1")).toMatchObject({ status: "failed", terminals: [{ terminalId: "p1", output: "one\ntwo\n", exit: { exitCode: 1 } }] });
  });

  it("terminal output is bounded: the tail is kept and the row says it was cut", () => {
    const line = "y\n".repeat(4096);
    const frames: ServerFrame[] = [ev(echo("m")), ev(acp({ sessionUpdate: "tool_call", toolCallId: "t", title: "yes", kind: "execute", status: "in_progress" }))];
    for (let i = 0; i < 20; i++) frames.push(ev(acp({ sessionUpdate: "tool_call_update", toolCallId: "t", _meta: { terminal_output_delta: { terminal_id: "t", data: line } } })));
    frames.push(ev(acp({ sessionUpdate: "tool_call_update", toolCallId: "t", _meta: { terminal_output_delta: { terminal_id: "t", data: "END" } } })));
    const row = rowById(run(frames), "tool:t");
    if (row?.kind !== "tool") throw new Error("no tool row");
    const term = row.terminals![0]!;
    expect(term.output.length).toBeLessThanOrEqual(MAX_TERMINAL_OUTPUT_CHARS);
    expect(term.output.endsWith("y\nEND")).toBe(true);
    expect(term.output.startsWith("y\n")).toBe(true);
    expect(term.truncated).toBe(true);
  });

  it("one plan row per turn, replaced by each update", () => {
    let s = run([
      ev(echo("m")),
      ev(acp({ sessionUpdate: "plan", entries: [{ content: "A", status: "in_progress", priority: "high" }, { content: "B", status: "pending", priority: "low" }] })),
      ev(chunk("x")),
      ev(acp({ sessionUpdate: "plan", entries: [{ content: "A", status: "completed", priority: "high" }, { content: "B", status: "in_progress", priority: "low" }] })),
    ]);
    expect(kinds(s)).toEqual(["user", "plan", "agent"]);
    expect(rowsOf(s, "plan")[0]!.entries.map((e) => e.status)).toEqual(["completed", "in_progress"]);
    s = run([ev(idle()), ev(echo("n")), ev(acp({ sessionUpdate: "plan", entries: [] }))], s);
    expect(rowsOf(s, "plan")).toHaveLength(2);
  });

  it("permission cards carry the agent's options and show the resolution to everyone", () => {
    let s = run([
      ev(echo("m")),
      ev({ kind: "permission_request", requestId: "p", toolCall: { title: "rm -rf build", kind: "execute" }, options: [{ optionId: "y", name: "Allow", kind: "allow_once" }, { optionId: "n", name: "Reject", kind: "reject_once" }] }),
    ]);
    expect(rowById(s, "perm:p")).toMatchObject({ kind: "permission", title: "rm -rf build", toolKind: "execute", resolved: null });
    s = run([ev({ kind: "permission_resolved", requestId: "p", outcome: "selected", optionId: "y", by: { id: "b", name: "Bea" } })], s);
    expect(rowById(s, "perm:p")).toMatchObject({ resolved: { outcome: "selected", optionId: "y", by: { name: "Bea" } } });
    // A resolution for an unknown request changes nothing.
    expect(fold(s, ev({ kind: "permission_resolved", requestId: "zz", outcome: "cancelled", optionId: null, by: null })).rows).toBe(s.rows);
  });

  it("turn errors, notices and abnormal stops become rows; a normal end does not", () => {
    const s = run([
      ev(echo("m")),
      ev({ kind: "turn_error", message: "boom", code: "INTERNAL" }),
      ev(idle("end_turn")),
      ev(echo("n")),
      ev(idle("cancelled")),
      ev({ kind: "notice", level: "warn", text: "Queued message not sent yet" }),
      ev(acp({ sessionUpdate: "notice", severity: "info", title: "Context compacted" })),
      // Synthetic status on reconnect never adds a row.
      st({ kind: "session_status", state: "idle", stopReason: "cancelled", synthetic: true }),
    ]);
    expect(kinds(s)).toEqual(["user", "error", "user", "turn_end", "notice", "notice"]);
    expect(s.rows.map((r) => r.id).length).toBe(new Set(s.rows.map((r) => r.id)).size);
    expect(s.stopReason).toBe("cancelled");
  });

  it("user_message_chunk, unknown and malformed kinds break nothing", () => {
    const s0 = run([ev(echo("m"))]);
    const s = run(
      [
        ev(acp({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "history" } })),
        ev(acp({ sessionUpdate: "_demo_custom", x: 1 })),
        ev(acp({ sessionUpdate: "tool_call_update" })),
        ev(acp({ sessionUpdate: "agent_message_chunk", content: null })),
        ev(acp({ sessionUpdate: "usage_update", used: "lots" })),
      ],
      s0,
    );
    expect(kinds(s)).toEqual(["user"]);
    expect(s.seq).toBe(6);
  });

  it("config_state sets config (mode / option updates leave it to the daemon's config_state); usage, commands and title are kept", () => {
    const config = {
      modes: { currentModeId: "code", availableModes: [{ id: "code", name: "Code" }, { id: "ask", name: "Ask" }] },
      models: null,
      configOptions: [],
      steering: false,
      images: false,
      queueDepth: 1,
      mergeQueued: false,
    };
    const s = run([
      st({ kind: "config_state", config }),
      ev(acp({ sessionUpdate: "current_mode_update", currentModeId: "ask" })),
      ev(acp({ sessionUpdate: "config_option_update", configOptions: [{ id: "model", category: "model", type: "select", currentValue: "b", options: [] }] })),
      // What the room relays after those updates: the daemon's config computed from them.
      st({
        kind: "config_state",
        config: { ...config, modes: { ...config.modes, currentModeId: "ask" }, configOptions: [{ id: "model", category: "model", type: "select", currentValue: "b", options: [] }] },
      }),
      ev(acp({ sessionUpdate: "usage_update", used: 1200, size: 200000, cost: { amount: 0.12, currency: "USD" } })),
      ev(acp({ sessionUpdate: "available_commands_update", availableCommands: [{ name: "review", description: "Review the diff" }] })),
      ev(acp({ sessionUpdate: "session_info_update", title: "Fix the tests" })),
    ]);
    expect(s.config?.modes?.currentModeId).toBe("ask");
    expect(s.config?.configOptions).toHaveLength(1);
    expect(s.usage).toEqual({ used: 1200, size: 200000, cost: { amount: 0.12, currency: "USD" } });
    expect(s.commands).toEqual([{ name: "review", description: "Review the diff" }]);
    expect(s.title).toBe("Fix the tests");
    expect(s.rows).toEqual([]);
  });

  it("the config is the daemon's config_state only: a mode or option update alone is transcript, not config", () => {
    const config = {
      modes: { currentModeId: "code", availableModes: [{ id: "code", name: "Code" }, { id: "ask", name: "Ask" }] },
      models: null,
      configOptions: [{ id: "model", category: "model", type: "select", currentValue: "a", options: [] }],
      steering: false,
      images: false,
      queueDepth: 1,
      mergeQueued: false,
    };
    let s = run([
      st({ kind: "config_state", config }),
      ev(acp({ sessionUpdate: "current_mode_update", currentModeId: "ask" })),
      ev(acp({ sessionUpdate: "config_option_update", configOptions: [{ id: "model", category: "model", type: "select", currentValue: "b", options: [] }] })),
    ]);
    expect(s.config).toEqual(config);
    expect(s.rows).toEqual([]);
    // What the daemon computed from those updates arrives as config_state (the room relays it): that is what shows.
    const next = { ...config, modes: { ...config.modes, currentModeId: "ask" }, configOptions: [{ ...config.configOptions[0]!, currentValue: "b" }] };
    s = run([st({ kind: "config_state", config: next })], s);
    expect(s.config).toEqual(next);
  });

  it("slash commands keep their input hint and survive a snapshot (the compacted log) and a tail replay", () => {
    const commands = acp({
      sessionUpdate: "available_commands_update",
      availableCommands: [
        { name: "review", description: "Review the diff", input: { hint: "what to focus on" } },
        { name: "compact", description: "Compact the context", input: null },
        { description: "nameless" },
      ],
    });
    const expected = [
      { name: "review", description: "Review the diff", hint: "what to focus on" },
      { name: "compact", description: "Compact the context" },
    ];
    const live = run([ev(commands), ev(echo("m")), ev(chunk("hi", "a")), ev(idle())]);
    expect(live.commands).toEqual(expected);
    const snap = fold(live, { type: "snapshot", seq: 10, events: [commands, echo("m"), chunk("hi", "a"), idle()] });
    expect(snap.commands).toEqual(expected);
    // A later snapshot page (append) does not lose them either.
    expect(fold(snap, { type: "snapshot", seq: 11, append: true, events: [chunk("more", "b")] }).commands).toEqual(expected);
  });

  it("a failed start that carries authMethods keeps them for the login card; a later status clears them", () => {
    const methods = [{ id: "chatgpt", name: "Log in with ChatGPT", description: "Use your ChatGPT account", command: "codex login" }];
    let s = run([st({ kind: "session_status", state: "error", message: "Authentication required", authMethods: methods })]);
    expect(s.authMethods).toEqual(methods);
    expect(s.status).toBe("error");
    // A replay's synthetic status carries them again; an error without them (another failure) shows none.
    s = run([st({ kind: "session_status", state: "error", message: "spawn failed" })], s);
    expect(s.authMethods).toEqual([]);
    s = run([st({ kind: "session_status", state: "error", authMethods: methods }), st({ kind: "session_status", state: "idle" })], s);
    expect(s.authMethods).toEqual([]);
  });

  it("welcome records the viewer and role; ack / error frames leave the state alone", () => {
    const s = run([{ type: "welcome", sessionId: "s", viewer: { id: "v", name: "Vic", role: "viewer" }, headSeq: 0 }]);
    expect(s.viewer?.role).toBe("viewer");
    expect(s.ready).toBe(false);
    expect(fold(s, { type: "ack", rid: "r", op: "message.send", result: { queued: true } })).toBe(s);
    expect(fold(s, { type: "error", rid: "r", code: "QUEUE_FULL", message: "full" })).toBe(s);
  });

  it("cancel (Stop) clear: no row, turn ends, open rows close; a later Stop without drops keeps the offer", () => {
    let s = run([ev(echo("m")), ev(chunk("partial")), st({ kind: "queue_state", entries: [entry("q")], flushed: false })]);
    const rowsBefore = s.rows.length;
    s = run([st({ kind: "queue_state", entries: [], flushed: false, dropped: [entry("q")] }), ev({ kind: "session_status", state: "idle", stopReason: "cancelled" })], s);
    expect(s.queue).toEqual([]);
    expect(s.rows.filter((r) => r.kind === "user")).toHaveLength(1);
    expect(s.rows.length).toBe(rowsBefore + 1); // the "cancelled" turn-end marker only
    expect(s.rows.at(-1)).toMatchObject({ kind: "turn_end", stopReason: "cancelled" });
    expect(s.turnActive).toBe(false);
    expect(s.dropped.map((e) => e.id)).toEqual(["q"]);
  });

  it("chunks with a messageId merge into one row even across other rows; tool rows keep their position", () => {
    const s = run([
      ev(echo("m")),
      ev(chunk("A", "m1")),
      ev({ kind: "acp", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "ls", kind: "execute", status: "in_progress" } }),
      ev(chunk("B", "m1")),
      ev({ kind: "acp", update: { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" } }),
    ]);
    expect(s.rows.map((r) => r.id)).toEqual(["user:m", "agent:m1", "tool:t1"]);
    expect(s.rows[1]).toMatchObject({ text: "AB" });
    expect(s.rows[2]).toMatchObject({ status: "completed", title: "ls" });
  });

  it("state frames never move the cursor; config_state updates config (after a current_mode_update, from the daemon)", () => {
    const config = {
      modes: { currentModeId: "ask", availableModes: [{ id: "ask", name: "Ask" }, { id: "code", name: "Code" }] },
      models: null,
      configOptions: [],
      steering: true,
      images: false,
      queueDepth: 3,
      mergeQueued: false,
    };
    let s = run([ev(echo("a")), st({ kind: "config_state", config })]);
    const cursor = s.seq;
    expect(s.config?.steering).toBe(true);
    s = run([ev({ kind: "acp", update: { sessionUpdate: "current_mode_update", currentModeId: "code" } })], s);
    expect(s.seq).toBe(cursor + 1);
    s = run([st({ kind: "config_state", config: { ...config, modes: { ...config.modes, currentModeId: "code" } } })], s);
    expect(s.config?.modes?.currentModeId).toBe("code");
    expect(s.seq).toBe(cursor + 1);
  });

  it("steer results mark a still-queued entry and are dropped once it leaves the queue", () => {
    let s = run([st({ kind: "queue_state", entries: [entry("q")], flushed: false }), ev({ kind: "steer_result", id: "q", outcome: "failed" })]);
    expect(s.steer).toEqual({ q: "failed" });
    s = run([st({ kind: "queue_state", entries: [], flushed: true })], s);
    expect(s.steer).toEqual({});
    s = run([ev({ kind: "steer_result", id: "gone", outcome: "injected" })], s);
    expect(s.steer).toEqual({});
  });

  it("turn errors and notices are rows with unique ids; unknown update kinds change nothing", () => {
    const before = run([ev(echo("a"))]);
    const after = run([ev({ kind: "acp", update: { sessionUpdate: "brand_new_kind", whatever: [1, 2] } })], before);
    expect(after.rows).toBe(before.rows);
    const s = run([ev({ kind: "turn_error", message: "boom" }), ev({ kind: "notice", level: "warn", text: "careful" }), ev({ kind: "turn_error", message: "again" })], after);
    const ids = s.rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(s.rows.map((r) => r.kind)).toEqual(["user", "error", "notice", "error"]);
  });
});

describe("fold: batch frames", () => {
  it("a batch gives the same state as its frames one by one, and skips seqs already applied", () => {
    const frames = [ev(echo("m")), ev(active()), ev(chunk("Hel")), ev(chunk("lo")), st({ kind: "queue_state", entries: [entry("q")], flushed: false })];
    const oneByOne = run(frames);
    const batched = run([{ type: "batch", frames: frames as Extract<ServerFrame, { type: "event" | "state" }>[] }]);
    expect(batched).toEqual(oneByOne);
    expect(rowsOf(batched, "agent")[0]!.text).toBe("Hello");
    // A replayed batch overlapping the cursor: already-applied seqs change nothing.
    const again = run([{ type: "batch", frames: [frames[2], frames[3], ev(chunk("!"))] as Extract<ServerFrame, { type: "event" }>[] }], batched);
    expect(rowsOf(again, "agent")[0]!.text).toBe("Hello!");
    expect(again.seq).toBe(seq);
  });

  it("closing a turn looks only at rows that may be open, including an old row a late update reopened", () => {
    const tool = (status: string) => ev(acp({ sessionUpdate: "tool_call_update", toolCallId: "t1", title: "Run", status }));
    let s = run([ev(echo("m1")), ev(active()), ev(acp({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Run", status: "in_progress" })), ev(chunk("a")), ev(idle())]);
    expect(s.openFrom).toBe(s.rows.length);
    s = run([ev(echo("m2")), ev(active()), ev(chunk("b"))], s);
    expect(s.openFrom).toBe(3); // the new turn's streaming text
    // A late update for the first turn's tool while the second runs: live again, below the turn's rows.
    s = run([tool("in_progress")], s);
    expect(rowById(s, "tool:t1")).toMatchObject({ live: true });
    expect(s.openFrom).toBe(1);
    s = run([ev(idle())], s);
    expect(rowById(s, "tool:t1")).toMatchObject({ live: false });
    expect(s.rows.some((r) => (r.kind === "agent" && r.streaming) || (r.kind === "tool" && r.live))).toBe(false);
    expect(s.openFrom).toBe(s.rows.length);
  });

  it("folding a batch or snapshot never mutates the state it started from; untouched rows keep identity", () => {
    const before = run([ev(echo("m1")), ev(active()), ev(chunk("a", "x")), ev(idle()), ev(echo("m2")), ev(active())]);
    const rows = before.rows.slice();
    const index = { ...before.rowIndex };
    const turn = [ev(chunk("b", "y")), ev({ kind: "acp", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "Read", kind: "read", status: "in_progress" } }), ev(idle()), ev(echo("m3"))];
    const after = fold(before, { type: "batch", frames: turn as Extract<ServerFrame, { type: "event" }>[] });
    expect(before.rows).toEqual(rows);
    expect(before.rowIndex).toEqual(index);
    expect(after.rows[0]).toBe(before.rows[0]);
    expect(after).toEqual(run(turn, before));
    expect(rowsOf(after, "tool")[0]!.live).toBe(false);
    // A snapshot of many turns gives what the same events give one by one.
    const events = [echo("s1"), chunk("one", "p"), idle(), echo("s2"), thought("hm"), chunk("two", "q"), idle()];
    // (A snapshot says where each row began — `at` — so its rows are named as the live ones.)
    const live = events.map((e) => ev(e));
    const snap = fold(before, { type: "snapshot", seq: 99, events, at: live.map((f) => (f.type === "event" ? f.seq : 0)) });
    expect(snap.rows).toEqual(run(live).rows);
    expect(before.rows).toEqual(rows);
  });

  it("framesOf unpacks a batch and leaves other frames as they are", () => {
    const a = ev(chunk("a"));
    const b = st(idle());
    expect(framesOf({ type: "batch", frames: [a, b] as Extract<ServerFrame, { type: "event" | "state" }>[] })).toEqual([a, b]);
    expect(framesOf(a)).toEqual([a]);
  });
});

describe("fold: review frames (issue 28 #3)", () => {
  it("moves reviewVersion only; the same version again keeps the state object", () => {
    const s0 = initialSessionState();
    expect(s0.reviewVersion).toBe(0);
    const s1 = fold(s0, { type: "review", version: 3 });
    expect(s1.reviewVersion).toBe(3);
    expect(s1.rows).toBe(s0.rows);
    expect(s1.seq).toBe(s0.seq);
    expect(fold(s1, { type: "review", version: 3 })).toBe(s1);
    expect(ServerFrameSchema.safeParse({ type: "review", version: 0 }).success).toBe(false);
  });
});
