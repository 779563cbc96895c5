import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readConfigFile } from "./config-file";
import { configTooOpen, updateConfigFile } from "./config-write";

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "baton-cfg-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const mode = (f: string) => fs.statSync(f).mode & 0o777;

describe("config file written by baton login", () => {
  it("is created 0600 (directory 0700) whatever the umask, and keeps other keys", () => {
    const file = path.join(tmp(), "nested", "baton", "config.json");
    const old = process.umask(0o000);
    try {
      updateConfigFile(file, { server: "https://a.example", token: "bt_one" });
    } finally {
      process.umask(old);
    }
    expect(mode(file)).toBe(0o600);
    expect(mode(path.dirname(file))).toBe(0o700);
    expect(configTooOpen(file)).toBe(false);
    fs.writeFileSync(file, JSON.stringify({ server: "https://a.example", token: "bt_one", roots: ["/srv"], budget: 2 }), { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    expect(configTooOpen(file)).toBe(true);
    updateConfigFile(file, { server: "https://b.example", token: "bt_two" });
    expect(mode(file)).toBe(0o600);
    expect(readConfigFile(file, true)).toEqual({ server: "https://b.example", token: "bt_two", roots: ["/srv"], budget: 2 });
    expect(fs.readdirSync(path.dirname(file))).toEqual(["config.json"]); // no temp file left behind
  });
  it("refuses to clobber a config file it cannot read, leaving it as it was", () => {
    const file = path.join(tmp(), "config.json");
    fs.writeFileSync(file, "{ not json");
    expect(() => updateConfigFile(file, { token: "bt_x" })).toThrow(/not valid JSON/);
    expect(fs.readFileSync(file, "utf8")).toBe("{ not json");
  });
});
