// Property-based fuzzing guided by the zod schemas: every viewer op and every daemon event, each a valid
// frame with one field replaced by an arbitrary value (or removed). Whatever the schema says of the result,
// the DOs must answer it (error or ack), never fail internally, and keep serving well-behaved peers.
import { RATE_BURST } from "../../shared/limits";
import { frameCost } from "../../worker/session-room/rate-limit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DaemonEvent } from "../../shared/tunnel-protocol";
import { ClientOp, type ServerFrame } from "../../shared/viewer-protocol";
import { figure } from "../figure";
import { newSession, setupSession, TestViewer, text, waitFor } from "./harness";

const SEED = 20261202;
const PER_TYPE = 24;

/** One field of `base` (or an extra, unknown one) replaced by an arbitrary JSON value, a long string, or removed. */
function mutateOneField(base: Record<string, unknown>) {
  const keys = [...Object.keys(base), "extra"];
  return fc
    .tuple(
      fc.constantFrom(...keys),
      fc.oneof(
        fc.jsonValue(),
        fc.string({ maxLength: 300 }),
        fc.integer(),
        fc.constant(undefined),
        fc.constant("x".repeat(140_000)),
        fc.constant([{ type: "text", text: "   " }]),
      ),
    )
    .map(([key, value]) => {
      const out: Record<string, unknown> = { ...base };
      if (value === undefined) delete out[key];
      else out[key] = value;
      return out;
    });
}

const VIEWER_BASES: Record<ClientOp["op"], Record<string, unknown>> = {
  "message.send": { id: "m1", blocks: text("hello") },
  "queue.cancel": { id: "m1" },
  "queue.edit": { id: "m1", blocks: text("edited") },
  "queue.move": { id: "m1", before: null },
  "queue.steer": { id: "m1" },
  "turn.cancel": {},
  "queue.claimDropped": { ids: ["m1"] },
  "config.set": { configId: "model", value: "smart" },
  "mode.set": { modeId: "ask" },
  "elicitation.respond": { requestId: "e1", action: "accept", content: { name: "x" } },
  "model.set": { modelId: "m" },
  "permission.respond": { requestId: "req", optionId: null },
  "history.page": { before: 5, limit: 40 },
  "history.search": { query: "hello", limit: 10 },
  "settings.set": { queueDepth: 2 },
};

describe("schema-guided fuzzing", () => {
  it("every viewer op with one field fuzzed: each answered, never INTERNAL, every socket still usable", async () => {
    const { sessionId } = await setupSession();
    const frames = Object.entries(VIEWER_BASES).flatMap(([op, base], i) =>
      fc.sample(
        mutateOneField(base).map((f) => ({ ...f, op, rid: `z-${op}` })),
        { numRuns: PER_TYPE, seed: SEED + i },
      ),
    );
    frames.forEach((f, i) => (f.rid = `${f.rid}-${i}`));
    // Sockets enough that none pays more than one burst of its rate bucket (frames are charged by size
    // before parsing): the frames reach the handlers, not the limiter.
    const groups: string[][] = [];
    let spent = Infinity;
    for (const text of frames.map((f) => JSON.stringify(f))) {
      const cost = frameCost(text.length);
      if (spent + cost > RATE_BURST) groups.push([]), (spent = 0);
      groups.at(-1)!.push(text);
      spent += cost;
    }
    const viewers = await Promise.all(groups.map(() => TestViewer.open(sessionId)));
    await waitFor(() => viewers[0]!.lastStatus()?.state === "idle", "idle");
    const t0 = Date.now();
    groups.forEach((texts, i) => texts.forEach((t) => viewers[i]!.raw(t)));
    const replyTo = (rid: string) =>
      viewers.flatMap((v) => v.frames).find((f): f is Extract<ServerFrame, { type: "ack" | "error" }> => (f.type === "ack" || f.type === "error") && f.rid === rid);
    await waitFor(() => frames.every((f) => replyTo(f.rid as string)), "a reply per frame", 20_000);
    const ms = Date.now() - t0;
    const replies = frames.map((f) => ({ valid: ClientOp.safeParse(f).success, reply: replyTo(f.rid as string)! }));
    const invalid = replies.filter((r) => !r.valid);
    // Schema-invalid frames get a parse error; nothing anywhere is an internal failure.
    for (const r of invalid) expect(r.reply).toMatchObject({ type: "error", code: expect.stringMatching(/^(BAD_FRAME|PROMPT_TOO_LARGE|EMPTY_PROMPT|FRAME_TOO_LARGE)$/) });
    expect(replies.filter((r) => r.reply.type === "error" && r.reply.code === "INTERNAL")).toEqual([]);
    for (const v of viewers) expect(await v.op({ op: "settings.set", mergeQueued: false })).toMatchObject({ type: "ack" });
    const acks = replies.filter((r) => r.reply.type === "ack").length;
    figure("viewer op fuzzing from the schemas", `${frames.length} frames (11 ops)`, `${invalid.length} schema errors, ${acks} acks, ${frames.length - invalid.length - acks} domain errors, 0 INTERNAL, all sockets usable`, ms);
  });

  it("every daemon event with one field fuzzed: each invalid frame refused, the rooms keep working", async () => {
    const { daemon, sessionId: victim, machineId } = await setupSession();
    const bystander = await newSession(machineId);
    await waitFor(() => daemon.of("session.open").some((c) => c.sessionId === bystander), "open bystander");
    await daemon.settle();
    const v = await TestViewer.open(victim);
    await v.op({ op: "message.send", id: "turn", blocks: text("go") });
    const turnId = daemon.prompts(victim)[0]!.turnId;
    const bases: Record<DaemonEvent["t"], Record<string, unknown>> = {
      "session.ready": { agentSessionId: "a", config: daemon.config, resumed: true },
      "session.failed": { message: "boom" },
      "session.notice": { level: "warn", text: "heads up" },
      "session.update": { update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "chunk" } } },
      "turn.started": { turnId },
      "turn.ended": { turnId, stopReason: "end_turn", error: null },
      "turn.tree": { turnId, edge: "start", tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904" },
      "permission.request": { requestId: "p1", toolCall: { title: "t" }, options: [{ optionId: "ok", name: "OK", kind: "allow_once" }] },
      "permission.cancelled": { requestId: "p1" },
      "elicitation.request": { requestId: "e1", message: "Which?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
      "elicitation.cancelled": { requestId: "e1" },
      "config.state": { config: daemon.config },
      "steer.result": { entryId: "e1", outcome: "failed" },
      "command.failed": { command: "prompt", message: "nope" },
      "history.user": { blocks: [{ type: "text", text: "earlier prompt" }] },
    };
    const events = Object.entries(bases).flatMap(([t, base], i) =>
      fc.sample(
        mutateOneField({ ...base, sessionId: victim }).map((e) => ({ ...e, t })),
        { numRuns: PER_TYPE, seed: SEED + 100 + i },
      ),
    );
    const invalid = events.filter((e) => !DaemonEvent.safeParse(e).success).length;
    const errorsBefore = daemon.frames.filter((f) => f.type === "error").length;
    const t0 = Date.now();
    for (const e of events) daemon.emit(e as DaemonEvent);
    daemon.emit({ t: "session.update", sessionId: bystander, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "last" } } });
    await daemon.settle();
    await waitFor(() => daemon.frames.filter((f) => f.type === "error").length - errorsBefore >= invalid, "an error per invalid frame", 20_000);
    const ms = Date.now() - t0;
    // The bystander session on the same tunnel works as usual; the fuzzed room still serves viewers.
    const b = await TestViewer.open(bystander);
    await waitFor(() => b.lastStatus()?.state === "idle", "bystander idle");
    expect(await b.op({ op: "message.send", id: "after", blocks: text("fine") })).toMatchObject({ type: "ack", result: { queued: false } });
    await waitFor(() => daemon.prompts(bystander).some((p) => p.messageId === "after"), "prompt routed after the fuzz");
    const fresh = await TestViewer.open(victim, 0);
    expect(fresh.frames.at(-1)?.type).toBe("ready");
    figure("daemon event fuzzing from the schemas", `${events.length} events (10 kinds)`, `${invalid} invalid refused with an error, ${events.length - invalid} valid applied, tunnel and rooms still serving`, ms);
  });
});
