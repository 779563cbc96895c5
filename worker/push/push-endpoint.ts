/**
 * Which push-service endpoints the Worker posts to. Browsers' push services are all https; a local
 * stack also takes http on a loopback host (the `web-push-testing` service the tests and `npm start`
 * can use). @pushforge/builder refuses non-https endpoints, so such a request is built for the https
 * form of the URL (only the VAPID audience differs) and posted to the http one.
 */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export type PushTarget = { buildFor: string; postTo: string };

export function pushTarget(endpoint: string, localStack: boolean): PushTarget | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return null;
  }
  if (url.protocol === "https:") return { buildFor: endpoint, postTo: endpoint };
  if (url.protocol === "http:" && localStack && LOOPBACK_HOSTS.has(url.hostname)) {
    const https = new URL(endpoint);
    https.protocol = "https:";
    return { buildFor: https.href, postTo: endpoint };
  }
  return null;
}
