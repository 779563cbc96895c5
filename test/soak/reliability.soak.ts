// The reliability figures, soaked: each scenario repeats in batches until SOAK_ROUNDS batches ran or SOAK_SECONDS
// passed (it stops by itself), then prints one aggregated FIGURE line and asserts nothing was lost or diverged.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { figure, spread } from "../figure";
import { daemonFlood, durabilityRounds, floodBounds, reconnectStorm, viewerFlood } from "../worker/reliability-scenarios";

const vars = env as unknown as Record<string, string | undefined>;
/** Batches per scenario (each batch is itself many rounds / frames). */
const ROUNDS = Number(vars["SOAK_ROUNDS"]) || 50;
/** Wall-clock budget per scenario. */
const SECONDS = Number(vars["SOAK_SECONDS"]) || 60;

/** Runs `batch` until ROUNDS batches or SECONDS elapsed; returns the results. */
async function soak<T>(batch: (i: number) => Promise<T>): Promise<T[]> {
  const until = Date.now() + SECONDS * 1000;
  const out: T[] = [];
  for (let i = 0; i < ROUNDS && (i === 0 || Date.now() < until); i++) out.push(await batch(i));
  return out;
}

const sum = <T>(xs: T[], f: (x: T) => number) => xs.reduce((n, x) => n + f(x), 0);

describe(`soak (≤ ${ROUNDS} batches or ${SECONDS} s per scenario)`, () => {
  it("durability: evict / abort mid-turn, batches of 20 rounds", async () => {
    const all = await soak(() => durabilityRounds(20));
    const r = { rounds: sum(all, (f) => f.rounds), lost: sum(all, (f) => f.lost), twice: sum(all, (f) => f.twice), mismatched: sum(all, (f) => f.mismatched) };
    const t = spread(all.flatMap((f) => f.convergeMs));
    figure("soak: durability (evict/abort mid-turn)", `${r.rounds} rounds`, `${r.lost} lost, ${r.twice} run twice, ${r.mismatched} reattached ≠ fresh; median ${t.median} ms`, t.max);
    expect(r).toMatchObject({ lost: 0, twice: 0, mismatched: 0 });
  });

  it("reconnect storms: 20 sessions × 10 viewers on one machine, 3 storms per batch", async () => {
    const all = await soak(() => reconnectStorm(20, 10, 3));
    const t = spread(all.flatMap((f) => f.convergeMs));
    const storms = sum(all, (f) => f.rounds);
    const diverged = sum(all, (f) => f.diverged);
    const crossed = sum(all, (f) => f.crossed);
    figure("soak: reconnect storms, 20 sessions × 10 viewers", `${storms} storms (${storms * 200} reconnects)`, `${diverged} diverged, ${crossed} crossed; median ${t.median} ms`, t.max);
    expect({ diverged, crossed }).toEqual({ diverged: 0, crossed: 0 });
  });

  it("reconnect storms: 200 viewers on one session, 3 storms per batch", async () => {
    const all = await soak(() => reconnectStorm(1, 200, 3));
    const t = spread(all.flatMap((f) => f.convergeMs));
    const storms = sum(all, (f) => f.rounds);
    const diverged = sum(all, (f) => f.diverged);
    figure("soak: reconnect storms, 200 viewers on one session", `${storms} storms (${storms * 200} reconnects)`, `${diverged} diverged; median ${t.median} ms`, t.max);
    expect(diverged).toBe(0);
  });

  it("viewer prompt floods: 1000 frames per batch", async () => {
    const all = await soak(() => viewerFlood(1000));
    const codes: Record<string, number> = {};
    for (const f of all) for (const [k, n] of Object.entries(f.codes)) codes[k] = (codes[k] ?? 0) + n;
    const worstBytes = Math.max(...all.map((f) => f.after.bytes - f.before.bytes));
    const bad = all.filter((f) => {
      const bound = floodBounds(f.before);
      return !f.bystanderOk || f.after.bytes > bound.bytes || Object.entries(bound.rows).some(([t, max]) => (f.after.rows[t] ?? 0) > max);
    }).length;
    figure("soak: viewer prompt floods", `${sum(all, (f) => f.frames)} frames in ${all.length} rooms`, `${JSON.stringify(codes)}; worst room growth ${(worstBytes / 1024).toFixed(0)} KB; ${bad} rooms out of bounds or bystander broken`, Math.max(...all.map((f) => f.ms)));
    expect(bad).toBe(0);
  });

  it("daemon event floods: ~24 MiB at once per batch", async () => {
    const all = await soak(() => daemonFlood(24));
    const r = { duplicates: sum(all, (f) => f.duplicates), missing: sum(all, (f) => f.missing), refused: all.every((f) => f.oversizedRefused) };
    figure(
      "soak: daemon event floods",
      `${sum(all, (f) => f.events)} events, ${(sum(all, (f) => f.bytes) / 2 ** 20).toFixed(0)} MiB`,
      `${r.duplicates} duplicated, ${r.missing} missing, ${sum(all, (f) => f.overloadCloses)} backlog closes, oversized frames ${r.refused ? "all refused" : "NOT refused"}`,
      Math.max(...all.map((f) => f.ms)),
    );
    expect(r).toMatchObject({ duplicates: 0, missing: 0, refused: true });
  });
});
