/**
 * Search and export by role (AUTH_MODE=access, real Access JWTs): every role that can see the session
 * may search it and download its Markdown; anyone else gets 404 (the session's existence is not told).
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { asUser, AuthedViewer, call } from "./auth-harness";
import { ORIGIN, TestDaemon, text, waitFor } from "./harness";

const OWNER = "search-owner@example.com";
const VIEWER = "search-viewer@example.com";
const STRANGER = "search-stranger@example.com";

async function ownerSessionWithTurn() {
  const h = await asUser(OWNER);
  const pair = await call<{ machine: { id: string }; token: string }>("/api/machines", { method: "POST", headers: h, body: JSON.stringify({ name: "laptop" }) });
  const daemon = new TestDaemon(pair.body.token);
  await daemon.connect();
  const created = await call<{ session: { id: string } }>("/api/sessions", { method: "POST", headers: h, body: JSON.stringify({ machineId: pair.body.machine.id, agentId: "demo", cwd: "/work" }) });
  const sessionId = created.body.session.id;
  await waitFor(() => daemon.of("session.open").some((c) => c.sessionId === sessionId), "session.open");
  await daemon.settle();
  const owner = await AuthedViewer.open(sessionId, h);
  expect(await owner.op({ op: "message.send", id: "m-1", blocks: text("find the pelican please") })).toMatchObject({ type: "ack" });
  await waitFor(() => daemon.prompts(sessionId).length > 0, "prompt");
  await daemon.finishTurn(sessionId, "The pelican is in `birds.ts`.");
  owner.ws.close();
  return { sessionId };
}

const exportOf = async (sessionId: string, headers: Record<string, string>) =>
  exports.default.fetch(`${ORIGIN}/api/sessions/${sessionId}/export.md`, { headers });

describe("search and export by role (access)", () => {
  it("owner and viewer search and export; a stranger gets 404 on the export and no socket to search on", async () => {
    const { sessionId } = await ownerSessionWithTurn();
    const owner = await asUser(OWNER);
    expect((await call(`/api/sessions/${sessionId}/members`, { method: "POST", headers: owner, body: JSON.stringify({ email: VIEWER, role: "viewer" }) })).status).toBe(201);

    const viewer = await asUser(VIEWER);
    const v = await AuthedViewer.open(sessionId, viewer);
    expect(v.welcome()?.viewer.role).toBe("viewer");
    const found = await v.op({ op: "history.search", query: "pelican" });
    expect(found).toMatchObject({ type: "ack", result: { hits: [{ kind: "agent" }, { kind: "user", label: "search-owner" }], continueBefore: null } });
    v.ws.close();

    for (const headers of [owner, viewer]) {
      const res = await exportOf(sessionId, headers);
      expect(res.status).toBe(200);
      const md = await res.text();
      expect(md).toContain("find the pelican please");
      expect(md).toContain("The pelican is in `birds.ts`.");
    }

    const stranger = await asUser(STRANGER);
    const denied = await exportOf(sessionId, stranger);
    expect(denied.status).toBe(404);
    expect(await denied.text()).not.toContain("pelican");
    expect((await AuthedViewer.upgrade(sessionId, stranger)).status).toBe(404);
    // No identity at all: 401.
    expect((await exportOf(sessionId, {})).status).toBe(401);
  });
});
