/**
 * AUTH_MODE=builtin: email + one-time code sign-in delivered through the configured HTTP mail API
 * (served by the test's outbound handler), hashed codes and sessions, cookie flags, expiry, attempt
 * and rate limits, allow lists and invitations, sign-out, CSRF.
 */
import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import {
  LOGIN_CODE_DIGITS,
  MAX_CODE_ATTEMPTS,
  MAX_CODES_PER_ADDRESS,
  MAX_CODES_PER_CLIENT,
  MAX_CODES_PER_WINDOW,
} from "../../worker/auth/login-codes";
import { sendLoginMail } from "../../worker/auth/mailer";
import { AuthedViewer, call } from "./auth-harness";
import { ORIGIN, TestDaemon, waitFor } from "./harness";

type Mail = { to: string; subject: string; text: string; auth: string | null };

async function outbox(to: string): Promise<Mail[]> {
  return (await fetch(`https://mail.test/outbox?to=${encodeURIComponent(to)}`)).json();
}

/** A browser asking for codes: its address as the edge reports it, and its login cookie once it has one. */
type Client = { ip: string; login?: string };
let clientNo = 0;
const newClient = (): Client => ({ ip: `198.51.100.${++clientNo}` });
/** Each test signs in from a browser of its own (limits count per client). */
let client: Client = newClient();
beforeEach(() => {
  client = newClient();
});

const clientHeaders = (c: Client): Record<string, string> => ({ "CF-Connecting-IP": c.ip, ...(c.login ? { Cookie: c.login } : {}) });

/** POST /api/auth/code as `c`, keeping the login cookie it is given. */
async function askCode(email: string, c: Client = client) {
  const r = await call("/api/auth/code", { method: "POST", headers: clientHeaders(c), body: JSON.stringify({ email }) });
  const set = r.headers.get("set-cookie");
  if (set) c.login = set.split(";")[0]!;
  return r;
}

async function requestCode(email: string, c: Client = client): Promise<string> {
  const before = (await outbox(email)).length;
  const r = await askCode(email, c);
  expect(r.status).toBe(200);
  const mails = await outbox(email);
  expect(mails.length).toBe(before + 1);
  const m = /\b(\d{6,})\b/.exec(mails.at(-1)!.text);
  expect(m).not.toBeNull();
  return m![1]!;
}

async function signIn(email: string, c: Client = newClient()): Promise<{ cookie: string; setCookie: string }> {
  const code = await requestCode(email, c);
  const r = await call<{ user: { email: string } }>("/api/auth/verify", { method: "POST", headers: clientHeaders(c), body: JSON.stringify({ email, code }) });
  expect(r.status).toBe(200);
  expect(r.body.user.email).toBe(email);
  const setCookie = r.headers.get("set-cookie")!;
  return { cookie: setCookie.split(";")[0]!, setCookie };
}

const verify = (email: string, code: string, c: Client = client) =>
  call("/api/auth/verify", { method: "POST", headers: clientHeaders(c), body: JSON.stringify({ email, code }) });

describe("builtin sign-in", () => {
  it("announces the mode and refuses unauthenticated calls", async () => {
    expect((await call("/api/auth/config")).body).toEqual({ mode: "builtin" });
    expect((await call("/api/me")).status).toBe(401);
    expect((await call("/api/sessions")).status).toBe(401);
    expect((await call("/api/dev/pair", { method: "POST", body: "{}" })).status).toBe(401);
    expect((await AuthedViewer.upgrade("any", {})).status).toBe(401);
    // A made-up session cookie is nobody.
    const forged = { Cookie: "baton_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" };
    expect((await call("/api/me", { headers: forged })).status).toBe(401);
    expect((await call("/api/machines", { method: "POST", headers: forged, body: "{}" })).status).toBe(401);
    expect((await AuthedViewer.upgrade("any", forged)).status).toBe(401);
  });

  it("mails a code through the configured API, stores only hashes, and sets an httpOnly Lax cookie", async () => {
    const email = "alice@example.com";
    const code = await requestCode(email);
    expect(code).toHaveLength(LOGIN_CODE_DIGITS);
    const mail = (await outbox(email)).at(-1)!;
    expect(mail.auth).toBe("Bearer test-mail-key");
    expect(mail.subject).toContain(code);
    const row = await env.DB.prepare("SELECT code_hash FROM login_codes WHERE email = ? ORDER BY created_at DESC").bind(email).first<{ code_hash: string }>();
    expect(row!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.code_hash).not.toContain(code);

    const r = await verify(email, code);
    expect(r.status).toBe(200);
    const setCookie = r.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^__Host-baton_session=[A-Za-z0-9_-]{40,};/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Max-Age=\d+/);
    const cookie = setCookie.split(";")[0]!;
    const stored = await env.DB.prepare("SELECT id_hash FROM auth_sessions").all<{ id_hash: string }>();
    expect(stored.results.some((s) => cookie.includes(s.id_hash))).toBe(false);

    const me = await call<{ email: string; authMode: string }>("/api/me", { headers: { Cookie: cookie } });
    expect(me.body).toMatchObject({ email, authMode: "builtin" });
    // A code works once.
    expect((await verify(email, code)).status).toBe(401);
  });

  it("marks the cookie Secure on a non-loopback host, and on loopback too unless the local stack started the server", async () => {
    const email = "secure@team.example";
    await requestCode(email);
    const code = /\b(\d{6,})\b/.exec((await outbox(email)).at(-1)!.text)![1]!;
    const site = "https://baton.example";
    const r = await exports.default.fetch(`${site}/api/auth/verify`, {
      method: "POST",
      headers: { "content-type": "application/json", Origin: site, ...clientHeaders(client) },
      body: JSON.stringify({ email, code }),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("set-cookie")).toMatch(/;\s*Secure/i);
    // This project's server was not started by the local stack: a `Host: localhost` request changes nothing.
    const local = await signIn("secure@team.example");
    expect(local.setCookie).toMatch(/^__Host-baton_session=.*;\s*Secure/i);
  });

  it("burns a code after too many wrong guesses and expires codes", async () => {
    const email = "guesser@team.example";
    const code = await requestCode(email);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 1; i < MAX_CODE_ATTEMPTS; i++) expect((await verify(email, wrong)).body).toMatchObject({ error: { code: "BAD_CODE" } });
    expect((await verify(email, wrong)).status).toBe(429);
    expect((await verify(email, code)).status).toBe(429);

    const fresh = await requestCode(email);
    await env.DB.prepare("UPDATE login_codes SET expires_at = ? WHERE email = ? AND consumed_at IS NULL").bind(Date.now() - 1, email).run();
    expect((await verify(email, fresh)).body).toMatchObject({ error: { code: "CODE_EXPIRED" } });
  });

  it("a new code supersedes the previous one", async () => {
    const email = "twice@team.example";
    const first = await requestCode(email);
    const second = await requestCode(email);
    if (first !== second) expect((await verify(email, first)).status).toBe(401);
    expect((await verify(email, second)).status).toBe(200);
  });

  it("rate limits code requests per address", async () => {
    const email = "spam@team.example";
    for (let i = 0; i < MAX_CODES_PER_WINDOW; i++) await requestCode(email);
    const r = await askCode(email);
    expect(r.status).toBe(429);
    expect((await outbox(email)).length).toBe(MAX_CODES_PER_WINDOW);
  });

  it("only allow-listed or invited addresses receive codes (same answer either way)", async () => {
    const stranger = "mallory@elsewhere.example";
    const r = await call("/api/auth/code", { method: "POST", body: JSON.stringify({ email: stranger }) });
    expect(r.status).toBe(200);
    expect(await outbox(stranger)).toEqual([]);
    expect((await call("/api/auth/code", { method: "POST", body: JSON.stringify({ email: "not an email" }) })).status).toBe(400);

    // Alice (allow-listed) pairs a machine, starts a session and invites the stranger as a viewer.
    const { sessionId, daemon } = await aliceSessionWith(stranger, "viewer");

    const invited = await signIn(stranger);
    const v = await AuthedViewer.open(sessionId, { Cookie: invited.cookie });
    expect(v.welcome()?.viewer.role).toBe("viewer");
    v.close();
    daemon.close();
  });

  it("sign-out deletes the session; expired sessions are refused", async () => {
    const a = await signIn("alice@example.com");
    expect((await call("/api/me", { headers: { Cookie: a.cookie } })).status).toBe(200);
    const out = await call("/api/auth/signout", { method: "POST", headers: { Cookie: a.cookie } });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/__Host-baton_session=;.*Max-Age=0/i);
    expect((await call("/api/me", { headers: { Cookie: a.cookie } })).status).toBe(401);

    const b = await signIn("alice@example.com");
    await env.DB.prepare("UPDATE auth_sessions SET expires_at = ?").bind(Date.now() - 1).run();
    expect((await call("/api/me", { headers: { Cookie: b.cookie } })).status).toBe(401);
  });

  it("refuses cross-site writes and sign-in posts (CSRF)", async () => {
    const { cookie } = await signIn("alice@example.com");
    const evil = { Cookie: cookie, Origin: "https://evil.example" };
    expect((await call("/api/machines", { method: "POST", headers: evil, body: "{}" })).status).toBe(403);
    expect((await call("/api/machines", { method: "POST", headers: { Cookie: cookie, Origin: "" }, body: "{}" })).status).toBe(403);
    expect((await call("/api/auth/signout", { method: "POST", headers: evil })).status).toBe(403);
    expect((await call("/api/auth/code", { method: "POST", headers: { Origin: "https://evil.example" }, body: JSON.stringify({ email: "alice@example.com" }) })).status).toBe(403);
    // The session survived the forged sign-out.
    expect((await call("/api/me", { headers: { Cookie: cookie } })).status).toBe(200);
    expect(ORIGIN).toBe("http://localhost");
  });
});

/** Alice (allow-listed) pairs a machine, starts a session and adds `email` with `role`. */
async function aliceSessionWith(email: string, role: "member" | "viewer") {
  const { cookie } = await signIn("alice@example.com");
  const h = { Cookie: cookie };
  const pair = await call<{ machine: { id: string }; token: string }>("/api/machines", { method: "POST", headers: h, body: "{}" });
  expect(pair.status).toBe(201);
  const daemon = new TestDaemon(pair.body.token);
  await daemon.connect();
  const s = await call<{ session: { id: string }; members: { userId: string; email: string }[] }>("/api/sessions", {
    method: "POST",
    headers: h,
    body: JSON.stringify({ machineId: pair.body.machine.id, agentId: "demo", cwd: "/work" }),
  });
  expect(s.status).toBe(201);
  const added = await call<{ members: { userId: string; email: string }[] }>(`/api/sessions/${s.body.session.id}/members`, {
    method: "POST",
    headers: h,
    body: JSON.stringify({ email, role }),
  });
  expect(added.status).toBe(201);
  const guestId = added.body.members.find((m) => m.email === email)!.userId;
  return { aliceCookie: cookie, machineId: pair.body.machine.id, sessionId: s.body.session.id, daemon, guestId };
}

describe("the allow list is a closed boundary", () => {
  it("an invited-only address is a guest: its sessions and nothing else; removal from its last session ends its sign-in", async () => {
    const guest = "gina@elsewhere.example";
    const { aliceCookie, machineId, sessionId, daemon, guestId } = await aliceSessionWith(guest, "member");
    const g = await signIn(guest);
    const h = { Cookie: g.cookie };
    expect((await call("/api/me", { headers: h })).body).toMatchObject({ email: guest, scope: "guest" });
    expect((await call("/api/me", { headers: { Cookie: aliceCookie } })).body).toMatchObject({ scope: "full" });
    // Inside the session: a member as invited.
    const v = await AuthedViewer.open(sessionId, h);
    expect(v.welcome()?.viewer.role).toBe("member");
    // Outside it: no machines, no sessions, no invitations.
    expect((await call("/api/machines", { method: "POST", headers: h, body: "{}" })).status).toBe(403);
    expect((await call("/api/machines", { headers: h })).body).toEqual({ machines: [] });
    const create = await call("/api/sessions", { method: "POST", headers: h, body: JSON.stringify({ machineId, agentId: "demo", cwd: "/work" }) });
    expect(create.status).toBe(403);
    const invite = await call(`/api/sessions/${sessionId}/members`, { method: "POST", headers: h, body: JSON.stringify({ email: "outsider@evil.example", role: "member" }) });
    expect(invite.status).toBe(403);
    // The outsider the guest tried to invite cannot sign in.
    expect((await askCode("outsider@evil.example")).status).toBe(200);
    expect(await outbox("outsider@evil.example")).toEqual([]);

    // Alice removes the guest: socket closed, every sign-in of the guest ended, no new code mailed.
    expect((await call(`/api/sessions/${sessionId}/members/${guestId}`, { method: "DELETE", headers: { Cookie: aliceCookie } })).status).toBe(200);
    await waitFor(() => v.closed !== null, "guest socket closed");
    expect((await call("/api/me", { headers: h })).status).toBe(401);
    const mailsBefore = (await outbox(guest)).length;
    expect((await askCode(guest, newClient())).status).toBe(200);
    expect((await outbox(guest)).length).toBe(mailsBefore);
    daemon.close();
  });
});

describe("push subscriptions follow the sign-in", () => {
  const subscription = (n: string) => ({ endpoint: `https://push.example.net/send/${n}`, keys: { p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4", auth: "BTBZMqHH6r4Tts7J_aSIgg" } });
  const stored = async (n: string) =>
    (await env.DB.prepare("SELECT COUNT(*) AS c FROM push_subscriptions WHERE endpoint = ?").bind(subscription(n).endpoint).first<{ c: number }>())!.c;
  const subscribe = (cookie: string, n: string) => call("/api/push/subscriptions", { method: "POST", headers: { Cookie: cookie }, body: JSON.stringify(subscription(n)) });

  it("signing out of a browser removes the subscription made under that sign-in, and the endpoint it names; others stay", async () => {
    const phone = await signIn("alice@example.com");
    const laptop = await signIn("alice@example.com");
    expect((await subscribe(phone.cookie, "phone")).status).toBe(201);
    expect((await subscribe(laptop.cookie, "laptop")).status).toBe(201);
    expect((await call("/api/push/subscriptions", { method: "POST", headers: { Cookie: phone.cookie }, body: JSON.stringify({ endpoint: "http://push.example.net/x", keys: subscription("x").keys }) })).status).toBe(400);
    expect((await call("/api/auth/signout", { method: "POST", headers: { Cookie: phone.cookie } })).status).toBe(200);
    expect(await stored("phone")).toBe(0);
    expect(await stored("laptop")).toBe(1);
    // A subscription refreshed under another sign-in goes when the client names its endpoint at sign-out.
    const tablet = await signIn("alice@example.com");
    expect((await subscribe(laptop.cookie, "tablet")).status).toBe(201);
    expect((await call("/api/auth/signout", { method: "POST", headers: { Cookie: tablet.cookie }, body: JSON.stringify({ endpoint: subscription("tablet").endpoint }) })).status).toBe(200);
    expect(await stored("tablet")).toBe(0);
    expect(await stored("laptop")).toBe(1);
    // Unsubscribing on purpose.
    expect((await call("/api/push/subscriptions", { method: "DELETE", headers: { Cookie: laptop.cookie }, body: JSON.stringify({ endpoint: subscription("laptop").endpoint }) })).status).toBe(204);
    expect(await stored("laptop")).toBe(0);
  });

  it("a guest may subscribe and mute the sessions it was invited to; its devices go with its last invitation", async () => {
    const guest = "gus@elsewhere.example";
    const { aliceCookie, sessionId, daemon, guestId } = await aliceSessionWith(guest, "member");
    const g = await signIn(guest);
    expect((await subscribe(g.cookie, "gus")).status).toBe(201);
    expect((await call(`/api/sessions/${sessionId}/push-mute`, { method: "PUT", headers: { Cookie: g.cookie }, body: JSON.stringify({ muted: true }) })).body).toEqual({ muted: true });
    const other = await aliceSessionWith("someone@elsewhere.example", "member");
    expect((await call(`/api/sessions/${other.sessionId}/push-mute`, { method: "PUT", headers: { Cookie: g.cookie }, body: JSON.stringify({ muted: true }) })).status).toBe(404);
    expect((await call(`/api/sessions/${sessionId}/members/${guestId}`, { method: "DELETE", headers: { Cookie: aliceCookie } })).status).toBe(200);
    expect(await stored("gus")).toBe(0);
    daemon.close();
    other.daemon.close();
  });
});

describe("sign-in limits cannot be turned against a person", () => {
  it("a stranger's code requests and wrong guesses for an address leave that person's code and new codes working", async () => {
    const email = "victim@team.example";
    const victim = newClient();
    const pending = await requestCode(email, victim);
    const stranger = newClient();
    for (let i = 0; i < MAX_CODES_PER_WINDOW; i++) await requestCode(email, stranger);
    expect((await askCode(email, stranger)).status).toBe(429);
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) await verify(email, "000000", stranger);
    // The victim's pending code was neither superseded nor burnt; a fresh one is also still issued.
    expect((await verify(email, pending, victim)).status).toBe(200);
    const again = newClient();
    const fresh = await requestCode(email, again);
    expect((await verify(email, fresh, again)).status).toBe(200);
  });

  it("a code only works in the browser that asked for it", async () => {
    const email = "bound@team.example";
    const asker = newClient();
    const code = await requestCode(email, asker);
    expect((await verify(email, code, newClient())).body).toMatchObject({ error: { code: "BAD_CODE" } });
    expect((await verify(email, code, { ip: asker.ip })).status).toBe(401);
    expect((await verify(email, code, asker)).status).toBe(200);
  });

  it("bounds what one client can trigger across addresses, and mail to one address from everyone", async () => {
    const spammer = newClient();
    for (let i = 0; i < MAX_CODES_PER_CLIENT; i++) await requestCode(`target${i}@team.example`, spammer);
    const over = await askCode("target-next@team.example", spammer);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ error: { message: expect.stringMatching(/from here/) } });
    expect(await outbox("target-next@team.example")).toEqual([]);
    // Another client is unaffected.
    await requestCode("target-next@team.example", newClient());

    const email = "inbox@team.example";
    for (let sent = 0; sent < MAX_CODES_PER_ADDRESS; ) {
      const c = newClient();
      for (let i = 0; i < MAX_CODES_PER_WINDOW && sent < MAX_CODES_PER_ADDRESS; i++, sent++) await requestCode(email, c);
    }
    const capped = await askCode(email, newClient());
    expect(capped.status).toBe(429);
    expect(capped.body).toMatchObject({ error: { message: expect.stringMatching(/this address/) } });
    expect((await outbox(email)).length).toBe(MAX_CODES_PER_ADDRESS);
  });

  it("a session cookie sent twice (shadowed) signs nobody in", async () => {
    const a = await signIn("alice@example.com");
    expect((await call("/api/me", { headers: { Cookie: a.cookie } })).status).toBe(200);
    const name = a.cookie.split("=")[0]!;
    expect((await call("/api/me", { headers: { Cookie: `${name}=forged; ${a.cookie}` } })).status).toBe(401);
  });
});

describe("mail channels", () => {
  const mail = { to: "a@team.example", code: "123456", site: "baton.example", ttlMinutes: 10 };
  it("without a channel: printed only for a localhost server, otherwise refused (never a silent success)", async () => {
    const bare = { ...env, MAIL_API_URL: undefined, MAIL_API_KEY: undefined, SEND_EMAIL: undefined };
    expect(await sendLoginMail(bare, mail, true)).toBe("logged");
    expect(await sendLoginMail(bare, mail, false)).toBe("not_configured");
  });
  it("uses a send_email binding when present", async () => {
    const sent: unknown[] = [];
    const binding = { send: async (m: unknown) => void sent.push(m) } as unknown as SendEmail;
    expect(await sendLoginMail({ ...env, SEND_EMAIL: binding }, mail, false)).toBe("sent");
    expect(sent).toEqual([expect.objectContaining({ to: mail.to, from: env.MAIL_FROM, subject: expect.stringContaining("123456") })]);
  });
  it("reports a failing mail API", async () => {
    expect(await sendLoginMail({ ...env, MAIL_API_URL: "https://mail.test/broken" }, mail, false)).toBe("failed");
  });
});
