/**
 * Cloudflare Access: every request reaching the Worker through Access carries `Cf-Access-Jwt-Assertion`,
 * an RS256 JWT signed by the team's keys (`https://<team>.cloudflareaccess.com/cdn-cgi/access/certs`).
 * We verify signature, issuer, audience (the Access application's AUD tag) and expiry.
 */
import { createRemoteJWKSet, jwtVerify } from "jose";
import { withoutTrailingSlashes } from "../../shared/paths";

export const ACCESS_JWT_HEADER = "Cf-Access-Jwt-Assertion";

/** Tolerated clock difference between Access and the Worker when checking exp/nbf. */
const CLOCK_TOLERANCE_SECONDS = 30;

let jwks: { url: string; set: ReturnType<typeof createRemoteJWKSet> } | null = null;

export type AccessConfig = { teamDomain: string; audience: string };

/** The team domain as configured (with or without scheme/trailing slash) → the issuer URL. */
export function accessIssuer(teamDomain: string): string {
  return `https://${withoutTrailingSlashes(teamDomain.replace(/^https?:\/\//, ""))}`;
}

/** The verified user email, or null for a missing/forged/expired/foreign token. */
export async function verifyAccessJwt(cfg: AccessConfig, token: string | null): Promise<{ email: string; name: string | null } | null> {
  if (!token) return null;
  const issuer = accessIssuer(cfg.teamDomain);
  const url = `${issuer}/cdn-cgi/access/certs`;
  if (!jwks || jwks.url !== url) jwks = { url, set: createRemoteJWKSet(new URL(url)) };
  try {
    const { payload } = await jwtVerify(token, jwks.set, {
      issuer,
      audience: cfg.audience,
      algorithms: ["RS256"],
      requiredClaims: ["exp", "email"],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
    const email = typeof payload["email"] === "string" ? payload["email"].trim().toLowerCase() : "";
    if (!email) return null;
    const name = typeof payload["name"] === "string" && payload["name"].trim() ? payload["name"].trim() : null;
    return { email, name };
  } catch {
    return null;
  }
}
