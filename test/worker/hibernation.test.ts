import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { setupSession, TestViewer, waitFor } from "./harness";

describe("an idle session holds nothing but storage", () => {
  it("after a streamed turn: no alarms, viewer sockets held by the runtime (hibernatable), no in-memory work", async () => {
    const { daemon, sessionId, machineId } = await setupSession();
    const viewers = [await TestViewer.open(sessionId), await TestViewer.open(sessionId), await TestViewer.open(sessionId)];
    await waitFor(() => viewers[0]!.lastStatus()?.state === "idle", "idle");
    await viewers[0]!.op({ op: "message.send", id: "h1", blocks: [{ type: "text", text: "go" }] });
    await waitFor(() => daemon.prompts(sessionId).length === 1, "prompt");
    daemon.emitBatch(Array.from({ length: 300 }, (_, i) => ({ t: "session.update" as const, sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${i} ` } } })));
    await daemon.finishTurn(sessionId);
    await waitFor(() => viewers.every((v) => v.lastStatus()?.state === "idle" && v.ofKind("acp").length === 301), "turn delivered");

    const room = await runInDurableObject(env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(sessionId)), async (instance, state) => {
      // The room's in-memory state lives in its core (room-core.ts) and its outbox (room-outbox.ts).
      const r = (instance as unknown as { core: { outbox: { outgoing: unknown }; inflight: unknown; sendsInFlight: Map<string, unknown> } }).core;
      return { alarm: await state.storage.getAlarm(), sockets: state.getWebSockets().length, outgoing: r.outbox.outgoing, inflight: r.inflight, sends: r.sendsInFlight.size };
    });
    expect(room).toEqual({ alarm: null, sockets: 3, outgoing: null, inflight: null, sends: 0 });
    const machine = await runInDurableObject(env.MACHINE.get(env.MACHINE.idFromName(machineId)), async (instance, state) => {
      const m = instance as unknown as { intake: { pending: unknown[] }; draining: unknown };
      return { alarm: await state.storage.getAlarm(), tunnels: state.getWebSockets("tunnel").length, pending: m.intake.pending.length, draining: m.draining };
    });
    expect(machine).toEqual({ alarm: null, tunnels: 1, pending: 0, draining: null });
  });
});
