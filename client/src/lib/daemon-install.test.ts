import { describe, expect, it } from "vitest";
import { TUNNEL_PROTOCOL_VERSION } from "../../../shared/protocol-version";
import { daemonVersionNote, installCommands } from "./daemon-install";

describe("daemon install and version notes", () => {
  it("commands name this server", () => {
    expect(installCommands("https://baton.example.com")).toEqual({ install: "npm i -g baton-acp", login: "baton login https://baton.example.com", service: "baton service install" });
  });
  it("current, refused (from before versioning) and unknown daemons", () => {
    expect(daemonVersionNote({ daemonVersion: "0.2.0", protocolVersion: TUNNEL_PROTOCOL_VERSION })).toEqual({ level: "ok", text: "daemon 0.2.0" });
    const old = daemonVersionNote({ daemonVersion: "0.0.9", protocolVersion: 0 });
    expect(old?.level).toBe("refused");
    expect(old?.text).toContain("npm i -g baton-acp");
    expect(daemonVersionNote({ daemonVersion: null })).toBeNull();
  });
});
