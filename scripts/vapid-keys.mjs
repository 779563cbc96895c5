// VAPID keys for Web Push: a P-256 key pair, the private key as a JWK (what the Worker's VAPID_PRIVATE_KEY
// secret holds; the same format `npx @pushforge/builder vapid` prints) and the public key browsers subscribe
// with (the Worker derives it; printed for reference).
//   node scripts/vapid-keys.mjs            → prints both
//   node scripts/vapid-keys.mjs --secret   → prints only the JWK (pipe it: … | npx wrangler secret put VAPID_PRIVATE_KEY)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

export async function newVapidKeys() {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const privateJwk = { alg: "ES256", ...(await crypto.subtle.exportKey("jwk", pair.privateKey)) };
  const publicKey = Buffer.from(await crypto.subtle.exportKey("raw", pair.publicKey)).toString("base64url");
  return { privateJwk: JSON.stringify(privateJwk), publicKey };
}

/** The local stack's keys: made once per state directory (never committed), then reused so subscriptions stay valid. */
export async function devVapidKeys(file) {
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  const keys = await newVapidKeys();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const keys = await newVapidKeys();
  if (process.argv.includes("--secret")) process.stdout.write(keys.privateJwk);
  else
    console.log(
      `VAPID_PRIVATE_KEY (a secret: npx wrangler secret put VAPID_PRIVATE_KEY, paste this):\n${keys.privateJwk}\n\nPublic key (the Worker derives it; for reference):\n${keys.publicKey}`,
    );
}
