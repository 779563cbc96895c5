import { describe, expect, it } from "vitest";
import { CHUNK_RETRY_MS, type ChunkNetwork, loadChunk } from "./load-chunk";

/** A network whose waits are recorded and released by the test. */
function testNetwork(online = true) {
  const waits: (number | null)[] = [];
  const releases: (() => void)[] = [];
  const net: ChunkNetwork & { isOnline: boolean } = {
    isOnline: online,
    online: () => net.isOnline,
    wake(ms) {
      waits.push(ms);
      return new Promise((resolve) => releases.push(resolve));
    },
  };
  const release = async () => {
    await settle();
    releases.shift()!();
    await settle();
  };
  return { net, waits, release };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("loadChunk", () => {
  it("a chunk that loads is loaded once, with no wait", async () => {
    let calls = 0;
    const { net, waits } = testNetwork();
    expect(await loadChunk(async () => (calls++, "mod"), net)).toBe("mod");
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  });

  it("offline: waits for the network (no timer), then tries again and resolves", async () => {
    let fail = true;
    let calls = 0;
    const { net, waits, release } = testNetwork(false);
    const loaded = loadChunk(async () => {
      calls++;
      if (fail) throw new TypeError("Failed to fetch dynamically imported module");
      return "mod";
    }, net);
    await settle();
    expect(waits).toEqual([null]);
    fail = false;
    net.isOnline = true;
    await release();
    expect(await loaded).toBe("mod");
    expect(calls).toBe(2);
  });

  it("online but failing: waits grow step by step to the last and stay there; it never rejects", async () => {
    let calls = 0;
    const { net, waits, release } = testNetwork();
    const steps = CHUNK_RETRY_MS.length + 2;
    const loaded = loadChunk(async () => {
      if (++calls <= steps) throw new Error("502");
      return "mod";
    }, net);
    for (let i = 0; i < steps; i++) await release();
    expect(await loaded).toBe("mod");
    const last = CHUNK_RETRY_MS[CHUNK_RETRY_MS.length - 1];
    expect(waits).toEqual([...CHUNK_RETRY_MS, last, last]);
  });

  it("an offline spell does not count as a failure: the step it had reached is kept", async () => {
    let calls = 0;
    const { net, waits, release } = testNetwork();
    const loaded = loadChunk(async () => {
      calls++;
      if (calls === 2) net.isOnline = false;
      if (calls === 3) net.isOnline = true;
      if (calls < 4) throw new Error("no network");
      return "mod";
    }, net);
    for (let i = 0; i < 3; i++) await release();
    expect(await loaded).toBe("mod");
    expect(waits).toEqual([CHUNK_RETRY_MS[0], null, CHUNK_RETRY_MS[1]]);
  });
});
