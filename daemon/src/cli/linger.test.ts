import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lingerCheck, queryLinger } from "./linger";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A real `loginctl` executable in a temp dir, its PATH alone (no real loginctl behind it). */
function pathWith(script: string): NodeJS.ProcessEnv {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), "baton-loginctl-"));
  dirs.push(bin);
  fs.writeFileSync(path.join(bin, "loginctl"), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return { PATH: bin };
}

describe.skipIf(process.platform === "win32")("systemd lingering (loginctl)", () => {
  it("reads yes / no, in both output forms", () => {
    expect(queryLinger("ann", pathWith('[ "$1 $2 $3 $4" = "show-user ann --property=Linger --value" ] && echo yes'))).toEqual({ linger: "yes" });
    expect(queryLinger("ann", pathWith("echo no"))).toEqual({ linger: "no" });
    expect(queryLinger("ann", pathWith("echo Linger=no"))).toEqual({ linger: "no" });
  });

  it("a user logind does not know (no session, no lingering) is not lingering", () => {
    const env = pathWith('echo "Failed to get user: User ann is not logged in or lingering" >&2; exit 1');
    expect(queryLinger("ann", env)).toEqual({ linger: "no" });
  });

  it("no loginctl, or an answer it cannot read: unknown, with why", () => {
    expect(queryLinger("ann", { PATH: "/nonexistent" })).toMatchObject({ linger: "unknown", why: expect.stringMatching(/loginctl/) });
    expect(queryLinger("ann", pathWith('echo "System has not been booted with systemd" >&2; exit 1'))).toMatchObject({
      linger: "unknown",
      why: expect.stringContaining("not been booted with systemd"),
    });
  });

  it("doctor's check: only about an installed unit; off is a warning with the fix", () => {
    expect(lingerCheck(false, "ann", { linger: "no" })).toMatchObject({ name: "service", ok: true, detail: expect.stringMatching(/not installed/) });
    expect(lingerCheck(true, "ann", { linger: "yes" })).toMatchObject({ ok: true, detail: expect.stringMatching(/lingering is on/) });
    expect(lingerCheck(true, "ann", { linger: "no" })).toMatchObject({ ok: true, warn: true, fix: "loginctl enable-linger ann" });
    expect(lingerCheck(true, "ann", { linger: "unknown", why: "loginctl: not found" })).toMatchObject({ ok: true, warn: true, fix: "loginctl enable-linger ann" });
  });
});
