import { abortAllDurableObjects, evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_VIEWER_FRAME_BYTES } from "../../shared/limits";
import { setupSession, TestViewer, text, waitFor } from "./harness";

const room = (id: string) => env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(id));
const chunk = (t: string, messageId?: string) => ({
  sessionUpdate: "agent_message_chunk",
  content: { type: "text", text: t },
  ...(messageId ? { messageId } : {}),
});

describe("replay and durability", () => {
  it("a mid-turn joiner gets the partial agent text, the chip and Stop (synthetic active) in order", async () => {
    const { daemon, sessionId } = await setupSession();
    const a = await TestViewer.open(sessionId);
    await waitFor(() => a.lastStatus()?.state === "idle", "idle");
    await a.op({ op: "message.send", id: "p1", blocks: text("explain") });
    for (const t of ["Hel", "lo ", "wor", "ld"]) daemon.emit({ t: "session.update", sessionId, update: chunk(t, "am1") });
    await daemon.settle();
    await a.op({ op: "message.send", id: "p2", blocks: text("next") });

    const b = await TestViewer.open(sessionId, 0);
    const types = b.frames.map((f) => f.type);
    expect(types[0]).toBe("welcome");
    expect(types.at(-1)).toBe("ready");
    const snap = b.frames.find((f) => f.type === "snapshot");
    expect(snap?.type === "snapshot" && snap.events.filter((e) => e.kind === "acp")).toHaveLength(1); // chunks merged
    const acp = b.ofKind("acp")[0]!;
    expect((acp.update as any).content.text).toBe("Hello world");
    const states = b.frames.filter((f) => f.type === "state").map((f) => (f.type === "state" ? f.event.kind : ""));
    expect(states).toEqual(["queue_state", "config_state", "session_status"]);
    expect(b.lastQueue()?.entries.map((e) => e.id)).toEqual(["p2"]);
    expect(b.lastStatus()).toMatchObject({ state: "active", synthetic: true });

    // A reconnect with a cursor gets exactly the missed tail: no gap, no duplicate.
    const seqBefore = b.seq;
    b.close();
    daemon.emit({ t: "session.update", sessionId, update: chunk("!", "am1") });
    await daemon.settle();
    const c = await TestViewer.open(sessionId, seqBefore);
    const tail = c.frames.filter((f) => f.type === "event");
    expect(tail).toHaveLength(1);
    expect(tail[0]!.type === "event" && tail[0]!.seq).toBe(seqBefore + 1);
    expect(c.frames.some((f) => f.type === "snapshot")).toBe(false);
  });

  it("queue and log survive evictDurableObject and abortAllDurableObjects; the flush still runs once", async () => {
    const { daemon, sessionId } = await setupSession();
    const a = await TestViewer.open(sessionId);
    await waitFor(() => a.lastStatus()?.state === "idle", "idle");
    await a.op({ op: "message.send", id: "d1", blocks: text("long") });
    daemon.emit({ t: "session.update", sessionId, update: chunk("partial") });
    await daemon.settle();
    await a.op({ op: "message.send", id: "d2", blocks: text("after") });

    await evictDurableObject(room(sessionId));
    const b = await TestViewer.open(sessionId);
    expect(b.lastQueue()?.entries.map((e) => e.id)).toEqual(["d2"]);
    expect(b.ofKind("user_message").map((m) => m.id)).toEqual(["d1"]);
    expect(b.lastStatus()?.state).toBe("active");

    await abortAllDurableObjects();
    // The tunnel died with the Machine DO: the daemon reconnects (same epoch) and resends nothing new.
    await daemon.connect([{ sessionId, busy: true }]);
    const c = await TestViewer.open(sessionId);
    expect(c.lastQueue()?.entries.map((e) => e.id)).toEqual(["d2"]);
    expect((c.ofKind("acp")[0]!.update as any).content.text).toBe("partial");

    await daemon.finishTurn(sessionId);
    await waitFor(() => daemon.prompts(sessionId).length === 2, "flush after abort");
    await waitFor(() => c.ofKind("user_message").some((m) => m.id === "d2"), "echo d2");
    expect(daemon.prompts(sessionId).map((p) => p.messageId)).toEqual(["d1", "d2"]);
    // A retry of d1 after all that is still answered from the settled ring.
    expect(await c.op({ op: "message.send", id: "d1", blocks: text("long") })).toMatchObject({ result: { duplicate: true } });
    expect(daemon.prompts(sessionId)).toHaveLength(2);
  });

  it("hostile frames get error frames and the socket stays usable", async () => {
    const { sessionId } = await setupSession();
    const a = await TestViewer.open(sessionId);
    await waitFor(() => a.lastStatus()?.state === "idle", "idle");
    const errs = () => a.frames.filter((f) => f.type === "error");
    a.raw("not json");
    a.raw(JSON.stringify([1, 2]));
    a.raw(JSON.stringify({ op: "rm -rf", rid: "u1" }));
    a.raw(JSON.stringify({ op: "message.send", rid: "b1", id: "x" }));
    a.raw(JSON.stringify({ op: "message.send", rid: "big", id: "y", blocks: text("x".repeat(200_000)) }));
    a.raw("z".repeat(MAX_VIEWER_FRAME_BYTES + 1));
    a.raw(JSON.stringify({ op: "message.send", rid: "e1", id: "e", blocks: text("   ") }));
    await waitFor(() => errs().length === 7, "7 errors");
    expect(errs().map((e) => (e.type === "error" ? e.code : ""))).toEqual([
      "BAD_FRAME",
      "BAD_FRAME",
      "UNKNOWN_OP",
      "BAD_FRAME",
      "PROMPT_TOO_LARGE",
      "FRAME_TOO_LARGE",
      "EMPTY_PROMPT",
    ]);
    expect(errs().map((e) => (e.type === "error" ? e.rid : ""))).toEqual([null, null, "u1", "b1", "big", null, "e1"]);
    // Still usable.
    expect(await a.op({ op: "message.send", id: "ok", blocks: text("fine") })).toMatchObject({ type: "ack", result: { queued: false } });
  });
});
