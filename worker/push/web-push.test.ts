import { describe, expect, it } from "vitest";
import { encryptPayload, fromBase64Url, toBase64Url, vapidAuthorization } from "./web-push";

// RFC 8291 Appendix A.
const V = {
  plaintext: "When I grow up, I want to be a watermelon",
  uaPublic: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
  auth: "BTBZMqHH6r4Tts7J_aSIgg",
  asPrivate: "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw",
  asPublic: "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
  salt: "DGv6ra1nlYgDCS1FRnbzlw",
  body:
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
};

describe("Web Push wire format", () => {
  it("encrypts the RFC 8291 test vector byte for byte", async () => {
    const asPublic = fromBase64Url(V.asPublic);
    const privateKey = await crypto.subtle.importKey(
      "jwk",
      { kty: "EC", crv: "P-256", d: V.asPrivate, x: toBase64Url(asPublic.slice(1, 33)), y: toBase64Url(asPublic.slice(33)) },
      { name: "ECDH", namedCurve: "P-256" },
      false,
      ["deriveBits"],
    );
    const body = await encryptPayload(new TextEncoder().encode(V.plaintext), { p256dh: V.uaPublic, auth: V.auth }, { privateKey, publicRaw: asPublic, salt: fromBase64Url(V.salt) });
    expect(toBase64Url(body)).toBe(V.body);
  });

  it("refuses keys that are not a subscription's", async () => {
    await expect(encryptPayload(new Uint8Array(1), { p256dh: "AAAA", auth: V.auth })).rejects.toThrow(/P-256/);
    await expect(encryptPayload(new Uint8Array(1), { p256dh: V.uaPublic, auth: "AAAA" })).rejects.toThrow(/16 bytes/);
  });

  it("signs a VAPID token for the endpoint's origin that verifies with the public key", async () => {
    const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const privateJwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
    const publicKey = toBase64Url(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
    const header = await vapidAuthorization({ privateJwk, publicKey, subject: "mailto:ops@example.com" }, "https://push.example.net/send/abc?x=1", 1_000);
    const m = /^vapid t=([^.]+)\.([^.]+)\.([^,]+), k=(.+)$/.exec(header);
    expect(m).not.toBeNull();
    const [, h, c, sig, k] = m!;
    expect(k).toBe(publicKey);
    expect(JSON.parse(new TextDecoder().decode(fromBase64Url(c!)))).toEqual({ aud: "https://push.example.net", exp: 1_000 + 12 * 3600, sub: "mailto:ops@example.com" });
    expect(await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, pair.publicKey, fromBase64Url(sig!), new TextEncoder().encode(`${h}.${c}`))).toBe(true);
  });
});
