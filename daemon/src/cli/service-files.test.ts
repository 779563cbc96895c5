import { describe, expect, it } from "vitest";
import { LAUNCHD_LABEL, renderLaunchdPlist, renderSystemdUnit, serviceCommands, serviceLocation, servicePlatform, systemdQuote, type ServiceSpec } from "./service-files";

const spec: ServiceSpec = {
  node: "/home/ann/.nvm/versions/node/v20.20.2/bin/node",
  script: "/home/ann/.nvm/versions/node/v20.20.2/lib/node_modules/baton-acp/dist/baton.mjs",
  configFile: "/home/ann/.config/baton/config.json",
  roots: ["/home/ann/code", "/home/ann/my projects"],
  path: "/home/ann/.nvm/versions/node/v20.20.2/bin:/usr/local/bin:/usr/bin:/bin",
  home: "/home/ann",
};

describe("systemd user unit", () => {
  const unit = renderSystemdUnit(spec);
  it("runs `baton daemon` with the config file and roots, restarts on failure, starts with the user session", () => {
    expect(unit).toContain(
      'ExecStart="/home/ann/.nvm/versions/node/v20.20.2/bin/node" "/home/ann/.nvm/versions/node/v20.20.2/lib/node_modules/baton-acp/dist/baton.mjs" "daemon" "--config" "/home/ann/.config/baton/config.json" "--root" "/home/ann/code" "--root" "/home/ann/my projects"',
    );
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^RestartSec=5$/m);
    expect(unit).toMatch(/^WantedBy=default\.target$/m);
    expect(unit).toContain(`Environment="PATH=${spec.path}"`);
    expect(unit).toMatch(/^\[Unit\]$/m);
    expect(unit).toMatch(/^\[Service\]$/m);
    expect(unit).toMatch(/^\[Install\]$/m);
  });
  it("has no network-online.target (a system target the user manager never reaches: a no-op there)", () => {
    expect(unit).not.toContain("network-online");
  });
  it("never holds the token", () => {
    expect(unit).not.toMatch(/token|bt_/i);
  });
  it("escapes what systemd would expand or split", () => {
    expect(systemdQuote('a b"c\\d')).toBe('"a b\\"c\\\\d"');
    expect(systemdQuote("50%$HOME")).toBe('"50%%$$HOME"');
    const odd = renderSystemdUnit({ ...spec, roots: ["/tmp/100%"], path: "/opt/$weird:/bin" });
    expect(odd).toContain('"--root" "/tmp/100%%"');
    expect(odd).toContain('Environment="PATH=/opt/$weird:/bin"');
  });
});

describe("launchd agent", () => {
  const plist = renderLaunchdPlist({ ...spec, home: "/Users/ann", roots: ["/Users/ann/R&D <x>"] });
  it("runs at load, restarts when it did not exit cleanly, logs to ~/Library/Logs/baton", () => {
    expect(plist).toContain(`<string>${LAUNCHD_LABEL}</string>`);
    expect(plist).toMatch(/<key>RunAtLoad<\/key>\s*<true\/>/);
    expect(plist).toMatch(/<key>KeepAlive<\/key>\s*<dict>\s*<key>SuccessfulExit<\/key>\s*<false\/>/);
    expect(plist).toMatch(/<key>StandardErrorPath<\/key>\s*<string>\/Users\/ann\/Library\/Logs\/baton\/daemon\.log<\/string>/);
    expect(plist).toContain("<string>daemon</string>");
    expect(plist).toContain("<string>/Users/ann/R&amp;D &lt;x&gt;</string>");
    expect(plist).not.toMatch(/token|bt_/i);
  });
  it("is well-formed XML with one string per argument", () => {
    const args = /<key>ProgramArguments<\/key>\s*<array>([\s\S]*?)<\/array>/.exec(plist)![1]!;
    expect(args.match(/<string>/g)).toHaveLength(7);
    expect(plist.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });
});

describe("where and how", () => {
  it("picks the service manager by platform", () => {
    expect(servicePlatform("linux")).toBe("systemd");
    expect(servicePlatform("darwin")).toBe("launchd");
    expect(servicePlatform("win32")).toBeNull();
  });
  it("documents file and log locations and the commands", () => {
    expect(serviceLocation("systemd", "/home/ann")).toEqual({ file: "/home/ann/.config/systemd/user/baton.service", logs: "journalctl --user -u baton.service -f" });
    expect(serviceLocation("launchd", "/Users/ann").file).toBe(`/Users/ann/Library/LaunchAgents/${LAUNCHD_LABEL}.plist`);
    expect(serviceCommands("systemd", "f", 501).install.at(-1)).toEqual(["systemctl", "--user", "enable", "--now", "baton.service"]);
    expect(serviceCommands("launchd", "/x.plist", 501).install.at(-1)).toEqual(["launchctl", "bootstrap", "gui/501", "/x.plist"]);
  });
});
