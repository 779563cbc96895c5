/**
 * Durable Objects hold no timers and only hibernatable sockets, so an idle room or machine can be
 * evicted from memory (and costs nothing) between frames. Checked on the source: no timer anywhere in the
 * Worker, alarms only in the SessionRoom (a share link's expiry: an alarm wakes a hibernated room at that
 * moment, it never keeps one in memory), and every WebSocket is accepted through `ctx.acceptWebSocket`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

describe("Worker and Durable Objects hibernate", () => {
  const files = sources(ROOT).map((path) => ({ path: path.slice(ROOT.length + 1), text: readFileSync(path, "utf8") }));

  it("no setTimeout / setInterval in the Worker or its Durable Objects; alarms only for share-link expiry", () => {
    expect(files.length).toBeGreaterThan(5);
    const offenders = files.filter((f) => /\b(setTimeout|setInterval)\s*\(/.test(f.text)).map((f) => f.path);
    expect(offenders).toEqual([]);
    const alarms = files.filter((f) => /\bsetAlarm\s*\(|\balarm\s*\(/.test(f.text)).map((f) => f.path);
    expect(alarms).toEqual(["session-room/session-room-do.ts"]);
  });

  it("sockets are accepted as hibernatable (ctx.acceptWebSocket), never with ws.accept()", () => {
    const accepting = files.filter((f) => f.text.includes("acceptWebSocket(")).map((f) => f.path).sort();
    expect(accepting).toEqual(["machine/machine-do.ts", "session-feed/session-feed-do.ts", "session-room/session-room-do.ts"]);
    expect(files.filter((f) => /\.accept\(\)/.test(f.text)).map((f) => f.path)).toEqual([]);
  });
});
