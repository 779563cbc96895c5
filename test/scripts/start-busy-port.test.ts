/** `npm start` while another server holds the port (issue 32 #1): it refuses at once and touches nothing. */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..", "..");

function listen(): Promise<{ server: Server; port: number }> {
  return new Promise((res, rej) => {
    const server = createServer((socket) => socket.end("HTTP/1.1 200 OK\r\ncontent-length: 11\r\n\r\n{\"ok\":true}"));
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address && typeof address === "object") res({ server, port: address.port });
      else rej(new Error("no port"));
    });
  });
}

function run(port: number, stateDir: string): Promise<{ code: number | null; out: string }> {
  return new Promise((res) => {
    // The state folder is where a start would pair and write a machine token: it must stay untouched.
    const child = spawn(process.execPath, [join(ROOT, "scripts", "start.mjs")], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), BATON_STATE_DIR: stateDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => res({ code, out }));
  });
}

describe("npm start on a port already served", () => {
  let server: Server | null = null;
  afterEach(() => server?.close());

  it("says the port is in use and exits non-zero without starting anything", async () => {
    const busy = await listen();
    server = busy.server;
    const stateDir = join(mkdtempSync(join(tmpdir(), "baton-busy-")), "state");
    const { code, out } = await run(busy.port, stateDir);
    expect(code).not.toBe(0);
    expect(out).toContain(`port ${busy.port} is already in use (another Baton?)`);
    expect(out).toContain("PORT=");
    expect(out).not.toContain("Baton is running");
    expect(existsSync(stateDir)).toBe(false);
  });
});
