// Reliability figures (issue 8), bounded for `npm test`; `npm run soak` runs the same scenarios longer.
// Each test prints one FIGURE line: what, how many, the result, time to converge.
import { describe, expect, it } from "vitest";
import { MAX_QUEUE_BYTES, MAX_QUEUE_DEPTH, MAX_TUNNEL_FRAME_BYTES } from "../../shared/limits";
import { figure, spread } from "../figure";
import { daemonFlood, durabilityRounds, floodBounds, hostileThenNormal, reconnectStorm, viewerFlood } from "./reliability-scenarios";
import { setupSession, TestViewer, text, waitFor } from "./harness";

/** Each scenario's bound: they check that nothing is lost or doubled, not how fast (the FIGURE line says how long it took). */
const SCENARIO_TIMEOUT_MS = 120_000;

describe("reliability", { timeout: SCENARIO_TIMEOUT_MS }, () => {
  it("durability: 20 rounds of evict / abort mid-turn with a queued entry and a viewer attached", async () => {
    const f = await durabilityRounds(20);
    const t = spread(f.convergeMs);
    figure(
      "durability (evict/abort mid-turn)",
      `${f.rounds} rounds`,
      `${f.lost} queue entries lost, ${f.twice} prompts run twice, ${f.mismatched} reattached views ≠ fresh view`,
      t.max,
    );
    expect(f).toMatchObject({ lost: 0, twice: 0, mismatched: 0 });
  });

  it("reconnect storm: 200 viewers on one session drop and return at once, jittered", async () => {
    const f = await reconnectStorm(1, 200, 1);
    figure("reconnect storm, one session", `${f.viewers} viewers`, `${f.diverged} diverged from a fresh view`, spread(f.convergeMs).max);
    expect(f).toMatchObject({ diverged: 0, crossed: 0 });
  });

  it("load + storm: 20 sessions on one machine, 5 viewers each, all drop and return at once, jittered", async () => {
    const f = await reconnectStorm(20, 5, 1);
    figure(
      "reconnect storm, 20 sessions on one machine",
      `${f.sessions} sessions, ${f.viewers} viewers`,
      `${f.diverged} diverged from a fresh view, ${f.crossed} crossed sessions`,
      spread(f.convergeMs).max,
    );
    expect(f).toMatchObject({ diverged: 0, crossed: 0 });
  });

  it("prompt flood: one viewer floods send / edit; RATE_LIMITED and QUEUE_FULL, storage bounded, others unaffected", async () => {
    const f = await viewerFlood(200);
    const bound = floodBounds(f.before);
    figure(
      "viewer prompt flood",
      `${f.frames} frames`,
      `${JSON.stringify(f.codes)}; rows ${JSON.stringify(f.before.rows)} → ${JSON.stringify(f.after.rows)}, ` +
        `${(f.before.bytes / 1024).toFixed(0)} → ${(f.after.bytes / 1024).toFixed(0)} KB; bystander ${f.bystanderOk ? "ok" : "BROKEN"}`,
      f.ms,
    );
    expect(f.codes["RATE_LIMITED"]).toBeGreaterThan(0);
    expect(f.codes["QUEUE_FULL"]).toBeGreaterThan(0);
    expect(f.after.rows["queue"]).toBeLessThanOrEqual(MAX_QUEUE_DEPTH);
    for (const [table, max] of Object.entries(bound.rows)) expect(f.after.rows[table], table).toBeLessThanOrEqual(max);
    expect(f.after.bytes).toBeLessThanOrEqual(bound.bytes);
    expect(f.bystanderOk).toBe(true);
  });

  it("hostile input, then normal use: send, queue, flush and a fresh join right after a malformed burst", async () => {
    const f = await hostileThenNormal(7);
    figure("hostile burst then normal use", `${f.runs} runs`, `${f.stalls} stalls${f.where.length ? `: ${f.where.join("; ")}` : ""}`, spread(f.convergeMs).max);
    expect(f.where).toEqual([]);
  });

  it("queued prompts are capped in total bytes: QUEUE_FULL for a send or an edit past it; a merged flush fits a tunnel frame", async () => {
    const { daemon, sessionId } = await setupSession();
    const v = await TestViewer.open(sessionId);
    await waitFor(() => v.lastStatus()?.state === "idle", "idle");
    await v.op({ op: "settings.set", queueDepth: MAX_QUEUE_DEPTH, mergeQueued: true });
    await v.op({ op: "message.send", id: "run", blocks: text("turn") });
    const paste = (i: number) => text(`${"€".repeat(120_000)} ${i}`); // ~360 KB of UTF-8 each: two fit, a third does not
    const acks = [];
    for (let i = 0; i < 4; i++) acks.push(await v.op({ op: "message.send", id: `p${i}`, blocks: paste(i) }));
    expect(acks.map((a) => (a.type === "ack" ? "queued" : a.code))).toEqual(["queued", "queued", "QUEUE_FULL", "QUEUE_FULL"]);
    expect(acks[2]).toMatchObject({ message: expect.stringContaining(`${MAX_QUEUE_BYTES / 1024} KB`) });
    // Small ones still fit; growing a queued entry past the budget is refused and leaves it as it was.
    expect(await v.op({ op: "message.send", id: "s1", blocks: text("small") })).toMatchObject({ type: "ack", result: { queued: true } });
    expect(await v.op({ op: "queue.edit", id: "s1", blocks: paste(9) })).toMatchObject({ type: "error", code: "QUEUE_FULL" });
    expect(v.lastQueue()!.entries.map((e) => e.id)).toEqual(["p0", "p1", "s1"]);
    expect(v.lastQueue()!.entries[2]!.blocks).toEqual(text("small"));
    await daemon.finishTurn(sessionId);
    const merged = await waitFor(() => daemon.prompts(sessionId)[1], "merged flush");
    expect(new TextEncoder().encode(JSON.stringify(merged)).byteLength).toBeLessThan(MAX_TUNNEL_FRAME_BYTES);
  });

  it("daemon flood: an oversized tunnel frame is refused; ~12 MiB sent at once is bounded, resent, delivered once", async () => {
    const f = await daemonFlood(12);
    figure(
      "daemon event flood",
      `${f.events} events, ${(f.bytes / 2 ** 20).toFixed(1)} MiB at once`,
      `oversized frame ${f.oversizedRefused ? "refused" : "NOT refused"}; full backlog → ${f.rateLimitedErrors} RATE_LIMITED, ${f.overloadCloses} closes (1013); ` +
        `${f.duplicates} duplicated, ${f.missing} missing at the viewer`,
      f.ms,
    );
    expect(f.oversizedRefused).toBe(true);
    expect(f.rateLimitedErrors).toBeGreaterThanOrEqual(1);
    expect(f.overloadCloses).toBeGreaterThanOrEqual(1);
    expect(f.duplicates).toBe(0);
    expect(f.missing).toBe(0);
  });
});
