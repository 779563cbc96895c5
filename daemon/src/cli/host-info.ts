/** What this machine says about itself when it asks to be paired (`baton login`). */
import os from "node:os";
import type { DeviceCodeRequest } from "../../../shared/device-api";
import { TUNNEL_PROTOCOL_VERSION } from "../../../shared/protocol-version";
import type { ResolvedAgent } from "../agent/agent-presets";
import { DAEMON_VERSION } from "../version";

/** e.g. "Linux 6.1.0 (x64)", "macOS 14.5 (arm64)". */
export function osLabel(platform = process.platform, release = os.release(), arch = process.arch, version = safeVersion()): string {
  switch (platform) {
    case "darwin":
      // os.version() is "Darwin Kernel Version 23.5.0: …"; the product version is not exposed, the kernel's is.
      return `macOS (Darwin ${release}, ${arch})`;
    case "linux":
      return `Linux ${release} (${arch})`;
    case "win32":
      return `Windows ${version || release} (${arch})`;
    default:
      return `${platform} ${release} (${arch})`;
  }
}

function safeVersion(): string {
  try {
    return os.version();
  } catch {
    return "";
  }
}

export function deviceCodeRequest(agents: readonly ResolvedAgent[], hostname = os.hostname()): DeviceCodeRequest {
  return {
    hostname: hostname.slice(0, 255) || "unknown",
    os: osLabel().slice(0, 100),
    agents: agents.slice(0, 32).map((a) => ({ id: a.info.id, label: a.info.label })),
    daemonVersion: DAEMON_VERSION,
    protocolVersion: TUNNEL_PROTOCOL_VERSION,
  };
}
