import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { migrateCapabilityCache, readCapabilityCache } from "./capability-cache";

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "baton-caps-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const caps = { demo: { loadSession: true, resume: false, images: false, modes: true, configOptions: true, steering: true } };

describe("capability cache location", () => {
  it("moves the old file (beside the config) to the cache folder once", () => {
    const config = tmp();
    const cache = path.join(tmp(), "baton");
    const legacy = path.join(config, "agent-capabilities.json");
    const file = path.join(cache, "agent-capabilities.json");
    fs.writeFileSync(legacy, JSON.stringify(caps));
    expect(migrateCapabilityCache(file, legacy)).toBe(true);
    expect(readCapabilityCache(file)).toEqual(caps);
    expect(fs.existsSync(legacy)).toBe(false);
    // Once: nothing left to move.
    expect(migrateCapabilityCache(file, legacy)).toBe(false);
  });

  it("never overwrites a newer cache with the old file, and leaves the old file when the new one exists", () => {
    const config = tmp();
    const cache = tmp();
    const legacy = path.join(config, "agent-capabilities.json");
    const file = path.join(cache, "agent-capabilities.json");
    fs.writeFileSync(legacy, JSON.stringify({}));
    fs.writeFileSync(file, JSON.stringify(caps));
    expect(migrateCapabilityCache(file, legacy)).toBe(false);
    expect(readCapabilityCache(file)).toEqual(caps);
    // No old file: nothing to do.
    expect(migrateCapabilityCache(path.join(cache, "other.json"), path.join(config, "none.json"))).toBe(false);
  });
});
