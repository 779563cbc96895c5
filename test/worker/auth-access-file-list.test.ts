/**
 * Issue 29 #3 in workerd: `GET /api/sessions/:id/files` — who may list a session's files (owner and member;
 * a viewer is refused, a stranger sees no session), that the daemon is asked about the session's own directory
 * (never one the viewer names), and what an offline machine, a silent one and a long query get.
 */
import { describe, expect, it } from "vitest";
import type { MachineFrame } from "../../shared/tunnel-protocol";
import { asUser, call } from "./auth-harness";
import { TestDaemon, waitFor } from "./harness";

const OWNER = "files-owner@example.com";
const MEMBER = "files-member@example.com";
const VIEWER = "files-viewer@example.com";
const STRANGER = "files-stranger@example.com";

type Ask = Extract<MachineFrame, { type: "ask" }>;

async function start() {
  const owner = await asUser(OWNER);
  const pair = await call<{ machine: { id: string }; token: string }>("/api/machines", { method: "POST", headers: owner, body: JSON.stringify({ name: "laptop" }) });
  const daemon = new TestDaemon(pair.body.token);
  await daemon.connect();
  const created = await call<{ session: { id: string } }>("/api/sessions", { method: "POST", headers: owner, body: JSON.stringify({ machineId: pair.body.machine.id, agentId: "demo", cwd: "/work" }) });
  const sessionId = created.body.session.id;
  await waitFor(() => daemon.of("session.open").some((c) => c.sessionId === sessionId), "session.open");
  await daemon.settle();
  for (const [email, role] of [[MEMBER, "member"], [VIEWER, "viewer"]] as const)
    expect((await call(`/api/sessions/${sessionId}/members`, { method: "POST", headers: owner, body: JSON.stringify({ email, role }) })).status).toBe(201);
  const asks: Ask[] = [];
  let silent = false;
  daemon.ws.addEventListener("message", (e) => {
    const f = JSON.parse(e.data as string) as MachineFrame;
    if (f.type !== "ask") return;
    asks.push(f);
    if (!silent) daemon.ws.send(JSON.stringify({ type: "reply", id: f.id, ok: true, result: { root: "/work", files: ["src/app.ts"], truncated: false } }));
  });
  return { sessionId, daemon, asks, owner, beSilent: () => (silent = true) };
}

describe("the session's files for the @ picker", () => {
  it("owner and member get the daemon's list for the session's own directory; a viewer is refused, a stranger sees no session", async () => {
    const s = await start();
    const files = (email: string, q = "app") => asUser(email).then((h) => call(`/api/sessions/${s.sessionId}/files?q=${encodeURIComponent(q)}&cwd=/etc`, { headers: h }));
    const own = await files(OWNER);
    expect(own).toMatchObject({ status: 200, body: { root: "/work", files: ["src/app.ts"], truncated: false } });
    expect(s.asks.at(-1)!.request).toEqual({ kind: "files.list", cwd: "/work", query: "app" });
    expect((await files(MEMBER)).status).toBe(200);
    const asked = s.asks.length;
    expect(await files(VIEWER)).toMatchObject({ status: 403, body: { error: { code: "FORBIDDEN" } } });
    expect(await files(STRANGER)).toMatchObject({ status: 404 });
    expect(await files(OWNER, "x".repeat(300))).toMatchObject({ status: 400 });
    // None of the refused ones reached the machine.
    expect(s.asks.length).toBe(asked);
  });

  it("a machine that does not answer is a 504 ASK_TIMEOUT; an offline one a 409 MACHINE_OFFLINE", { timeout: 20_000 }, async () => {
    const s = await start();
    s.beSilent();
    expect(await call(`/api/sessions/${s.sessionId}/files?q=`, { headers: s.owner })).toMatchObject({ status: 504, body: { error: { code: "ASK_TIMEOUT" } } });
    s.daemon.close();
    let out = await call(`/api/sessions/${s.sessionId}/files?q=`, { headers: s.owner });
    for (let i = 0; i < 100 && out.status !== 409; i++) {
      await new Promise((r) => setTimeout(r, 20));
      out = await call(`/api/sessions/${s.sessionId}/files?q=`, { headers: s.owner });
    }
    expect(out).toMatchObject({ status: 409, body: { error: { code: "MACHINE_OFFLINE" } } });
  });
});
