/**
 * A guest (an invited-only account, AUTH_MODE=builtin) and the session list (issue 26): it lists and
 * follows the sessions it was given, renames and archives those it can write, deletes none it does not own.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SessionFeedFrame } from "../../shared/session-list";
import { call, signInByCode } from "./auth-harness";
import { ORIGIN, TestDaemon, waitFor } from "./harness";

const signIn = (email: string) => signInByCode(email, "203.0.113");

describe("a guest's session list", () => {
  it("lists and follows its sessions; renames and archives as a member; cannot delete or reach others' sessions", async () => {
    const alice = await signIn("alice@example.com");
    const pair = await call<{ machine: { id: string }; token: string }>("/api/machines", { method: "POST", headers: alice, body: "{}" });
    const daemon = new TestDaemon(pair.body.token);
    await daemon.connect();
    const start = async () =>
      (await call<{ session: { id: string } }>("/api/sessions", { method: "POST", headers: alice, body: JSON.stringify({ machineId: pair.body.machine.id, agentId: "demo", cwd: "/work" }) })).body
        .session.id;
    const shared = await start();
    const privateOne = await start();
    expect((await call(`/api/sessions/${shared}/members`, { method: "POST", headers: alice, body: JSON.stringify({ email: "greta@elsewhere.example", role: "member" }) })).status).toBe(201);
    const guest = await signIn("greta@elsewhere.example");
    expect((await call<{ scope: string }>("/api/me", { headers: guest })).body.scope).toBe("guest");

    const page = await call<{ sessions: { id: string; role: string; unread: boolean }[] }>("/api/sessions", { headers: guest });
    expect(page.body.sessions.map((s) => [s.id, s.role, s.unread])).toEqual([[shared, "member", true]]);

    const res = await exports.default.fetch(`${ORIGIN}/api/sessions/feed`, { headers: { Upgrade: "websocket", Origin: ORIGIN, ...guest } });
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    ws.accept();
    const frames: SessionFeedFrame[] = [];
    ws.addEventListener("message", (e) => void frames.push(SessionFeedFrame.parse(JSON.parse(e.data as string))));

    expect((await call(`/api/sessions/${shared}`, { method: "PATCH", headers: guest, body: JSON.stringify({ title: "Guest's name" }) })).status).toBe(200);
    expect((await call(`/api/sessions/${shared}`, { method: "PATCH", headers: guest, body: JSON.stringify({ archived: true }) })).status).toBe(200);
    await waitFor(() => frames.some((f) => f.type === "upsert" && f.item.customTitle === "Guest's name" && f.item.archivedAt !== null), "the guest's own change on its feed");
    expect(await call(`/api/sessions/${shared}`, { method: "DELETE", headers: guest })).toMatchObject({ status: 403, body: { error: { code: "FORBIDDEN" } } });
    expect((await call(`/api/sessions/${privateOne}`, { method: "PATCH", headers: guest, body: JSON.stringify({ title: "x" }) })).status).toBe(404);
    expect((await call(`/api/sessions/${privateOne}`, { method: "DELETE", headers: guest })).status).toBe(404);
    const bulk = await call<{ archived: string[]; skipped: { id: string; reason: string }[] }>("/api/sessions/archive", { method: "POST", headers: guest, body: JSON.stringify({ ids: [privateOne] }) });
    expect(bulk.body).toEqual({ archived: [], skipped: [{ id: privateOne, reason: "not found" }] });
    // The owner's session is untouched by all of it.
    const owners = await call<{ sessions: { id: string; customTitle: string | null; archivedAt: number | null }[] }>("/api/sessions?archived=all", { headers: alice });
    expect(owners.body.sessions.find((s) => s.id === privateOne)).toMatchObject({ customTitle: null, archivedAt: null });
    expect(frames.some((f) => f.type === "upsert" && f.item.id === privateOne)).toBe(false);
    ws.close(1000, "bye");
  });
});
