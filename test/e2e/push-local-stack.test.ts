/**
 * Web Push on the local stack (`npm start`'s own path: wrangler dev, dev VAPID keys made by
 * scripts/dev-stack.mjs, the daemon with the demo agent) against a real Web Push service
 * (web-push-testing on loopback): the demo agent's events reach a device whose tab is closed, decrypted
 * by the service; Approve from the notification answers the agent; a second answer hears who answered.
 */
import { describe, expect, it } from "vitest";
import { PushPayload } from "../../shared/push-api";
import { type PushService, startPushService } from "../push-service";
import { useStack } from "./file-stack";
import { NodeViewer, openIdleSession, text, waitFor } from "./support";

describe("push on the local stack with the demo agent", () => {
  let service: PushService;
  const e2e = useStack({
    async setup() {
      service = await startPushService();
    },
    cleanup: async () => {
      await service?.stop();
    },
  });

  async function received(clientHash: string): Promise<PushPayload[]> {
    const r = await fetch(`${service.origin}/get-notifications`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ clientHash }) });
    const { data } = (await r.json()) as { data: { messages: string[] } };
    return data.messages.map((m) => PushPayload.parse(JSON.parse(m)));
  }

  it("a closed tab is told its queued message started, asked for approval, and Approve works from the notification", async () => {
    const config = (await (await fetch(`${e2e.stack.url}/api/push/config`)).json()) as { publicKey: string | null };
    expect(config.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const sub = await fetch(`${service.origin}/subscribe`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userVisibleOnly: "true", applicationServerKey: config.publicKey }) });
    const { data: device } = (await sub.json()) as { data: { endpoint: string; keys: { p256dh: string; auth: string }; clientHash: string } };
    const saved = await fetch(`${e2e.stack.url}/api/push/subscriptions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ endpoint: device.endpoint, keys: device.keys }) });
    expect(saved.status).toBe(201);

    const { sessionId, v } = await openIdleSession(e2e.stack.url);
    // A long turn, the permission prompt queued behind it, then the tab closes.
    expect(await v.op({ op: "message.send", id: "s1", blocks: text("sleep 4") })).toMatchObject({ result: { queued: false } });
    expect(await v.op({ op: "message.send", id: "s2", blocks: text("permission") })).toMatchObject({ result: { queued: true } });
    await v.closed();

    const asked = await waitFor(async () => (await received(device.clientHash)).find((p) => p.kind === "permission"), "the permission push", 60_000);
    // Each push is its own request to the push service: the turn's end and the queued message's start leave the
    // room together and may arrive either way round.
    expect((await received(device.clientHash)).map((p) => p.kind).sort()).toEqual(["permission", "queued_started", "turn_ended"]);
    expect(asked).toMatchObject({ sessionId, title: "Approval needed · sleep 4", body: "Run rm -rf build/", url: `/s/${sessionId}` });
    const approve = asked.permission!.actions.find((a) => a.action === "approve")!;
    expect(approve).toEqual({ action: "approve", optionId: "allow_once", title: "Approve" });

    const answer = (optionId: string) =>
      fetch(`${e2e.stack.url}/api/push/action`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ sessionId, requestId: asked.permission!.requestId, optionId }) });
    const first = await answer(approve.optionId);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true });
    const late = await answer("reject_once");
    expect(late.status).toBe(409);
    expect(await late.json()).toEqual({ error: "ALREADY_ANSWERED", by: "Developer" });

    // The agent got the answer: its turn ends with it, and the closed tab hears that too.
    const ended = await waitFor(async () => (await received(device.clientHash)).filter((p) => p.kind === "turn_ended")[1], "the second turn's end", 30_000);
    expect(ended.body).toBe("You chose allow_once (Allow once). Pretending to run it.");
    // Anyone opening the session sees it resolved by whoever answered.
    const later = await new NodeViewer(e2e.stack.url, sessionId).open();
    expect(later.ofKind("permission_resolved")).toMatchObject([{ outcome: "selected", optionId: "allow_once", by: { name: "Developer" } }]);
    later.close();
  });
});
