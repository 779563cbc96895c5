/**
 * Web Push end to end in workerd against a real Web Push service (web-push-testing, see auth-projects.ts):
 * browsers' subscriptions made at the service, registered through /api/push, events raised in a real
 * SessionRoom by a scripted daemon on the real tunnel, payloads encrypted by the Worker (RFC 8291, VAPID)
 * and decrypted by the service. Who got what, who did not; Approve from a notification; 410 cleanup.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { PushPayload } from "../../shared/push-api";
import type { SessionEvent } from "../../shared/viewer-protocol";
import { asUser, AuthedViewer, call } from "./auth-harness";
import { TestDaemon, waitFor } from "./harness";

const OWNER = "olga@example.com";
const BOB = "bob@example.com"; // member, tab closed
const CAROL = "carol@example.com"; // viewer, tab closed
const DAVE = "dave@example.com"; // member, watching

type Device = { email: string; endpoint: string; clientHash: string };
const SERVICE = "http://push.test";

async function subscribeDevice(email: string, publicKey: string): Promise<Device> {
  const r = await fetch(`${SERVICE}/subscribe`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userVisibleOnly: "true", applicationServerKey: publicKey }) });
  expect(r.status, await r.clone().text()).toBe(200);
  const { data } = (await r.json()) as { data: { endpoint: string; keys: { p256dh: string; auth: string }; clientHash: string } };
  const saved = await call("/api/push/subscriptions", {
    method: "POST",
    headers: await asUser(email),
    body: JSON.stringify({ endpoint: data.endpoint, keys: data.keys, deviceLabel: `${email}'s phone` }),
  });
  expect(saved.status).toBe(201);
  return { email, endpoint: data.endpoint, clientHash: data.clientHash };
}

/** What the service received for a device, decrypted by it, parsed as our payload. */
async function received(d: Device): Promise<PushPayload[]> {
  const r = await fetch(`${SERVICE}/get-notifications`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ clientHash: d.clientHash }) });
  const { data } = (await r.json()) as { data: { messages: string[] } };
  return data.messages.map((m) => PushPayload.parse(JSON.parse(m)));
}

const kinds = async (d: Device) => (await received(d)).map((p) => p.kind);

async function waitKinds(d: Device, expected: string[], what: string): Promise<void> {
  let last: string[] = [];
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    last = await kinds(d);
    if (last.length >= expected.length) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  expect(last, what).toEqual(expected);
}

const text = (t: string) => [{ type: "text", text: t }];
const sessionEvents = (v: AuthedViewer): SessionEvent[] => v.frames.flatMap((f) => (f.type === "event" || f.type === "state" ? [f.event] : f.type === "batch" ? f.frames.flatMap((x) => (x.type === "event" || x.type === "state" ? [x.event] : [])) : []));

/** Polls an async condition (harness waitFor takes a synchronous one). */
async function until(fn: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function closeAndWait(v: AuthedViewer): Promise<void> {
  v.close();
  await waitFor(() => v.closed, "socket closed by the room");
}

describe("Web Push delivery", () => {
  let sessionId = "";
  let daemon: TestDaemon;
  let token = "";
  let owner: AuthedViewer;
  let dave: AuthedViewer;
  const devices: Record<string, Device> = {};

  beforeAll(async () => {
    const config = await call<{ publicKey: string | null }>("/api/push/config", { headers: await asUser(OWNER) });
    expect(config.body.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const h = await asUser(OWNER);
    const pair = await call<{ machine: { id: string }; token: string }>("/api/machines", { method: "POST", headers: h, body: JSON.stringify({ name: "laptop" }) });
    token = pair.body.token;
    daemon = new TestDaemon(token);
    await daemon.connect();
    const created = await call<{ session: { id: string } }>("/api/sessions", { method: "POST", headers: h, body: JSON.stringify({ machineId: pair.body.machine.id, agentId: "demo", cwd: "/work", title: "Fix login" }) });
    sessionId = created.body.session.id;
    await waitFor(() => daemon.of("session.open").some((c) => c.sessionId === sessionId), "session.open");
    await daemon.settle();
    for (const [email, role] of [[BOB, "member"], [CAROL, "viewer"], [DAVE, "member"]] as const)
      expect((await call(`/api/sessions/${sessionId}/members`, { method: "POST", headers: h, body: JSON.stringify({ email, role }) })).status).toBe(201);
    for (const email of [OWNER, BOB, CAROL, DAVE]) devices[email] = await subscribeDevice(email, config.body.publicKey!);
    owner = await AuthedViewer.open(sessionId, await asUser(OWNER));
    dave = await AuthedViewer.open(sessionId, await asUser(DAVE));
  });

  it("a permission request reaches members with no socket, with Approve / Deny; Approve from it resolves the request for every viewer", async () => {
    expect(await owner.op({ op: "message.send", id: "m1", blocks: text("run the tests") })).toMatchObject({ type: "ack" });
    await waitFor(() => daemon.prompts(sessionId).length === 1, "prompt");
    daemon.emit({
      t: "permission.request",
      sessionId,
      requestId: "perm-1",
      toolCall: { title: "Run `npm test` with API_TOKEN=sk-live-abcdefghijklmnopqrstuvwxyz123456" },
      options: [
        { optionId: "yes", name: "Allow once", kind: "allow_once" },
        { optionId: "always", name: "Always", kind: "allow_always" },
        { optionId: "no", name: "Reject", kind: "reject_once" },
      ],
    });
    await daemon.settle();
    await waitKinds(devices[BOB]!, ["permission"], "Bob (member, tab closed) is asked");
    const [push] = await received(devices[BOB]!);
    expect(push).toMatchObject({
      kind: "permission",
      sessionId,
      title: "Approval needed · run the tests",
      url: `/s/${sessionId}`,
      permission: { requestId: "perm-1", actions: [{ action: "approve", optionId: "yes", title: "Approve" }, { action: "deny", optionId: "no", title: "Deny" }] },
    });
    expect(push!.body).toContain("Run npm test");
    expect(push!.body).not.toContain("sk-live");

    // A viewer cannot answer; a member can, once; a late answer hears who answered.
    const action = (email: string, optionId: string) =>
      asUser(email).then((headers) => call("/api/push/action", { method: "POST", headers, body: JSON.stringify({ sessionId, requestId: "perm-1", optionId }) }));
    expect((await action(CAROL, "yes")).status).toBe(403);
    expect(await action(BOB, "yes")).toMatchObject({ status: 200, body: { ok: true } });
    expect(await action(OWNER, "no")).toMatchObject({ status: 409, body: { error: "ALREADY_ANSWERED", by: "bob" } });
    for (const v of [owner, dave])
      await waitFor(() => sessionEvents(v).some((e) => e.kind === "permission_resolved" && e.requestId === "perm-1" && e.optionId === "yes" && e.by?.name === "bob"), "resolved for every viewer");
    await waitFor(() => daemon.of("permission.respond").length === 1, "answer forwarded to the agent");
    expect(daemon.of("permission.respond")[0]).toMatchObject({ requestId: "perm-1", optionId: "yes" });
    // Cross-site and anonymous answers are refused like any other write.
    expect((await call("/api/push/action", { method: "POST", headers: { ...(await asUser(BOB)), Origin: "https://evil.example" }, body: JSON.stringify({ sessionId, requestId: "perm-1", optionId: "yes" }) })).status).toBe(403);
    expect((await call("/api/push/action", { method: "POST", body: JSON.stringify({ sessionId, requestId: "perm-1", optionId: "yes" }) })).status).toBe(401);
  });

  it("a turn's end reaches every follower with no socket, viewers included, with the agent's last words", async () => {
    await daemon.finishTurn(sessionId, "All **42** tests pass.");
    await waitKinds(devices[CAROL]!, ["turn_ended"], "Carol (viewer) hears the turn ended, not the permission");
    await waitKinds(devices[BOB]!, ["permission", "turn_ended"], "Bob hears it too");
    expect((await received(devices[CAROL]!))[0]).toMatchObject({ title: "Turn finished · run the tests", body: "All 42 tests pass." });
  });

  it("a failed turn reaches followers with no socket", async () => {
    expect(await owner.op({ op: "message.send", id: "m2", blocks: text("deploy") })).toMatchObject({ type: "ack" });
    await waitFor(() => daemon.prompts(sessionId).length === 2, "prompt");
    daemon.emit({ t: "turn.ended", sessionId, turnId: daemon.prompts(sessionId).at(-1)!.turnId, stopReason: "error", error: "model overloaded" });
    await daemon.settle();
    await waitKinds(devices[CAROL]!, ["turn_ended", "turn_failed"], "Carol hears the failure");
    expect((await received(devices[CAROL]!))[1]).toMatchObject({ title: "Turn failed · run the tests", body: "model overloaded" });
  });

  it("your own queued message starting reaches you; Stop's author is not told of the turn they stopped", async () => {
    expect(await owner.op({ op: "message.send", id: "m3", blocks: text("long job") })).toMatchObject({ type: "ack" });
    await waitFor(() => daemon.prompts(sessionId).length === 3, "prompt");
    const bob = await AuthedViewer.open(sessionId, await asUser(BOB));
    expect(await bob.op({ op: "message.send", id: "b1", blocks: text("then update the changelog") })).toMatchObject({ result: { queued: true } });
    await closeAndWait(bob);
    await daemon.finishTurn(sessionId, "long job done");
    await waitFor(() => daemon.prompts(sessionId).length === 4, "Bob's queued message forwarded");
    await waitKinds(devices[BOB]!, ["permission", "turn_ended", "turn_failed", "turn_ended", "queued_started"], "Bob hears his message started");
    expect((await received(devices[BOB]!)).at(-1)).toMatchObject({ kind: "queued_started", body: "then update the changelog" });
    await waitKinds(devices[CAROL]!, ["turn_ended", "turn_failed", "turn_ended"], "Carol is not told about Bob's message");

    // Bob stops the running turn (his own message) and leaves: he is not told it ended; Carol is.
    const bob2 = await AuthedViewer.open(sessionId, await asUser(BOB));
    expect(await bob2.op({ op: "turn.cancel" })).toMatchObject({ result: { outcome: "cancelled" } });
    await closeAndWait(bob2);
    await daemon.finishTurn(sessionId, "", "cancelled");
    await waitKinds(devices[CAROL]!, ["turn_ended", "turn_failed", "turn_ended", "turn_ended"], "Carol hears it was stopped");
    expect((await received(devices[CAROL]!)).at(-1)).toMatchObject({ title: "Stopped by bob · run the tests" });
    // A later event Bob does get shows his socket was gone when the stopped turn ended.
    expect(await owner.op({ op: "message.send", id: "m4", blocks: text("next") })).toMatchObject({ type: "ack" });
    await waitFor(() => daemon.prompts(sessionId).length === 5, "prompt");
    daemon.emit({ t: "turn.ended", sessionId, turnId: daemon.prompts(sessionId).at(-1)!.turnId, stopReason: "error", error: "boom" });
    await daemon.settle();
    await waitKinds(devices[BOB]!, ["permission", "turn_ended", "turn_failed", "turn_ended", "queued_started", "turn_failed"], "Bob: no push for the turn he stopped");
  });

  it("event choices and session mutes are respected", async () => {
    const bobH = await asUser(BOB);
    const prefs = await call("/api/push/preferences", { headers: bobH });
    expect(prefs.body).toEqual({ events: { permission: true, turn_ended: true, turn_failed: true, machine_offline: true, queued_started: true }, mutedSessions: [] });
    expect(
      (await call("/api/push/preferences", { method: "PUT", headers: bobH, body: JSON.stringify({ ...prefs.body, events: { ...prefs.body.events, turn_ended: false } }) })).body.events.turn_ended,
    ).toBe(false);
    expect(await call(`/api/sessions/${sessionId}/push-mute`, { method: "PUT", headers: await asUser(CAROL), body: JSON.stringify({ muted: true }) })).toMatchObject({ status: 200, body: { muted: true } });
    expect((await call("/api/push/preferences", { headers: await asUser(CAROL) })).body.mutedSessions).toEqual([sessionId]);
    expect((await call("/api/sessions/nope/push-mute", { method: "PUT", headers: bobH, body: JSON.stringify({ muted: true }) })).status).toBe(404);

    const before = { bob: (await kinds(devices[BOB]!)).length, carol: (await kinds(devices[CAROL]!)).length };
    expect(await owner.op({ op: "message.send", id: "m5", blocks: text("quiet") })).toMatchObject({ type: "ack" });
    await waitFor(() => daemon.prompts(sessionId).length === 6, "prompt");
    await daemon.finishTurn(sessionId, "done quietly");
    // Then an event Bob still wants: it arrives, the turn_ended before it did not.
    expect(await owner.op({ op: "message.send", id: "m6", blocks: text("fail") })).toMatchObject({ type: "ack" });
    await waitFor(() => daemon.prompts(sessionId).length === 7, "prompt");
    daemon.emit({ t: "turn.ended", sessionId, turnId: daemon.prompts(sessionId).at(-1)!.turnId, stopReason: "error", error: "boom" });
    await daemon.settle();
    await until(async () => (await kinds(devices[BOB]!)).length > before.bob, "Bob's next push");
    expect((await kinds(devices[BOB]!)).slice(before.bob)).toEqual(["turn_failed"]);
    expect((await kinds(devices[CAROL]!)).length).toBe(before.carol);
    await call(`/api/sessions/${sessionId}/push-mute`, { method: "PUT", headers: await asUser(CAROL), body: JSON.stringify({ muted: false }) });
  });

  it("the machine going offline mid-turn reaches followers; the watching member and the owner never got anything", async () => {
    const carolBefore = (await kinds(devices[CAROL]!)).length;
    expect(await owner.op({ op: "message.send", id: "m7", blocks: text("big refactor") })).toMatchObject({ type: "ack" });
    await waitFor(() => daemon.prompts(sessionId).length === 8, "prompt");
    daemon.close();
    await until(async () => (await kinds(devices[CAROL]!)).length > carolBefore, "Carol's push");
    expect((await received(devices[CAROL]!)).at(-1)).toMatchObject({ kind: "machine_offline", title: "Machine offline · run the tests" });
    expect(await kinds(devices[DAVE]!)).toEqual([]);
    expect(await kinds(devices[OWNER]!)).toEqual([]);
  });

  it("a subscription the push service calls gone (410) is removed; the same endpoint posted again is refreshed, not duplicated", async () => {
    const count = async (endpoint: string) => (await env.DB.prepare("SELECT COUNT(*) AS n FROM push_subscriptions WHERE endpoint = ?").bind(endpoint).first<{ n: number }>())!.n;
    const bob = devices[BOB]!;
    const row = await env.DB.prepare("SELECT id, refreshed_at AS r FROM push_subscriptions WHERE endpoint = ?").bind(bob.endpoint).first<{ id: string; r: number }>();
    const keys = await env.DB.prepare("SELECT p256dh, auth FROM push_subscriptions WHERE endpoint = ?").bind(bob.endpoint).first<{ p256dh: string; auth: string }>();
    const again = await call<{ id: string }>("/api/push/subscriptions", { method: "POST", headers: await asUser(BOB), body: JSON.stringify({ endpoint: bob.endpoint, keys }) });
    expect(again.body.id).toBe(row!.id);
    expect(await count(bob.endpoint)).toBe(1);
    const refreshed = await env.DB.prepare("SELECT refreshed_at AS r FROM push_subscriptions WHERE endpoint = ?").bind(bob.endpoint).first<{ r: number }>();
    expect(refreshed!.r).toBeGreaterThanOrEqual(row!.r);
    expect((await fetch(`${SERVICE}/expire-subscription/${bob.clientHash}`, { method: "POST" })).status).toBe(200);
    // The daemon comes back (a new process): the running turn was lost → turn_failed to Bob → 410.
    daemon = new TestDaemon(token);
    await daemon.connect();
    await until(async () => (await count(bob.endpoint)) === 0, "Bob's gone subscription removed");
    expect(await count(devices[CAROL]!.endpoint)).toBe(1);
  });
});
