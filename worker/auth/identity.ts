/**
 * Who is calling. Modes (env AUTH_MODE):
 * - "dev": a fixed local identity — only for `npm start` and tests on loopback.
 * - "access": Cloudflare Access in front; the `Cf-Access-Jwt-Assertion` JWT is verified against the
 *   team's JWKS with the application audience.
 */
import { createRemoteJWKSet, jwtVerify } from "jose";
import { upsertUser, type User } from "../directory";
import type { Env } from "../env";

export const DEV_USER = { email: "dev@localhost", name: "Developer" } as const;

let jwks: { url: string; set: ReturnType<typeof createRemoteJWKSet> } | null = null;

export async function resolveIdentity(env: Env, request: Request): Promise<User | null> {
  switch (env.AUTH_MODE) {
    case "dev":
      return upsertUser(env.DB, DEV_USER.email, DEV_USER.name);
    case "access": {
      const token = request.headers.get("Cf-Access-Jwt-Assertion");
      if (!token || !env.ACCESS_TEAM_DOMAIN || !env.ACCESS_AUD) return null;
      const issuer = `https://${env.ACCESS_TEAM_DOMAIN}`;
      const url = `${issuer}/cdn-cgi/access/certs`;
      if (!jwks || jwks.url !== url) jwks = { url, set: createRemoteJWKSet(new URL(url)) };
      try {
        const { payload } = await jwtVerify(token, jwks.set, { issuer, audience: env.ACCESS_AUD });
        const email = typeof payload["email"] === "string" ? payload["email"] : null;
        if (!email) return null;
        return upsertUser(env.DB, email, email.split("@")[0] ?? email);
      } catch {
        return null;
      }
    }
    default:
      return null;
  }
}

/** A browser always sends Origin on a WebSocket upgrade; it must be this site (or an allowed one). */
export function originAllowed(env: Env, request: Request): boolean {
  const origin = request.headers.get("Origin");
  if (origin === null) return true;
  const self = new URL(request.url).origin;
  if (origin === self) return true;
  const extra = (env.ALLOWED_ORIGINS ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  return extra.includes(origin);
}
