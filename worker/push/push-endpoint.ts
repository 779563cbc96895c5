/**
 * Which push-service endpoints the Worker posts to. Browsers' push services are all https; a local
 * stack also takes http on a loopback host (the `web-push-testing` service the tests and `npm start`
 * can use). The VAPID audience is the endpoint's origin.
 */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export type PushTarget = { audienceOf: string; postTo: string };

export function pushTarget(endpoint: string, localStack: boolean): PushTarget | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return null;
  }
  if (url.protocol === "https:" || (url.protocol === "http:" && localStack && LOOPBACK_HOSTS.has(url.hostname))) return { audienceOf: endpoint, postTo: endpoint };
  return null;
}
