/** The e2e stacks' port retry (test/e2e/port-retry.ts): CI's shared stack lost a port race and 13 files failed. */
import { describe, expect, it } from "vitest";
import { lostPortRace, onFreePort } from "./e2e/port-retry";

// workerd's words when a socket it binds is taken (CI, 2026-12-04), as startStack reports them.
const WORKERD_BUSY = new Error(
  'server at http://127.0.0.1:40163 exited (1) before it was healthy; its last output:\n✘ [ERROR] Address already in use (socket "direct:1:default"). Please check that you are not already running a server on this address or specify a different port with --port.',
);

describe("onFreePort", () => {
  it("starts again on a fresh port when the first start lost the port race", async () => {
    const ports = [40163, 40200];
    const tried: number[] = [];
    const started = await onFreePort(
      async (port) => {
        tried.push(port);
        if (port === 40163) throw WORKERD_BUSY;
        return `up on ${port}`;
      },
      async () => ports.shift() ?? 0,
    );
    expect(started).toBe("up on 40200");
    expect(tried).toEqual([40163, 40200]);
  });

  it("passes any other failure through at once", async () => {
    let calls = 0;
    const failing = onFreePort(
      async () => {
        calls++;
        throw new Error("server at http://127.0.0.1:1 did not become healthy within 100 s");
      },
      async () => 1,
    );
    await expect(failing).rejects.toThrow(/did not become healthy/);
    expect(calls).toBe(1);
  });

  it("gives up after the attempts it is given, with the last error", async () => {
    let calls = 0;
    const busy = onFreePort(
      async (port) => {
        calls++;
        throw new Error(`port ${port} is already in use (another Baton?). Stop it, or run with PORT=<another port>.`);
      },
      async () => 5000 + calls,
      3,
    );
    await expect(busy).rejects.toThrow(/port 5002 is already in use/);
    expect(calls).toBe(3);
  });

  it("recognises the collisions it retries and nothing else", () => {
    expect(lostPortRace(WORKERD_BUSY)).toBe(true);
    expect(lostPortRace(Object.assign(new Error("listen EADDRINUSE: address already in use 127.0.0.1:8787"), { code: "EADDRINUSE" }))).toBe(true);
    expect(lostPortRace(new Error("D1 migration failed"))).toBe(false);
    expect(lostPortRace("timeout")).toBe(false);
  });
});
