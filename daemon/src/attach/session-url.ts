/** `baton attach <session URL>`: the URL a browser shows for a session → the server and the session id. Pure. */

export type SessionTarget = { server: string; sessionId: string };

/** The web app's session page: `/s/<id>` (client/src/main.tsx). */
const SESSION_PAGE = /^\/s\/([^/]+)\/?$/;

export function parseSessionUrl(input: string): { ok: true; target: SessionTarget } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, message: `not a URL: "${input}" (copy the session's address from the browser, e.g. https://baton.example.com/s/<id>)` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, message: `the session URL must be http(s)://…, not ${url.protocol}` };
  const m = SESSION_PAGE.exec(url.pathname);
  if (!m) return { ok: false, message: `${url.href} is not a session's address: it should look like ${url.origin}/s/<session id>` };
  return { ok: true, target: { server: url.origin, sessionId: decodeURIComponent(m[1]!) } };
}
