import { describe, expect, it } from "vitest";
import { memorySql } from "../testing/memory-sql";
import { RoomCore, type RoomPort } from "./room-core";
import { RoomStore } from "./room-store";
import type { DaemonEvent } from "../../shared/tunnel-protocol";

/** A room over an in-memory store, recording what it tells the directory about "needs you". */
async function makeRoom() {
  const marks: boolean[] = [];
  const port: RoomPort = {
    broadcast: () => {},
    dispatch: async () => ({ ok: true }),
    checkMachinePresence: async () => {},
    directoryStatus: () => {},
    directoryActivity: () => {},
    directoryTitle: () => {},
    directoryNeedsYou: (_id, open) => void marks.push(open),
    notify: () => {},
    now: () => 1000,
    newId: () => crypto.randomUUID(),
    watched: () => true,
  };
  const core = new RoomCore(new RoomStore(memorySql()), port);
  await core.init({ sessionId: "s1", machineId: "m1", agentId: "demo", cwd: "/w", title: "t", ownerId: "u1" });
  let n = 0;
  const events = (...evs: DaemonEvent[]) => core.onDaemonEvents("e1", evs.map((event) => ({ n: ++n, event })));
  await events({ t: "session.ready", sessionId: "s1", agentSessionId: "a1", config: { modes: null, models: null, configOptions: [], steering: false, images: false }, resumed: false });
  return { core, marks, events };
}

const perm = (requestId: string): DaemonEvent => ({ t: "permission.request", sessionId: "s1", requestId, toolCall: { title: "x" }, options: [{ optionId: "ok", name: "OK", kind: "allow_once" }] });
const form = (requestId: string): DaemonEvent => ({ t: "elicitation.request", sessionId: "s1", requestId, message: "Which?", requestedSchema: { type: "object", properties: {} } });

describe("needs you", () => {
  it("is on while any permission request or form is open, off when the last one closes", async () => {
    const r = await makeRoom();
    expect(r.marks).toEqual([]);
    await r.events(perm("p1"));
    await r.events(form("f1"));
    expect(r.marks).toEqual([true, true]);
    await r.events({ t: "permission.cancelled", sessionId: "s1", requestId: "p1" });
    expect(r.marks.at(-1)).toBe(true);
    await r.events({ t: "elicitation.cancelled", sessionId: "s1", requestId: "f1" });
    expect(r.marks.at(-1)).toBe(false);
  });

  it("clears when the turn's end cancels what was open", async () => {
    const r = await makeRoom();
    await r.events(perm("p2"));
    expect(r.marks.at(-1)).toBe(true);
    await r.core.handleOp({ id: "u1", name: "U", role: "owner" }, { op: "message.send", rid: "r1", id: "m1", blocks: [{ type: "text", text: "go" }] }, { ack: () => {}, error: () => {} });
    await r.events(perm("p3"));
    expect(r.marks.at(-1)).toBe(true);
    const turnId = (await r.core.info()).status.turnId!;
    await r.events({ t: "turn.ended", sessionId: "s1", turnId, stopReason: "end_turn" });
    expect(r.marks.at(-1)).toBe(false);
  });
});
