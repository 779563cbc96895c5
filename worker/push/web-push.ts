/**
 * The Web Push wire format on Web Crypto: RFC 8291 message encryption (content coding `aes128gcm`,
 * RFC 8188) and an RFC 8292 VAPID `Authorization` header.
 *
 * Hand-written because the dependency we meant to use, @pushforge/builder 2.0.5, encrypts with the
 * pre-RFC `aesgcm` draft under an RFC 8292 header: a mix the real test push service rejects, and Apple's
 * push service accepts only `aes128gcm`. The RFC 8291 test vector checks this module byte for byte
 * (web-push.test.ts).
 */

/** RFC 8188 record size: one record carries the whole payload (PushPayload is far below 4 KB). */
const RECORD_SIZE = 4096;
/** A VAPID token older than 24 h is refused by push services; 12 h leaves room for clock skew. */
const VAPID_TOKEN_SECONDS = 12 * 60 * 60;

export type SubscriptionKeys = { p256dh: string; auth: string };
/** The sender's one-off ECDH pair and salt: random per message; fixed only by the test vector. */
export type EncryptionSeed = { privateKey: CryptoKey; publicRaw: Uint8Array; salt: Uint8Array };

const enc = new TextEncoder();

export async function newSeed(): Promise<EncryptionSeed> {
  // workers-types declare generateKey / exportKey with union results; for ECDH + "raw" they are a pair and bytes.
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const publicRaw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  return { privateKey: pair.privateKey, publicRaw, salt: crypto.getRandomValues(new Uint8Array(16)) };
}

async function hkdf(salt: Uint8Array, ikm: Uint8Array, info: Uint8Array, bytes: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, bytes * 8));
}

/** RFC 8291 §3–4: the body of a push message for a subscription's keys (header + one record). */
export async function encryptPayload(plaintext: Uint8Array, keys: SubscriptionKeys, seed?: EncryptionSeed): Promise<Uint8Array> {
  const s = seed ?? (await newSeed());
  const uaPublic = fromBase64Url(keys.p256dh);
  const authSecret = fromBase64Url(keys.auth);
  if (uaPublic.length !== 65 || uaPublic[0] !== 4) throw new Error("p256dh is not an uncompressed P-256 point");
  if (authSecret.length !== 16) throw new Error("auth secret is not 16 bytes");
  const uaKey = await crypto.subtle.importKey("raw", uaPublic, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const ecdhSecret = new Uint8Array(await crypto.subtle.deriveBits(ecdhWith(uaKey), s.privateKey, 256));
  const keyInfo = concat(enc.encode("WebPush: info\0"), uaPublic, s.publicRaw);
  const ikm = await hkdf(authSecret, ecdhSecret, keyInfo, 32);
  const cek = await hkdf(s.salt, ikm, enc.encode("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(s.salt, ikm, enc.encode("Content-Encoding: nonce\0"), 12);
  // One record, the last: the plaintext then the 0x02 delimiter, no padding.
  const record = concat(plaintext, new Uint8Array([2]));
  if (record.length + 16 > RECORD_SIZE) throw new Error("push payload too large for one record");
  const aes = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["encrypt"]);
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce }, aes, record));
  const header = new Uint8Array(16 + 4 + 1);
  header.set(s.salt, 0);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header[20] = s.publicRaw.length;
  return concat(header, s.publicRaw, sealed);
}

export type VapidKeys = { privateJwk: JsonWebKey; publicKey: string; subject: string };

/** RFC 8292 §2–3: `vapid t=<ES256 JWT for the endpoint's origin>, k=<public key>`. */
export async function vapidAuthorization(vapid: VapidKeys, endpoint: string, nowSeconds = Math.floor(Date.now() / 1000)): Promise<string> {
  const header = toBase64Url(enc.encode(JSON.stringify({ typ: "JWT", alg: "ES256" })));
  const claims = toBase64Url(enc.encode(JSON.stringify({ aud: new URL(endpoint).origin, exp: nowSeconds + VAPID_TOKEN_SECONDS, sub: vapid.subject })));
  const { d, x, y, kty, crv } = vapid.privateJwk;
  const key = await crypto.subtle.importKey("jwk", { kty, crv, d, x, y }, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
  // Web Crypto's ECDSA signature is r‖s (64 bytes): the JWS form ES256 wants.
  const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, enc.encode(`${header}.${claims}`)));
  return `vapid t=${header}.${claims}.${toBase64Url(signature)}, k=${vapid.publicKey}`;
}

/** The ECDH parameters as Web Crypto names them (`public`); workers-types spell the field `$public`. */
function ecdhWith(publicKey: CryptoKey): SubtleCryptoDeriveKeyAlgorithm {
  const params = { name: "ECDH", public: publicKey };
  return params as unknown as SubtleCryptoDeriveKeyAlgorithm;
}

export function fromBase64Url(s: string): Uint8Array {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

export function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
