import { describe, expect, it } from "vitest";
import { checkDaemonProtocol, MIN_DAEMON_PROTOCOL_VERSION, TUNNEL_PROTOCOL_VERSION, upgradeCommand } from "./protocol-version";

describe("checkDaemonProtocol", () => {
  it("accepts the versions the server speaks", () => {
    for (let v = MIN_DAEMON_PROTOCOL_VERSION; v <= TUNNEL_PROTOCOL_VERSION; v++) expect(checkDaemonProtocol(v)).toEqual({ ok: true });
  });
  it("refuses a hello without the field (a daemon from before versioning) with the upgrade command", () => {
    const v = checkDaemonProtocol(undefined);
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.reason).toBe("too_old");
      expect(v.message).toContain(upgradeCommand);
    }
  });
  it("refuses a daemon newer than the server, pointing at the server", () => {
    const v = checkDaemonProtocol(TUNNEL_PROTOCOL_VERSION + 1);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.message).toMatch(/update the Baton server/);
  });
});
