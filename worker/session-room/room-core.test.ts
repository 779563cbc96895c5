/**
 * The room's rules, in plain Node: RoomCore over a RoomStore on an in-memory SQLite, with a recording
 * port (frames to viewers, commands to the Machine, directory writes, a fixed clock).
 */
import { settingsFromConfig } from "../../shared/session-settings";
import { describe, expect, it } from "vitest";
import { fold, framesOf, initialSessionState } from "../../shared/fold";
import { MAX_QUEUE_BYTES, REPLAY_TAIL_MAX } from "../../shared/limits";
import { requeueId } from "../../shared/requeue-id";
import type { AgentConfig, DaemonEvent, MachineCommand } from "../../shared/tunnel-protocol";
import type { AckFrame, ClientOp, ErrorFrame, ServerFrame, SessionEvent, Viewer } from "../../shared/viewer-protocol";
import type { DispatchOptions, DispatchResult } from "../machine/dispatch-result";
import { memorySql } from "../testing/memory-sql";
import { type Replier, RoomCore, type RoomPort } from "./room-core";
import { RoomStore } from "./room-store";
import type { PushEvent } from "../push/notify-rules";

const OWNER: Viewer = { id: "u1", name: "Ann", role: "owner" };
const MEMBER: Viewer = { id: "u2", name: "Bob", role: "member" };
const READER: Viewer = { id: "u3", name: "Cy", role: "viewer" };
const SESSION = { sessionId: "s1", machineId: "m1", agentId: "demo", cwd: "/work", title: "t", ownerId: "u1" };
const CONFIG: AgentConfig = {
  modes: { currentModeId: "code", availableModes: [{ id: "code", name: "Code" }, { id: "ask", name: "Ask" }] },
  models: null,
  configOptions: [{ id: "model", category: "model", type: "select", currentValue: "a", options: [] }],
  steering: true,
  images: false,
};
const text = (t: string) => [{ type: "text" as const, text: t }];

type OpInput = ClientOp extends infer T ? (T extends ClientOp ? Omit<T, "rid"> : never) : never;
type Reply = AckFrame | ErrorFrame;

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

async function makeRoom(opts: { ready?: boolean; config?: AgentConfig } = {}) {
  const store = new RoomStore(memorySql());
  const frames: ServerFrame[] = [];
  const commands: { command: MachineCommand; opts: DispatchOptions }[] = [];
  const directory: string[] = [];
  const pushes: PushEvent[] = [];
  const presenceChecks: string[] = [];
  let answer: (c: MachineCommand) => DispatchResult | Promise<DispatchResult> = () => ({ ok: true });
  let ids = 0;
  let n = 0;
  const port: RoomPort = {
    broadcast: (t) => void frames.push(...framesOf(JSON.parse(t) as ServerFrame)),
    dispatch: async (machineId, sessionId, command, o) => {
      expect({ machineId, sessionId }).toEqual({ machineId: "m1", sessionId: "s1" });
      commands.push({ command, opts: o });
      return answer(command);
    },
    checkMachinePresence: async (machineId) => void presenceChecks.push(machineId),
    directoryStatus: (_id, state) => void directory.push(state),
    directoryActivity: (_id, at) => void directory.push(`activity@${at}`),
    directoryTitle: (_id, t) => void directory.push(`title:${JSON.stringify(t)}`),
    directoryNeedsYou: (_id, open) => void directory.push(`needs_you:${open}`),
    notify: (build) => void pushes.push(build()),
    now: () => 1000,
    newId: () => `turn${++ids}`,
    // A viewer is joined (the dormant agent's rules are on-machine-status.test.ts and the workerd test's).
    watched: () => true,
  };
  let core = new RoomCore(store, port);
  let rid = 0;
  const r = {
    get core() {
      return core;
    },
    /** The Durable Object's instance is reset (its memory gone, its storage kept): a new core over the same store. */
    reset: () => void (core = new RoomCore(store, port)),
    store,
    frames,
    commands,
    directory,
    pushes,
    presenceChecks,
    /** Sends an op as `viewer` and returns the one answer it got. */
    async op(input: OpInput, viewer: Viewer = OWNER): Promise<Reply> {
      const replies: Reply[] = [];
      const replier: Replier = {
        ack: (op, result) => void replies.push(JSON.parse(JSON.stringify({ type: "ack", rid: op.rid, op: op.op, result }))),
        error: (id, code, message) => void replies.push({ type: "error", rid: id, code, message }),
      };
      await core.handleOp(viewer, { ...input, rid: `r${++rid}` } as ClientOp, replier);
      expect(replies).toHaveLength(1);
      return replies[0]!;
    },
    daemon: (...events: DaemonEvent[]) => core.onDaemonEvents("e1", events.map((event) => ({ n: ++n, event }))),
    answer: (f: typeof answer) => void (answer = f),
    events: (): SessionEvent[] => frames.flatMap((f) => (f.type === "event" || f.type === "state" ? [f.event] : [])),
    kinds: () => r.events().map((e) => e.kind),
    of: <K extends SessionEvent["kind"]>(kind: K) => r.events().filter((e): e is Extract<SessionEvent, { kind: K }> => e.kind === kind),
    prompts: () => commands.flatMap((c) => (c.command.t === "prompt" ? [c.command] : [])),
    lastQueue: () => r.of("queue_state").at(-1),
    /** Ends the running turn (the daemon's turn.ended for the last prompt). */
    endTurn: (stopReason = "end_turn") => r.daemon({ t: "turn.ended", sessionId: "s1", turnId: r.prompts().at(-1)!.turnId, stopReason }),
    clear: () => void ((frames.length = 0), (pushes.length = 0)),
  };
  await core.init(SESSION);
  if (opts.ready !== false)
    await r.daemon({ t: "session.ready", sessionId: "s1", agentSessionId: "a1", config: opts.config ?? CONFIG, resumed: false });
  r.clear();
  return r;
}

/** What a viewer joining after `after` is sent. */
function replayOf(r: Awaited<ReturnType<typeof makeRoom>>, after: number): ServerFrame[] {
  const out: ServerFrame[] = [];
  r.core.replay(MEMBER, after, (t) => void out.push(JSON.parse(t) as ServerFrame));
  return out;
}

/** A room with a running turn (from message "m0"). */
async function busyRoom(opts: { config?: AgentConfig } = {}) {
  const r = await makeRoom(opts);
  await r.op({ op: "message.send", id: "m0", blocks: text("first") });
  r.clear();
  return r;
}

describe("room core: opening", () => {
  it("init opens the agent session on the machine; session.ready makes it idle with the daemon's config", async () => {
    const r = await makeRoom({ ready: false });
    expect(r.commands.map((c) => c.command)).toEqual([{ t: "session.open", sessionId: "s1", agentId: "demo", cwd: "/work", agentSessionId: null, restore: null }]);
    expect(r.core.info().status).toEqual({ kind: "session_status", state: "starting" });
    await r.daemon({ t: "session.ready", sessionId: "s1", agentSessionId: "a1", config: CONFIG, resumed: false });
    expect(r.kinds()).toEqual(["config_state", "session_status"]);
    expect(r.of("config_state")[0]!.config).toEqual({ ...CONFIG, queueDepth: 1, mergeQueued: false });
    expect(r.core.info().status.state).toBe("idle");
    expect(r.directory).toContain("idle");
  });

  it("a read-only viewer cannot act", async () => {
    const r = await makeRoom();
    expect(await r.op({ op: "message.send", id: "x", blocks: text("hi") }, READER)).toMatchObject({ type: "error", code: "FORBIDDEN" });
    expect(r.prompts()).toEqual([]);
  });
});

describe("room core: a join confirms the machine's presence", () => {
  it("asks the Machine once per wake of the room, only while it believes the machine online", async () => {
    const r = await makeRoom();
    await r.core.confirmPresence();
    expect(r.core.confirmPresence()).toBeNull();
    expect(r.presenceChecks).toEqual(["m1"]);
    // A new instance (the room woke again) asks again.
    r.reset();
    await r.core.confirmPresence();
    expect(r.presenceChecks).toEqual(["m1", "m1"]);
    // Known offline: nothing to confirm.
    r.reset();
    await r.core.onMachineStatus({ online: false, liveSessionIds: [], restarted: false });
    expect(r.core.confirmPresence()).toBeNull();
    expect(r.presenceChecks).toEqual(["m1", "m1"]);
  });
});

describe("room core: send, queue, flush", () => {
  it("idle: forwards, echoes user_message then active, acks queued:false; a retried id is answered, not run twice", async () => {
    const r = await makeRoom();
    expect(await r.op({ op: "message.send", id: "m1", blocks: text("hi") })).toEqual({ type: "ack", rid: "r1", op: "message.send", result: { queued: false } });
    expect(r.prompts()).toEqual([{ t: "prompt", sessionId: "s1", turnId: "turn1", messageId: "m1", blocks: text("hi") }]);
    expect(r.commands[1]!.opts).toEqual({ startsTurn: true, fromQueue: false });
    expect(r.events()).toEqual([
      { kind: "user_message", id: "m1", blocks: text("hi"), author: { id: "u1", name: "Ann" }, at: 1000 },
      { kind: "session_status", state: "active", turnId: "turn1" },
    ]);
    expect(await r.op({ op: "message.send", id: "m1", blocks: text("hi") })).toMatchObject({ result: { queued: false, duplicate: true } });
    expect(r.prompts()).toHaveLength(1);
  });

  it("busy: parks, emits queue_state, acks queued with its position; at depth → QUEUE_FULL and nothing parked", async () => {
    const r = await busyRoom();
    expect(await r.op({ op: "message.send", id: "q1", blocks: text("later") }, MEMBER)).toMatchObject({ result: { queued: true, position: 1 } });
    expect(r.lastQueue()).toMatchObject({ flushed: false, entries: [{ id: "q1", author: { id: "u2", name: "Bob" }, state: "queued" }] });
    expect(await r.op({ op: "message.send", id: "q2", blocks: text("more") })).toMatchObject({ type: "error", code: "QUEUE_FULL", message: "a message is already queued" });
    expect(r.store.queue().map((e) => e.id)).toEqual(["q1"]);
    expect(r.prompts()).toHaveLength(1);
  });

  it("the queue is bounded by bytes as well as by depth", async () => {
    const r = await busyRoom();
    await r.op({ op: "settings.set", queueDepth: 4 });
    const big = "x".repeat(MAX_QUEUE_BYTES / 2);
    expect(await r.op({ op: "message.send", id: "q1", blocks: text(big) })).toMatchObject({ type: "ack" });
    expect(await r.op({ op: "message.send", id: "q2", blocks: text(big) })).toMatchObject({ type: "error", code: "QUEUE_FULL" });
    expect(r.store.queueLength()).toBe(1);
  });

  it("a send before the agent session is ready parks (it runs once ready)", async () => {
    const r = await makeRoom({ ready: false });
    r.clear();
    expect(await r.op({ op: "message.send", id: "early", blocks: text("hi") })).toMatchObject({ result: { queued: true } });
    await r.daemon({ t: "session.ready", sessionId: "s1", agentSessionId: "a1", config: CONFIG, resumed: false });
    expect(r.prompts().map((p) => p.messageId)).toEqual(["early"]);
  });

  it("on busy→idle the head flushes: status idle, then queue_state{flushed} → user_message → active, forwarded from the queue", async () => {
    const r = await busyRoom();
    await r.op({ op: "message.send", id: "q1", blocks: text("next") });
    r.clear();
    await r.endTurn();
    expect(r.kinds()).toEqual(["session_status", "queue_state", "user_message", "session_status"]);
    expect(r.events()[0]).toMatchObject({ state: "idle", stopReason: "end_turn" });
    expect(r.events()[1]).toEqual({ kind: "queue_state", entries: [], flushed: true });
    expect(r.events()[2]).toMatchObject({ id: "q1" });
    expect(r.prompts().at(-1)).toMatchObject({ messageId: "q1" });
    expect(r.commands.at(-1)!.opts).toEqual({ startsTurn: true, fromQueue: true });
    // The flushed id is settled as sent: ops on it say so.
    expect(await r.op({ op: "queue.cancel", id: "q1" })).toMatchObject({ result: { outcome: "already_sent" } });
  });

  it("mergeQueued flushes every queued entry as one merged prompt", async () => {
    const r = await busyRoom();
    await r.op({ op: "settings.set", queueDepth: 3, mergeQueued: true });
    await r.op({ op: "message.send", id: "a", blocks: text("one") });
    await r.op({ op: "message.send", id: "b", blocks: text("two") });
    await r.endTurn();
    expect(r.prompts().at(-1)).toMatchObject({ messageId: "a" });
    expect(r.prompts()).toHaveLength(2);
    expect(r.of("user_message").map((m) => m.id)).toEqual(["a", "b"]);
  });

  it("a refused flush puts the entries back at the head with a notice", async () => {
    const r = await busyRoom();
    await r.op({ op: "message.send", id: "q1", blocks: text("next") });
    r.answer((c) => (c.t === "prompt" ? { ok: false, code: "MACHINE_BUSY", message: "busy" } : { ok: true }));
    await r.endTurn();
    expect(r.store.queue().map((e) => e.id)).toEqual(["q1"]);
    expect(r.store.turn()).toBeNull();
    expect(r.of("notice").at(-1)).toMatchObject({ level: "warn", text: "Queued message not sent yet: busy" });
  });

  it("a refused idle send releases the turn and answers the Machine's error", async () => {
    const r = await makeRoom();
    r.answer(() => ({ ok: false, code: "MACHINE_BUSY", message: "machine busy" }));
    expect(await r.op({ op: "message.send", id: "m1", blocks: text("hi") })).toMatchObject({ type: "error", code: "MACHINE_BUSY" });
    expect(r.store.turn()).toBeNull();
    expect(r.of("user_message")).toEqual([]);
  });

  it("offline: an idle send is refused; with a turn nominally running it queues", async () => {
    const r = await busyRoom();
    await r.core.onMachineStatus({ online: false, liveSessionIds: [], restarted: false });
    expect(r.of("session_status").at(-1)).toMatchObject({ state: "offline", turnRunning: true });
    expect(await r.op({ op: "message.send", id: "q1", blocks: text("later") })).toMatchObject({ result: { queued: true } });
    const idle = await makeRoom();
    await idle.core.onMachineStatus({ online: false, liveSessionIds: [], restarted: false });
    expect(await idle.op({ op: "message.send", id: "m", blocks: text("hi") })).toMatchObject({ type: "error", code: "MACHINE_OFFLINE" });
  });

  it("the echo precedes the agent's output: daemon events wait for an in-flight forward", async () => {
    const r = await makeRoom();
    const gate = deferred<DispatchResult>();
    r.answer(() => gate.promise);
    const send = r.op({ op: "message.send", id: "m1", blocks: text("hi") });
    await Promise.resolve();
    const turnId = r.store.turn()!.turnId;
    const events = r.daemon({ t: "session.update", sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "out" } } });
    await new Promise((res) => setImmediate(res));
    expect(r.kinds()).toEqual([]);
    gate.resolve({ ok: true });
    await Promise.all([send, events]);
    expect(r.kinds()).toEqual(["user_message", "session_status", "acp"]);
    expect(turnId).toBe("turn1");
  });

  it("a duplicate send arriving while the first is forwarded gets the same answer", async () => {
    const r = await makeRoom();
    const gate = deferred<DispatchResult>();
    r.answer(() => gate.promise);
    const a = r.op({ op: "message.send", id: "m1", blocks: text("hi") });
    const b = r.op({ op: "message.send", id: "m1", blocks: text("hi") });
    gate.resolve({ ok: true });
    expect(await a).toMatchObject({ result: { queued: false } });
    expect(await b).toMatchObject({ result: { queued: false, duplicate: true } });
    expect(r.prompts()).toHaveLength(1);
  });
});

describe("room core: the instance reset while a prompt was being forwarded (issue 19 #6)", () => {
  /** A room whose next forward never answers, reset while it hangs: the reservation is stored, the echo not sent. */
  async function resetMidForward(start: (r: Awaited<ReturnType<typeof makeRoom>>) => Promise<unknown>, r?: Awaited<ReturnType<typeof makeRoom>>) {
    const room = r ?? (await makeRoom());
    room.answer(() => new Promise<DispatchResult>(() => {}));
    void start(room);
    await new Promise((res) => setImmediate(res));
    expect(room.store.turn()).not.toBeNull();
    room.reset();
    room.answer(() => ({ ok: true }));
    return room;
  }
  const userIds = (r: Awaited<ReturnType<typeof makeRoom>>) => r.of("user_message").map((e) => e.id);
  const joinShows = (r: Awaited<ReturnType<typeof makeRoom>>) =>
    replayOf(r, 0).flatMap((f) => framesOf(f)).reduce((acc, f) => fold(acc, f), initialSessionState()).rows.filter((row) => row.kind === "user").map((row) => row.id);

  it("the daemon's turn.started confirms the turn: one echo, and the client's resend is answered, not queued or run again", async () => {
    const r = await resetMidForward((room) => room.op({ op: "message.send", id: "m1", blocks: text("hi") }));
    const turnId = r.prompts()[0]!.turnId;
    await r.daemon({ t: "turn.started", sessionId: "s1", turnId });
    expect(userIds(r)).toEqual(["m1"]);
    expect(r.core.info().status.state).toBe("active");
    expect(await r.op({ op: "message.send", id: "m1", blocks: text("hi") })).toMatchObject({ result: { queued: false, duplicate: true } });
    expect(r.store.queueLength()).toBe(0);
    await r.endTurn();
    expect(r.prompts().map((p) => p.turnId)).toEqual([turnId]);
    expect(joinShows(r)).toEqual(["user:m1"]);
  });

  it("a reservation the Machine may never have got is forwarded again, same turn id, on the next op; the echo comes once", async () => {
    const r = await resetMidForward((room) => room.op({ op: "message.send", id: "m1", blocks: text("hi") }));
    expect(await r.op({ op: "message.send", id: "m1", blocks: text("hi") })).toMatchObject({ result: { queued: false, duplicate: true } });
    const [first, again] = r.prompts();
    expect(again).toEqual(first);
    expect(userIds(r)).toEqual(["m1"]);
    // The daemon's own turn.started (from either forward) confirms nothing twice.
    await r.daemon({ t: "turn.started", sessionId: "s1", turnId: first!.turnId });
    expect(userIds(r)).toEqual(["m1"]);
    await r.endTurn();
    expect(r.core.info().status.state).toBe("idle");
    expect(joinShows(r)).toEqual(["user:m1"]);
  });

  it("a queue flush cut by the reset: the flushed entry is confirmed by turn.started — neither lost from a join nor run twice", async () => {
    const busy = await busyRoom();
    await busy.op({ op: "message.send", id: "q1", blocks: text("queued") });
    const r = await resetMidForward((room) => room.endTurn(), busy);
    expect(r.store.queueLength()).toBe(0);
    const turnId = r.prompts().at(-1)!.turnId;
    await r.daemon({ t: "turn.started", sessionId: "s1", turnId });
    expect(userIds(r)).toEqual(["q1"]);
    expect(r.lastQueue()).toMatchObject({ flushed: true, entries: [] });
    expect(await r.op({ op: "message.send", id: "q1", blocks: text("queued") })).toMatchObject({ result: { queued: true, duplicate: true } });
    await r.endTurn();
    expect(r.prompts().filter((p) => p.messageId === "q1")).toHaveLength(1);
    expect(joinShows(r)).toEqual(["user:m0", "user:q1"]);
  });

  it("forwarding again refused (the machine went offline meanwhile): the messages go back to the queue head, none lost", async () => {
    const busy = await busyRoom();
    await busy.op({ op: "message.send", id: "q1", blocks: text("queued") });
    const r = await resetMidForward((room) => room.endTurn(), busy);
    r.answer(() => ({ ok: false, code: "MACHINE_OFFLINE", message: "the machine is offline" }));
    // Any op first forwards the reservation again; this one then finds the entry back in the queue.
    expect(await r.op({ op: "queue.move", id: "q1", before: null })).toMatchObject({ type: "ack", result: { outcome: "moved" } });
    expect(r.store.turn()).toBeNull();
    expect(r.lastQueue()!.entries.map((e) => e.id)).toEqual(["q1"]);
    expect(r.of("notice").at(-1)!.text).toMatch(/not sent yet/);
    expect(await r.op({ op: "message.send", id: "q1", blocks: text("queued") })).toMatchObject({ result: { queued: true, duplicate: true } });
    r.answer(() => ({ ok: true }));
    await r.core.onMachineStatus({ online: true, liveSessionIds: ["s1"], restarted: false });
    expect(userIds(r)).toEqual(["q1"]);
    const q1 = r.prompts().filter((p) => p.messageId === "q1").map((p) => p.turnId);
    expect(q1).toHaveLength(3);
    expect(q1[1]).toBe(q1[0]);
    expect(q1[2]).not.toBe(q1[0]);
  });
});

describe("room core: queue ops", () => {
  async function queued(ids: string[]) {
    const r = await busyRoom();
    await r.op({ op: "settings.set", queueDepth: 8 });
    for (const id of ids) await r.op({ op: "message.send", id, blocks: text(id) });
    r.clear();
    return r;
  }

  it("cancel drops the entry and returns it; again → cancelled; unknown → not_found", async () => {
    const r = await queued(["a", "b"]);
    expect(await r.op({ op: "queue.cancel", id: "a" })).toMatchObject({ result: { outcome: "cancelled", entry: { id: "a", blocks: text("a") } } });
    expect(r.events()).toEqual([{ kind: "queue_state", entries: [expect.objectContaining({ id: "b" })], flushed: false }]);
    expect(await r.op({ op: "queue.cancel", id: "a" })).toEqual(expect.objectContaining({ result: { outcome: "cancelled" } }));
    expect(await r.op({ op: "queue.cancel", id: "zzz" })).toMatchObject({ result: { outcome: "not_found" } });
  });

  it("edit keeps id and position; an edit past the byte limit is refused", async () => {
    const r = await queued(["a", "b", "c"]);
    expect(await r.op({ op: "queue.edit", id: "b", blocks: text("B!") })).toMatchObject({ result: { outcome: "edited", entry: { id: "b", blocks: text("B!") } } });
    expect(r.store.queue().map((e) => [e.id, e.blocks])).toEqual([["a", text("a")], ["b", text("B!")], ["c", text("c")]]);
    expect(await r.op({ op: "queue.edit", id: "b", blocks: text("x".repeat(MAX_QUEUE_BYTES)) })).toMatchObject({ type: "error", code: "QUEUE_FULL" });
    expect(await r.op({ op: "queue.edit", id: "gone", blocks: text("x") })).toMatchObject({ result: { outcome: "not_found" } });
  });

  it("move reorders before an entry, or to the end", async () => {
    const r = await queued(["a", "b", "c"]);
    expect(await r.op({ op: "queue.move", id: "c", before: "a" })).toMatchObject({ result: { outcome: "moved" } });
    expect(r.store.queue().map((e) => e.id)).toEqual(["c", "a", "b"]);
    await r.op({ op: "queue.move", id: "c" });
    expect(r.store.queue().map((e) => e.id)).toEqual(["a", "b", "c"]);
    expect(r.lastQueue()!.entries.map((e) => e.id)).toEqual(["a", "b", "c"]);
  });

  it("steer: forwarded mid-turn, the entry is out for steering (no cancel / edit), injected → it leaves with its echo", async () => {
    const r = await queued(["a", "b"]);
    expect(await r.op({ op: "queue.steer", id: "b" })).toMatchObject({ result: { outcome: "steering" } });
    expect(r.commands.at(-1)!.command).toEqual({ t: "steer", sessionId: "s1", entryId: "b", blocks: text("b") });
    expect(r.lastQueue()!.entries.find((e) => e.id === "b")!.state).toBe("steering");
    expect(await r.op({ op: "queue.cancel", id: "b" })).toMatchObject({ result: { outcome: "steering" } });
    expect(await r.op({ op: "queue.edit", id: "b", blocks: text("x") })).toMatchObject({ result: { outcome: "already_sent" } });
    expect(await r.op({ op: "queue.steer", id: "b" })).toMatchObject({ result: { outcome: "steering" } });
    r.clear();
    await r.daemon({ t: "steer.result", sessionId: "s1", entryId: "b", outcome: "injected" });
    expect(r.kinds()).toEqual(["queue_state", "user_message", "steer_result"]);
    expect(r.store.queue().map((e) => e.id)).toEqual(["a"]);
  });

  it("steer refused → back to queued, and flushed if the turn ended meanwhile; indeterminate stays until retried", async () => {
    const r = await queued(["a"]);
    await r.op({ op: "queue.steer", id: "a" });
    await r.endTurn();
    expect(r.prompts()).toHaveLength(1); // out for steering: not flushed
    await r.daemon({ t: "steer.result", sessionId: "s1", entryId: "a", outcome: "failed" });
    expect(r.prompts().at(-1)).toMatchObject({ messageId: "a" });

    const u = await queued(["u"]);
    await u.op({ op: "queue.steer", id: "u" });
    await u.daemon({ t: "steer.result", sessionId: "s1", entryId: "u", outcome: "indeterminate" });
    await u.endTurn();
    expect(u.prompts()).toHaveLength(1); // never replayed by itself
    expect(await u.op({ op: "queue.steer", id: "u" })).toMatchObject({ result: { outcome: "requeued" } });
    expect(u.prompts().at(-1)).toMatchObject({ messageId: "u" });
  });

  it("steer is refused when the agent cannot steer, or when idle for an ordinary entry", async () => {
    const r = await busyRoom({ config: { ...CONFIG, steering: false } });
    await r.op({ op: "message.send", id: "a", blocks: text("a") });
    expect(await r.op({ op: "queue.steer", id: "a" })).toMatchObject({ type: "error", code: "NOT_SUPPORTED" });
    const idle = await makeRoom({ ready: false });
    await idle.op({ op: "message.send", id: "a", blocks: text("a") });
    await idle.core.onMachineStatus({ online: false, liveSessionIds: [], restarted: false });
    idle.store.update((s) => ({ ...s, agentConfig: CONFIG }));
    expect(await idle.op({ op: "queue.steer", id: "a" })).toMatchObject({ type: "error", code: "NOT_SUPPORTED", message: "no running turn to steer into" });
  });
});

describe("room core: Stop", () => {
  it("drops the queue (returned in the frame and the ack), cancels the turn, and sends nothing after", async () => {
    const r = await busyRoom();
    await r.op({ op: "message.send", id: "q1", blocks: text("later") });
    r.clear();
    const ack = await r.op({ op: "turn.cancel" });
    expect(ack).toMatchObject({ result: { outcome: "cancelled", dropped: [{ id: "q1" }] } });
    expect(r.events()).toEqual([{ kind: "queue_state", entries: [], flushed: false, dropped: [expect.objectContaining({ id: "q1" })] }]);
    expect(r.commands.at(-1)).toEqual({ command: { t: "cancel", sessionId: "s1" }, opts: { deliverWhenOnline: true } });
    expect(r.store.turn()?.cancelRequested).toBe(true);
    await r.endTurn("cancelled");
    expect(r.prompts()).toHaveLength(1);
    expect(await r.op({ op: "queue.cancel", id: "q1" })).toMatchObject({ result: { outcome: "cancelled" } });
  });

  it("idle Stop answers idle and emits nothing", async () => {
    const r = await makeRoom();
    expect(await r.op({ op: "turn.cancel" })).toMatchObject({ result: { outcome: "idle", dropped: [] } });
    expect(r.events()).toEqual([]);
  });
});

describe("room core: what a Stop dropped (each entry re-queued or restored, once)", () => {
  /** A room where a Stop dropped "x1" and "x2" and the cancelled turn ended (idle). */
  async function droppedRoom() {
    const r = await busyRoom();
    r.store.update((s) => ({ ...s, settings: { queueDepth: 2, mergeQueued: false } }));
    await r.op({ op: "message.send", id: "x1", blocks: text("one") });
    await r.op({ op: "message.send", id: "x2", blocks: text("two") });
    await r.op({ op: "turn.cancel" });
    await r.endTurn("cancelled");
    r.clear();
    return r;
  }

  it("a restore claims the entries for one viewer: the offer goes for everyone, a late Re-queue runs nothing, a second restore gets nothing", async () => {
    const r = await droppedRoom();
    expect(await r.op({ op: "queue.claimDropped", ids: ["x1", "x2"] })).toMatchObject({ result: { claimed: ["x1", "x2"] } });
    expect(r.events()).toEqual([{ kind: "dropped_offer", entries: [] }]);
    const late = await r.op({ op: "message.send", id: requeueId("x1"), blocks: text("one") }, MEMBER);
    expect(late).toMatchObject({ result: { queued: false, taken: true, duplicate: true } });
    expect(r.prompts()).toHaveLength(1); // only m0 ever ran
    expect(await r.op({ op: "queue.claimDropped", ids: ["x1", "x2"] }, MEMBER)).toMatchObject({ result: { claimed: [] } });
  });

  it("a restore after a Re-queue gets only what was not re-queued; the re-queued entry leaves the offer for everyone", async () => {
    const r = await droppedRoom();
    await r.op({ op: "message.send", id: requeueId("x1"), blocks: text("one") }, MEMBER); // runs now (idle)
    expect(r.of("dropped_offer")).toEqual([{ kind: "dropped_offer", entries: [] }]); // the new turn cleared it
    expect(await r.op({ op: "queue.claimDropped", ids: ["x1", "x2"] })).toMatchObject({ result: { claimed: ["x2"] } });
    expect(await r.op({ op: "message.send", id: requeueId("x2"), blocks: text("two") }, MEMBER)).toMatchObject({ result: { taken: true } });
    expect(r.prompts().map((p) => p.messageId)).toEqual(["m0", requeueId("x1")]);
  });

  it("a Re-queue behind a running turn takes that entry out of the offer; ids never dropped are not claimable", async () => {
    const r = await busyRoom();
    await r.op({ op: "message.send", id: "x1", blocks: text("one") });
    await r.op({ op: "turn.cancel" });
    r.clear();
    expect(await r.op({ op: "message.send", id: requeueId("x1"), blocks: text("one") })).toMatchObject({ result: { queued: true } });
    expect(r.of("dropped_offer")).toEqual([{ kind: "dropped_offer", entries: [] }]);
    expect(await r.op({ op: "queue.claimDropped", ids: ["x1", "m0", "nope"] })).toMatchObject({ result: { claimed: [] } });
  });

  it("a new turn clears the offer for everyone; a joiner sees an open offer in the replay", async () => {
    const r = await droppedRoom();
    const joined: string[] = [];
    r.core.replay(OWNER, 0, (t) => void joined.push(t));
    const offer = joined.map((t) => JSON.parse(t) as ServerFrame).find((f) => f.type === "state" && f.event.kind === "dropped_offer");
    expect(offer).toMatchObject({ event: { entries: [{ id: "x1" }, { id: "x2" }] } });
    await r.op({ op: "message.send", id: "fresh", blocks: text("fresh") });
    expect(r.kinds()).toEqual(["dropped_offer", "user_message", "session_status"]);
    expect(r.of("dropped_offer")[0]!.entries).toEqual([]);
    const again: string[] = [];
    r.core.replay(OWNER, 0, (t) => void again.push(t));
    expect(again.some((t) => t.includes('"dropped_offer"'))).toBe(false);
  });
});

describe("room core: what tells the session apart in the list", () => {
  it("the first prompt that runs is written once, as one line; the agent's own title when it names the session", async () => {
    const r = await makeRoom();
    await r.op({ op: "message.send", id: "m1", blocks: text("  fix the\n flaky   login test ") });
    await r.endTurn();
    await r.op({ op: "message.send", id: "m2", blocks: text("and then this") });
    expect(r.directory.filter((d) => d.startsWith("title:"))).toEqual(['title:{"firstPrompt":"fix the flaky login test"}']);
    const info = (title: string | null) => ({ t: "session.update" as const, sessionId: "s1", update: { sessionUpdate: "session_info_update", title } });
    await r.daemon(info("Login test fix"), info("Login test fix"), info(null));
    expect(r.directory.filter((d) => d.startsWith("title:"))).toEqual([
      'title:{"firstPrompt":"fix the flaky login test"}',
      'title:{"agentTitle":"Login test fix"}',
    ]);
  });
});

describe("room core: config and settings", () => {
  it("writes only what the agent advertised; forwarded at once, applying from the next turn mid-turn", async () => {
    const r = await busyRoom();
    expect(await r.op({ op: "mode.set", modeId: "nope" })).toMatchObject({ type: "error", code: "NOT_SUPPORTED" });
    expect(await r.op({ op: "model.set", modelId: "m" })).toMatchObject({ type: "error", code: "NOT_SUPPORTED" });
    expect(await r.op({ op: "mode.set", modeId: "ask" })).toMatchObject({ result: { outcome: "forwarded", appliesNextTurn: true } });
    expect(await r.op({ op: "config.set", configId: "model", value: "b" })).toMatchObject({ result: { outcome: "forwarded", appliesNextTurn: true } });
    expect(r.commands.slice(-2).map((c) => c.command)).toEqual([
      { t: "mode.set", sessionId: "s1", modeId: "ask" },
      { t: "config.set", sessionId: "s1", configId: "model", value: "b" },
    ]);
  });

  it("applies the daemon's config: one mode change is one config_state (the room does not recompute it from the update)", async () => {
    const r = await makeRoom();
    const next = { ...CONFIG, modes: { ...CONFIG.modes!, currentModeId: "ask" } };
    await r.daemon(
      { t: "session.update", sessionId: "s1", update: { sessionUpdate: "current_mode_update", currentModeId: "ask" } },
      { t: "config.state", sessionId: "s1", config: next },
    );
    expect(r.kinds()).toEqual(["acp", "config_state"]);
    expect(r.of("config_state")[0]!.config.modes?.currentModeId).toBe("ask");
    expect(r.store.agentConfig()).toEqual(next);
  });

  it("a viewer shows the mode after a change as the daemon's config_state says (its fold does not recompute it)", async () => {
    const r = await makeRoom();
    const joined: ServerFrame[] = [];
    r.core.replay(MEMBER, 0, (t) => void joined.push(...framesOf(JSON.parse(t) as ServerFrame)));
    const viewer = () => [...joined, ...r.frames].reduce((s, f) => fold(s, f), initialSessionState());
    expect(viewer().config?.modes?.currentModeId).toBe("code");
    await r.daemon({ t: "session.update", sessionId: "s1", update: { sessionUpdate: "current_mode_update", currentModeId: "ask" } });
    expect(viewer().config?.modes?.currentModeId).toBe("code");
    await r.daemon({ t: "config.state", sessionId: "s1", config: { ...CONFIG, modes: { ...CONFIG.modes!, currentModeId: "ask" } } });
    expect(viewer().config?.modes?.currentModeId).toBe("ask");
  });

  it("settings.set saves the room settings and publishes them with the config", async () => {
    const r = await makeRoom();
    expect(await r.op({ op: "settings.set", queueDepth: 3 })).toMatchObject({ result: { outcome: "saved", settings: { queueDepth: 3, mergeQueued: false } } });
    expect(r.of("config_state").at(-1)!.config).toMatchObject({ queueDepth: 3, mergeQueued: false, steering: true });
  });
});

describe("room core: permissions", () => {
  const request: DaemonEvent = {
    t: "permission.request",
    sessionId: "s1",
    requestId: "p1",
    toolCall: { title: "rm" },
    options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }, { optionId: "deny", name: "Deny", kind: "reject_once" }],
  };

  it("every viewer sees the request; the first valid answer wins and is forwarded once", async () => {
    const r = await busyRoom();
    await r.daemon(request);
    expect(r.of("permission_request")).toHaveLength(1);
    expect(await r.op({ op: "permission.respond", requestId: "p1", optionId: "nope" })).toMatchObject({ type: "error", code: "BAD_FRAME" });
    expect(await r.op({ op: "permission.respond", requestId: "p1", optionId: "allow" }, MEMBER)).toMatchObject({ result: { outcome: "accepted" } });
    expect(await r.op({ op: "permission.respond", requestId: "p1", optionId: "deny" })).toMatchObject({ result: { outcome: "already_resolved" } });
    expect(await r.op({ op: "permission.respond", requestId: "zz", optionId: null })).toMatchObject({ type: "error", code: "NOT_FOUND" });
    expect(r.of("permission_resolved")).toEqual([
      { kind: "permission_resolved", requestId: "p1", outcome: "selected", optionId: "allow", by: { id: "u2", name: "Bob" } },
    ]);
    expect(r.commands.filter((c) => c.command.t === "permission.respond")).toEqual([
      { command: { t: "permission.respond", sessionId: "s1", requestId: "p1", optionId: "allow" }, opts: { deliverWhenOnline: true } },
    ]);
  });

  it("pending requests are answered cancelled when the turn ends or the agent withdraws them", async () => {
    const r = await busyRoom();
    await r.daemon(request, { ...request, requestId: "p2" });
    await r.daemon({ t: "permission.cancelled", sessionId: "s1", requestId: "p2" });
    await r.endTurn();
    expect(r.of("permission_resolved").map((e) => [e.requestId, e.outcome])).toEqual([
      ["p2", "cancelled"],
      ["p1", "cancelled"],
    ]);
  });
});

describe("room core: daemon events and the machine", () => {
  it("applies each numbered event once (a resend is dropped) and sends a run to viewers as one batch", async () => {
    const r = await busyRoom();
    const broadcasts: string[] = [];
    const chunk = (t: string): DaemonEvent => ({ t: "session.update", sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } } });
    const port = (r.core as unknown as { port: RoomPort }).port;
    const plain = port.broadcast;
    port.broadcast = (t) => {
      broadcasts.push(t);
      plain(t);
    };
    await r.core.onDaemonEvents("e1", [{ n: 10, event: chunk("a") }, { n: 11, event: chunk("b") }]);
    await r.core.onDaemonEvents("e1", [{ n: 11, event: chunk("b") }, { n: 12, event: chunk("c") }]);
    expect(r.of("acp").map((e) => (e.update["content"] as { text: string }).text)).toEqual(["a", "b", "c"]);
    expect(broadcasts.map((b) => (JSON.parse(b) as ServerFrame).type)).toEqual(["batch", "event"]);
    expect(r.store.state()!.daemonCursor).toEqual({ epoch: "e1", n: 12 });
  });

  it("an event that throws mid-run: what was applied before it commits with its cursor, and a resend applies only the rest", async () => {
    const r = await busyRoom();
    const chunk = (t: string): DaemonEvent => ({ t: "session.update", sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } } });
    const title: DaemonEvent = { t: "session.update", sessionId: "s1", update: { sessionUpdate: "session_info_update", title: "Named" } };
    const port = (r.core as unknown as { port: RoomPort }).port;
    const plain = port.directoryTitle;
    port.directoryTitle = () => {
      throw new Error("directory down");
    };
    const run = [{ n: 20, event: chunk("a") }, { n: 21, event: title }, { n: 22, event: chunk("c") }];
    await expect(r.core.onDaemonEvents("e1", run)).rejects.toThrow("directory down");
    expect(r.store.state()!.daemonCursor).toEqual({ epoch: "e1", n: 21 });
    expect(r.store.state()!.agentTitle).toBe("Named");
    port.directoryTitle = plain;
    await r.core.onDaemonEvents("e1", run);
    const kinds = r.of("acp").map((e) => e.update.sessionUpdate);
    expect(kinds).toEqual(["agent_message_chunk", "session_info_update", "agent_message_chunk"]);
    expect(r.store.eventsAfter(0).filter((e) => e.event.kind === "acp")).toHaveLength(3);
    expect(r.store.state()!.daemonCursor).toEqual({ epoch: "e1", n: 22 });
  });

  it("a daemon restart loses the running turn (AGENT_RESTARTED), keeps the queue and reopens with session/load", async () => {
    const r = await busyRoom();
    await r.op({ op: "message.send", id: "q1", blocks: text("later") });
    await r.core.onMachineStatus({ online: true, liveSessionIds: ["s1"], restarted: true });
    expect(r.of("turn_error").at(-1)).toMatchObject({ code: "AGENT_RESTARTED" });
    // The reopen carries the session's settings: the agent reports its defaults after session/load.
    expect(r.commands.at(-1)!.command).toMatchObject({ t: "session.open", agentSessionId: "a1", restore: settingsFromConfig(CONFIG) });
    expect(r.store.queue().map((e) => e.id)).toEqual(["q1"]);
    r.clear();
    await r.daemon({ t: "session.ready", sessionId: "s1", agentSessionId: "a1", config: CONFIG, resumed: true });
    expect(r.of("notice")[0]).toMatchObject({ level: "info", text: "The agent restarted; the session was resumed." });
    expect(r.prompts().at(-1)).toMatchObject({ messageId: "q1" });
  });

  it("a failed agent session refuses sends with its reason", async () => {
    const r = await makeRoom({ ready: false });
    await r.daemon({ t: "session.failed", sessionId: "s1", message: "no such directory" });
    expect(r.core.info().status).toMatchObject({ state: "error", message: "no such directory" });
    expect(await r.op({ op: "message.send", id: "m", blocks: text("hi") })).toMatchObject({ type: "error", code: "SESSION_NOT_READY", message: "the agent session failed: no such directory" });
  });

  it("a prompt the daemon could not run ends the turn with an error status and flushes the queue", async () => {
    const r = await busyRoom();
    await r.op({ op: "message.send", id: "q1", blocks: text("later") });
    await r.daemon({ t: "command.failed", sessionId: "s1", command: "prompt", message: "boom" });
    expect(r.of("notice").at(-1)).toMatchObject({ text: "The daemon could not run prompt: boom" });
    expect(r.of("session_status").find((s) => s.stopReason === "error")).toBeDefined();
    expect(r.prompts().at(-1)).toMatchObject({ messageId: "q1" });
  });
});

describe("room core: history pages", () => {
  it("history.page is open to read-only viewers (the other ops are not) and answers with the rows before", async () => {
    const r = await makeRoom();
    await r.op({ op: "message.send", id: "m1", blocks: text("first") });
    await r.endTurn();
    const head = r.store.headSeq();
    const page = await r.op({ op: "history.page", before: head + 1, limit: 40 }, READER);
    expect(page).toMatchObject({ type: "ack", op: "history.page", result: { historyBefore: null } });
    expect(page.type === "ack" && page.op === "history.page" && page.result.events.some((e) => e.kind === "user_message" && e.id === "m1")).toBe(true);
    expect(await r.op({ op: "queue.cancel", id: "x" }, READER)).toMatchObject({ type: "error", code: "FORBIDDEN" });
  });
});

describe("room core: replay", () => {
  it("welcome → missed tail → queue_state → config_state → synthetic status (active mid-turn) → ready", async () => {
    const r = await busyRoom();
    await r.op({ op: "message.send", id: "q1", blocks: text("later") });
    const head = r.store.headSeq();
    await r.daemon({ t: "session.update", sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } } });
    const frames = replayOf(r, head);
    expect(frames.map((f) => f.type)).toEqual(["welcome", "event", "state", "state", "state", "ready"]);
    expect(frames[0]).toEqual({ type: "welcome", sessionId: "s1", viewer: MEMBER, headSeq: head + 1 });
    expect(frames.slice(2, 5).map((f) => (f.type === "state" ? f.event.kind : ""))).toEqual(["queue_state", "config_state", "session_status"]);
    expect(frames[4]).toMatchObject({ event: { state: "active", synthetic: true } });
    expect(frames[5]).toEqual({ type: "ready", seq: head + 1 });
  });

  it("issue 19 #6 lead: past REPLAY_TAIL_MAX events, a fresh join (snapshot) shows a just-sent and a just-flushed message once each", async () => {
    const r = await makeRoom();
    await r.op({ op: "message.send", id: "m0", blocks: text("long turn") });
    const chunk = (i: number): DaemonEvent => ({ t: "session.update", sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", messageId: `a${i % 7}`, content: { type: "text", text: `${i},` } } });
    for (let i = 0; i < REPLAY_TAIL_MAX + 50; i += 250) await r.daemon(...Array.from({ length: 250 }, (_, k) => chunk(i + k)));
    await r.endTurn();
    const cursor = r.store.headSeq();
    await r.op({ op: "message.send", id: "m1", blocks: text("sent now") });
    await r.op({ op: "message.send", id: "q1", blocks: text("queued now") });
    const joinShows = (after: number) => {
      const s = replayOf(r, after).flatMap((f) => framesOf(f)).reduce((acc, f) => fold(acc, f), initialSessionState());
      return s.rows.filter((row) => row.kind === "user").map((row) => row.id);
    };
    expect(joinShows(0)).toEqual(["user:m0", "user:m1"]);
    await r.endTurn();
    expect(joinShows(0)).toEqual(["user:m0", "user:m1", "user:q1"]);
    // From a cursor further back than the tail limit: a snapshot too, same rows.
    expect(r.store.headSeq() - 1).toBeGreaterThan(REPLAY_TAIL_MAX);
    expect(joinShows(1)).toEqual(["user:m0", "user:m1", "user:q1"]);
    expect(joinShows(cursor)).toEqual(["user:m1", "user:q1"]);
  });

  it("from scratch: one compacted snapshot (streamed chunks merged) at the head", async () => {
    const r = await busyRoom();
    const chunk = (t: string): DaemonEvent => ({ t: "session.update", sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", messageId: "a", content: { type: "text", text: t } } });
    await r.daemon(chunk("he"), chunk("llo"));
    const frames = replayOf(r, 0);
    const snapshot = frames[1]!;
    expect(snapshot).toMatchObject({ type: "snapshot", seq: r.store.headSeq(), append: false });
    const events = snapshot.type === "snapshot" ? snapshot.events : [];
    expect(events.filter((e) => e.kind === "acp").map((e) => (e.kind === "acp" ? e.update["content"] : null))).toEqual([{ type: "text", text: "hello" }]);
  });
});

describe("room core: what may notify (Web Push)", () => {
  const request: DaemonEvent = {
    t: "permission.request",
    sessionId: "s1",
    requestId: "p1",
    toolCall: { title: "Run tests" },
    options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }, { optionId: "deny", name: "Deny", kind: "reject_once" }],
  };
  const chunk = (t: string): DaemonEvent => ({ t: "session.update", sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } } });

  it("a permission request raises one push with the tool's title and options (a resend raises none)", async () => {
    const r = await busyRoom();
    await r.daemon(request);
    expect(r.pushes).toEqual([
      { kind: "permission", actorId: null, requestId: "p1", toolTitle: "Run tests", options: request.options, sessionId: "s1", sessionTitle: "first" },
    ]);
    await r.core.onDaemonEvents("e2", [{ n: 1, event: request }]);
    expect(r.pushes).toHaveLength(1);
  });

  it("a question from the agent (a form) raises one push with its text (a resend raises none)", async () => {
    const r = await busyRoom();
    const ask: DaemonEvent = { t: "elicitation.request", sessionId: "s1", requestId: "e1", message: "Which branch?", requestedSchema: { type: "object", properties: {} } };
    await r.daemon(ask);
    expect(r.pushes).toEqual([{ kind: "question", actorId: null, requestId: "e1", message: "Which branch?", sessionId: "s1", sessionTitle: "first" }]);
    await r.core.onDaemonEvents("e2", [{ n: 1, event: ask }]);
    expect(r.pushes).toHaveLength(1);
  });

  it("a turn's end carries the agent's last words, including those in the same run", async () => {
    const r = await busyRoom();
    const turnId = r.prompts().at(-1)!.turnId;
    await r.daemon(chunk("All "), chunk("done."), { t: "turn.ended", sessionId: "s1", turnId, stopReason: "end_turn" });
    expect(r.pushes).toEqual([{ kind: "turn_ended", actorId: null, stoppedBy: null, preview: "All done.", sessionId: "s1", sessionTitle: "first" }]);
  });

  it("a Stop names who stopped it, and that person is the actor", async () => {
    const r = await busyRoom();
    await r.op({ op: "turn.cancel" }, MEMBER);
    await r.endTurn("cancelled");
    expect(r.pushes).toMatchObject([{ kind: "turn_ended", actorId: "u2", stoppedBy: "Bob" }]);
  });

  it("a failed turn, a lost turn and a refused prompt raise turn_failed", async () => {
    const r = await busyRoom();
    const turnId = r.prompts().at(-1)!.turnId;
    await r.daemon({ t: "turn.ended", sessionId: "s1", turnId, stopReason: "error", error: "model overloaded" });
    await r.op({ op: "message.send", id: "m1", blocks: text("again") });
    await r.core.onMachineStatus({ online: true, liveSessionIds: ["s1"], restarted: true });
    expect(r.pushes.map((p) => [p.kind, p.kind === "turn_failed" ? p.message : ""])).toEqual([
      ["turn_failed", "model overloaded"],
      ["turn_failed", "The agent restarted; the running turn was lost."],
    ]);
  });

  it("the machine going offline notifies only mid-turn, once", async () => {
    const idle = await makeRoom();
    await idle.core.onMachineStatus({ online: false, liveSessionIds: [], restarted: false });
    expect(idle.pushes).toEqual([]);
    const r = await busyRoom();
    await r.core.onMachineStatus({ online: false, liveSessionIds: [], restarted: false });
    await r.core.onMachineStatus({ online: false, liveSessionIds: [], restarted: false });
    expect(r.pushes).toEqual([{ kind: "machine_offline", actorId: null, sessionId: "s1", sessionTitle: "first" }]);
  });

  it("a queued message that starts notifies its author", async () => {
    const r = await busyRoom();
    await r.op({ op: "message.send", id: "q1", blocks: text("**next** step") }, MEMBER);
    await r.endTurn();
    expect(r.pushes.filter((p) => p.kind === "queued_started")).toEqual([
      { kind: "queued_started", actorId: null, authorId: "u2", preview: "**next** step", sessionId: "s1", sessionTitle: "first" },
    ]);
  });

  it("an answer from a notification follows the card's rules and names who answered first", async () => {
    const r = await busyRoom();
    await r.daemon(request);
    expect(await r.core.answerPermissionRemotely(READER, "p1", "allow")).toMatchObject({ ok: false, error: "FORBIDDEN" });
    expect(await r.core.answerPermissionRemotely(MEMBER, "p1", "nope")).toMatchObject({ ok: false, error: "BAD_OPTION" });
    expect(await r.core.answerPermissionRemotely(MEMBER, "zz", "allow")).toMatchObject({ ok: false, error: "NOT_FOUND" });
    expect(await r.core.answerPermissionRemotely(MEMBER, "p1", "allow")).toEqual({ ok: true });
    expect(await r.core.answerPermissionRemotely(OWNER, "p1", "deny")).toEqual({ ok: false, error: "ALREADY_ANSWERED", by: "Bob" });
    expect(await r.op({ op: "permission.respond", requestId: "p1", optionId: "deny" })).toMatchObject({ result: { outcome: "already_resolved" } });
    expect(r.of("permission_resolved")).toEqual([{ kind: "permission_resolved", requestId: "p1", outcome: "selected", optionId: "allow", by: { id: "u2", name: "Bob" } }]);
    expect(r.commands.filter((c) => c.command.t === "permission.respond")).toHaveLength(1);
    await r.daemon({ ...request, requestId: "p2" });
    await r.endTurn();
    expect(await r.core.answerPermissionRemotely(OWNER, "p2", "allow")).toEqual({ ok: false, error: "ALREADY_ANSWERED", by: null });
  });
});
