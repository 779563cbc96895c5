// Reliability figures (bounded): durability rounds and reconnect storms. Each test prints one line.
import { abortAllDurableObjects, evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fold, initialSessionState } from "../../shared/fold";
import { newSession, setupSession, TestViewer, text, waitFor } from "./harness";

const room = (id: string) => env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(id));
const ROUNDS = 20;

describe("reliability", () => {
  it(`durability: ${ROUNDS} rounds of evict / abort mid-turn with a queued entry and viewers attached`, async () => {
    const { daemon, sessionId } = await setupSession();
    let lost = 0;
    let twice = 0;
    const expected: string[] = [];
    let v = await TestViewer.open(sessionId);
    await waitFor(() => v.lastStatus()?.state === "idle", "idle");
    await v.op({ op: "message.send", id: "r0", blocks: text("start") });
    expected.push("r0");
    for (let round = 1; round <= ROUNDS; round++) {
      const id = `r${round}`;
      expect(await v.op({ op: "message.send", id, blocks: text(id) })).toMatchObject({ result: { queued: true } });
      expected.push(id);
      if (round % 2) await evictDurableObject(room(sessionId));
      else {
        await abortAllDurableObjects();
        await daemon.connect([{ sessionId, busy: true }]);
      }
      v = await TestViewer.open(sessionId, v.seq);
      const q = v.lastQueue()!.entries.map((e) => e.id);
      if (!q.includes(id)) lost++;
      await daemon.finishTurn(sessionId);
      await waitFor(() => daemon.prompts(sessionId).some((p) => p.messageId === id), `flush ${id}`);
    }
    const ran = daemon.prompts(sessionId).map((p) => p.messageId);
    twice = ran.length - new Set(ran).size;
    lost += expected.filter((id) => !ran.includes(id)).length;
    console.log(`durability: ${ROUNDS} rounds → ${lost} queue entries lost, ${twice} prompts run twice`);
    expect(lost).toBe(0);
    expect(twice).toBe(0);
    // A fresh viewer and the one that followed along converge on the same transcript.
    const fresh = await TestViewer.open(sessionId, 0);
    const view = (t: TestViewer) => t.frames.reduce(fold, initialSessionState()).rows.filter((r) => r.kind === "user").map((r) => r.id);
    expect(view(fresh)).toEqual(expected.map((id) => `user:${id}`));
  });

  it("reconnect storm: 200 viewers on one session drop and return at once, all converge", async () => {
    const { daemon, sessionId } = await setupSession();
    const VIEWERS = 200;
    const vs: TestViewer[] = [];
    for (let i = 0; i < VIEWERS; i++) vs.push(await TestViewer.open(sessionId));
    await vs[0]!.op({ op: "message.send", id: "s1", blocks: text("storm") });
    for (let i = 0; i < 50; i++) daemon.emit({ t: "session.update", sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${i} ` } } });
    await daemon.settle();
    for (const v of vs) v.close();
    // While everyone is away, the agent keeps talking and someone queues.
    for (let i = 50; i < 100; i++) daemon.emit({ t: "session.update", sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${i} ` } } });
    await daemon.settle();
    const t0 = Date.now();
    await Promise.all(vs.map(async (v, i) => {
      await new Promise((r) => setTimeout(r, (i * 7) % 100)); // jittered return
      await v.connect(sessionId, v.seq);
    }));
    const ms = Date.now() - t0;
    const want = Array.from({ length: 100 }, (_, i) => `${i} `).join("");
    const agentText = (v: TestViewer) => {
      const s = v.frames.reduce(fold, initialSessionState());
      return s.rows.filter((r) => r.kind === "agent").map((r) => (r.kind === "agent" ? r.text : "")).join("");
    };
    const bad = vs.filter((v) => agentText(v) !== want || v.lastStatus()?.state !== "active");
    const diverged = bad.length;
    console.log(`reconnect storm: ${VIEWERS} viewers converged in ${ms} ms, ${diverged} diverged`);
    expect(diverged).toBe(0);
  });

  it("20 sessions on one machine: a turn each, all end idle with exactly their own echo", async () => {
    const first = await setupSession();
    const ids = [first.sessionId];
    for (let i = 1; i < 20; i++) ids.push(await newSession(first.machineId));
    await first.daemon.settle();
    await waitFor(() => first.daemon.of("session.open").length >= 20, "20 opens");
    const { env: e } = await import("cloudflare:workers");
    await e.MACHINE.get(e.MACHINE.idFromName(first.machineId)).setBudget(20);
    const vs = await Promise.all(ids.map((id) => TestViewer.open(id)));
    await Promise.all(vs.map((v, i) => v.op({ op: "message.send", id: `m${i}`, blocks: text(`m${i}`) })));
    for (const id of ids) await first.daemon.finishTurn(id);
    await waitFor(() => vs.every((v) => v.lastStatus()?.state === "idle"), "all idle");
    vs.forEach((v, i) => expect(v.ofKind("user_message").map((m) => m.id)).toEqual([`m${i}`]));
    console.log(`20 sessions on one machine: all idle, ${first.daemon.prompts().length} prompts forwarded`);
  });
});
