/**
 * Vitest projects that run the Worker under AUTH_MODE=access and AUTH_MODE=builtin (bindings are per
 * project). Outbound fetches from the Worker go to a Node handler here (miniflare `outboundService`):
 * - the Access team's JWKS, for keys generated at config time (the private key reaches the tests as a
 *   binding, so they sign real RS256 tokens);
 * - an HTTP mail API that records messages; tests read them back from `https://mail.test/outbox`;
 * - (worker-push) a real Web Push service (test/push-service.ts) on a loopback port, started on first use:
 *   tests reach its API as `http://push.test/…`, the Worker posts to the endpoints it hands out.
 */
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { exportJWK, generateKeyPair } from "jose";
import { type PushService, startPushService } from "../push-service";

export const ACCESS_TEAM = "baton-test.cloudflareaccess.com";
export const ACCESS_AUD = "baton-test-aud-0123456789abcdef";
export const ACCESS_KID = "baton-test-key";
export const MAIL_API = "https://mail.test/send";

export async function authTestProjects() {
  const migrations = await readD1Migrations("migrations");
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid: ACCESS_KID, alg: "RS256", use: "sig" };
  const privateJwk = { ...(await exportJWK(privateKey)), kid: ACCESS_KID, alg: "RS256" };
  const mails: { to: string; subject: string; text: string; auth: string | null }[] = [];

  let pushService: Promise<PushService> | null = null;
  const forward = async (request: Request, target: string): Promise<Response> => {
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    const headers = new Headers([...request.headers].filter(([k]) => k !== "host"));
    const r = await fetch(target, { method: request.method, headers, body });
    return new Response(await r.arrayBuffer(), { status: r.status, headers: [...r.headers] });
  };

  const outbound = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.host === "push.test" || (pushService && url.origin === (await pushService).origin)) {
      pushService ??= startPushService();
      return forward(request, `${(await pushService).origin}${url.pathname}${url.search}`);
    }
    if (url.host === ACCESS_TEAM && url.pathname === "/cdn-cgi/access/certs")
      return Response.json({ keys: [publicJwk], public_cert: { kid: ACCESS_KID }, public_certs: [] });
    if (url.href === MAIL_API && request.method === "POST") {
      const body = (await request.json()) as { to: string[]; subject: string; text: string };
      for (const to of body.to) mails.push({ to, subject: body.subject, text: body.text, auth: request.headers.get("authorization") });
      return Response.json({ id: crypto.randomUUID() });
    }
    if (url.host === "mail.test" && url.pathname === "/outbox") {
      const to = url.searchParams.get("to");
      return Response.json(mails.filter((m) => !to || m.to === to));
    }
    return new Response("no route to the internet in tests", { status: 502 });
  };

  const project = (name: string, bindings: Record<string, unknown>, include: string) => ({
    plugins: [
      cloudflareTest(async () => ({
        wrangler: { configPath: "./wrangler.jsonc" },
        miniflare: { bindings: { TEST_MODE: "1", TEST_MIGRATIONS: migrations, ...bindings }, outboundService: outbound },
      })),
    ],
    // One workerd for the project's files, as the worker project (vitest.config.ts says why).
    test: { name, include: [include], setupFiles: ["test/worker/apply-migrations.ts", "test/worker/settle-daemons.ts"], isolate: false, testTimeout: 30_000 },
  });

  // A VAPID key pair for the push project, as `npx @pushforge/builder vapid` makes one (P-256 JWK).
  const vapid = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const vapidJwk = await crypto.subtle.exportKey("jwk", vapid.privateKey);

  return [
    project(
      "worker-push",
      {
        AUTH_MODE: "access",
        ACCESS_TEAM_DOMAIN: ACCESS_TEAM,
        ACCESS_AUD,
        TEST_ACCESS_PRIVATE_JWK: JSON.stringify(privateJwk),
        VAPID_PRIVATE_KEY: JSON.stringify(vapidJwk),
        VAPID_SUBJECT: "mailto:push-test@example.com",
        // The test push service is http on loopback: only a local stack posts there (worker/push/push-endpoint.ts).
        LOCAL_STACK: "1",
      },
      "test/worker/push*.test.ts",
    ),
    project(
      "worker-access",
      { AUTH_MODE: "access", ACCESS_TEAM_DOMAIN: ACCESS_TEAM, ACCESS_AUD, TEST_ACCESS_PRIVATE_JWK: JSON.stringify(privateJwk) },
      "test/worker/auth-access*.test.ts",
    ),
    project(
      "worker-builtin",
      {
        AUTH_MODE: "builtin",
        AUTH_SECRET: "test-secret-0123456789abcdef",
        BUILTIN_ALLOWED_EMAILS: "alice@example.com",
        BUILTIN_ALLOWED_DOMAINS: "team.example",
        MAIL_API_URL: MAIL_API,
        MAIL_API_KEY: "test-mail-key",
        MAIL_FROM: "Baton <baton@example.com>",
        // Push is on (subscriptions accepted); nothing is delivered in these suites.
        VAPID_PRIVATE_KEY: JSON.stringify(vapidJwk),
        VAPID_SUBJECT: "mailto:push-test@example.com",
      },
      "test/worker/auth-builtin*.test.ts",
    ),
  ];
}
