/** A room stored by the code before the state row (loose meta keys) loads as one RoomState, once. */
import { describe, expect, it } from "vitest";
import { memorySql } from "../testing/memory-sql";
import { makeMetaTable, migrate, type SqlDb } from "../sql-migrations";
import { ROOM_MIGRATIONS, RoomStore } from "./room-store";
import { turnOf } from "./room-state";

const SESSION = { sessionId: "s1", machineId: "m1", agentId: "demo", cwd: "/w", title: "t", ownerId: "u1" };
const ENTRY = { id: "m1", blocks: [{ type: "text" as const, text: "hi" }], author: { id: "u1", name: "Ann" }, createdAt: 5, state: "queued" as const };

/** A database as the old code left it: its migrations (without the state row's) and its meta keys. */
function oldRoom(meta: Record<string, unknown>): SqlDb {
  const sql = memorySql();
  migrate(sql, ROOM_MIGRATIONS.slice(0, 4));
  const table = makeMetaTable(sql);
  for (const [k, v] of Object.entries(meta)) table.set(k, v);
  table.set("compaction", { upto: 0 });
  return sql;
}

describe("requests: the old permissions table", () => {
  it("its rows move to the requests table as kind permission, open or answered by whom", () => {
    const sql = memorySql();
    migrate(sql, ROOM_MIGRATIONS.slice(0, 4));
    const opts = [{ optionId: "ok", name: "OK", kind: "allow_once" }];
    sql.exec("INSERT INTO permissions (request_id, tool_call, options, resolved, resolved_by) VALUES ('p1', ?, ?, 0, NULL)", JSON.stringify({ title: "rm" }), JSON.stringify(opts));
    sql.exec("INSERT INTO permissions (request_id, tool_call, options, resolved, resolved_by) VALUES ('p0', '{}', '[]', 1, 'Bob')");
    const store = new RoomStore(sql);
    expect(store.openRequests()).toEqual([{ kind: "permission", requestId: "p1", toolCall: { title: "rm" }, options: opts, open: true, answeredBy: null }]);
    expect(store.request("p0")).toEqual({ kind: "permission", requestId: "p0", toolCall: {}, options: [], open: false, answeredBy: "Bob" });
    expect(store.resolveRequest("p0", "Cy")).toBe(false);
    expect(store.resolveRequest("p1", "Cy")).toBe(true);
    expect(store.request("p1")?.answeredBy).toBe("Cy");
  });
});

describe("room state: migrating a room stored as meta keys", () => {
  it("a ready room with a reserved, Stop-marked turn, its offer, forms, cursor and titles", () => {
    const sql = oldRoom({
      session: SESSION,
      settings: { queueDepth: 3, mergeQueued: true },
      machine_online: true,
      turn: { turnId: "t1", messageId: "m1", startedAt: 7, cancelRequested: true, cancelledBy: { id: "u2", name: "Bob" } },
      turn_pending: { turnId: "t1", entries: [ENTRY], fromQueue: true, actorId: "u2" },
      agent_session_id: "a1",
      agent_config: { modes: null, models: null, configOptions: [], steering: true, images: false },
      elicitations: { e1: { requestedSchema: { type: "object" } } },
      elicitations_resolved: ["e0"],
      status_key: "active:t1",
      first_prompt: "hi",
      agent_title: "Fixing",
      dropped_offer: [ENTRY],
      daemon_cursor: { epoch: "e", n: 9 },
    });
    const waiting = { ...ENTRY, id: "q1" };
    sql.exec("INSERT INTO queue (id, pos, blocks, author, created_at, state) VALUES ('q1', 1, ?, ?, 5, 'queued')", JSON.stringify(waiting.blocks), JSON.stringify(waiting.author));
    const store = new RoomStore(sql);
    expect(store.state()).toEqual({
      session: SESSION,
      agent: { phase: "ready", agentSessionId: "a1" },
      turn: { phase: "reserved", turnId: "t1", messageId: "m1", startedAt: 7, entries: [ENTRY], fromQueue: true, actorId: "u2", cancelledBy: { id: "u2", name: "Bob" } },
      machineOnline: true,
      settings: { queueDepth: 3, mergeQueued: true },
      queue: [waiting],
      agentConfig: { modes: null, models: null, configOptions: [], steering: true, images: false },
      droppedOffer: [ENTRY],
      daemonCursor: { epoch: "e", n: 9 },
      statusKey: "active:t1",
      firstPrompt: "hi",
      agentTitle: "Fixing",
    });
    // The forms move to the requests table: the open one open, the answered one closed.
    expect(store.openRequests()).toEqual([{ kind: "elicitation", requestId: "e1", requestedSchema: { type: "object" }, open: true, answeredBy: null }]);
    expect(store.request("e0")).toMatchObject({ kind: "elicitation", open: false });
    expect(turnOf(store.state())).toMatchObject({ turnId: "t1", cancelRequested: true });
    // Read once: the old keys are gone (but the log's compaction state stays), the row is what a new instance reads.
    const left = sql.exec<{ key: string }>("SELECT key FROM meta").toArray().map((r) => r.key);
    expect(left).toEqual(["compaction"]);
    expect(new RoomStore(sql).state()).toEqual(store.state());
  });

  it("the agent's phase: failed keeps what to load next; opening after a restart resumes; a stale reservation is dropped", () => {
    const failed = new RoomStore(oldRoom({ session: SESSION, machine_online: false, failed: "no login", failed_auth: [{ id: "x", name: "X" }], resume_from: "a0", start_kind: "import" }));
    expect(failed.state()).toMatchObject({
      agent: { phase: "failed", message: "no login", authMethods: [{ id: "x", name: "X" }], resumeFrom: "a0", startKind: "import" },
      machineOnline: false,
      settings: { queueDepth: expect.any(Number), mergeQueued: false },
      turn: { phase: "idle" },
    });
    const reopening = new RoomStore(
      oldRoom({
        session: SESSION,
        machine_online: true,
        resume_from: "a1",
        turn: { turnId: "t2", messageId: "m2", startedAt: 1, cancelRequested: false },
        turn_pending: { turnId: "t1", entries: [ENTRY], fromQueue: false, actorId: null },
      }),
    );
    expect(reopening.state()).toMatchObject({ agent: { phase: "opening", resumeFrom: "a1", startKind: null }, turn: { phase: "running", turnId: "t2" } });
    const cancelling = new RoomStore(oldRoom({ session: SESSION, turn: { turnId: "t3", messageId: "m", startedAt: 1, cancelRequested: true, cancelledBy: { id: "u", name: "U" } } }));
    expect(cancelling.state()!.turn).toEqual({ phase: "cancelling", turnId: "t3", messageId: "m", startedAt: 1, cancelledBy: { id: "u", name: "U" } });
  });

  it("a room never initialised has no state (and writes none)", () => {
    const sql = oldRoom({});
    expect(new RoomStore(sql).state()).toBeNull();
    expect(sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM room_state").one().c).toBe(0);
  });
});
