/**
 * Response headers every page and API answer carries (the app's assets get them from the `_headers` file
 * the build writes from this list, API answers from the Worker's middleware): one list, two delivery paths.
 */

/**
 * No inline or foreign script (agent output is also sanitised: this is the second line); styles allow inline
 * `style` attributes (layout values set by components); sockets and fetches only to this origin.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  // Older browsers that ignore CSP frame-ancestors.
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/** The static-assets `_headers` file: the same headers on every path. */
export function assetHeadersFile(): string {
  return `/*\n${Object.entries(SECURITY_HEADERS)
    .map(([k, v]) => `  ${k}: ${v}`)
    .join("\n")}\n`;
}

/**
 * The same headers on a Worker response. A WebSocket handshake (101) is passed through untouched: its
 * headers belong to the socket, and a Durable Object's response cannot be rebuilt with its socket.
 */
export function withSecurityHeaders(res: Response): Response {
  if (res.status === 101) return res;
  const out = new Response(res.body, res);
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!out.headers.has(k)) out.headers.set(k, v);
  return out;
}
