/**
 * Where the daemon may send its machine token. The token rides in the tunnel's upgrade request, so over
 * plain http (or ws) anyone on the path can read it: only loopback servers (the local stack) may be
 * plain, unless the user explicitly allows it (e.g. a private network they trust).
 */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** Why this server URL must not get the token, or null when it may. */
export function insecureServerProblem(server: string, allowInsecureHttp: boolean): string | null {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return `"${server}" is not a URL (expected https://…)`;
  }
  switch (url.protocol) {
    case "https:":
    case "wss:":
      return null;
    case "http:":
    case "ws:":
      if (LOOPBACK_HOSTS.has(url.hostname) || allowInsecureHttp) return null;
      return `refusing to send the machine token over plain ${url.protocol.slice(0, -1)} to ${url.host}: use https://, or pass --allow-insecure-http (env BATON_ALLOW_INSECURE_HTTP=1) if this network is trusted`;
    default:
      return `unsupported server scheme ${url.protocol} (expected https://)`;
  }
}
