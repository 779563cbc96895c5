import { describe, expect, it } from "vitest";
import { api, ORIGIN, setupSession } from "./harness";

describe("HTTP and upgrade guards", () => {
  it("refuses a cross-site WebSocket, an unknown session and a plain GET on the socket path", async () => {
    const { sessionId } = await setupSession();
    const foreign = await api(`/api/sessions/${sessionId}/ws`, { headers: { Upgrade: "websocket", Origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ error: { code: "BAD_ORIGIN" } });
    const missing = await api(`/api/sessions/nope/ws`, { headers: { Upgrade: "websocket", Origin: ORIGIN } });
    expect(missing.status).toBe(404);
    const plain = await api(`/api/sessions/${sessionId}/ws`);
    expect(plain.status).toBe(426);
  });

  it("validates session creation", async () => {
    const { machineId } = await setupSession();
    const bad = await api("/api/sessions", { method: "POST", body: "{" });
    expect(bad.status).toBe(400);
    const unknownAgent = await api("/api/sessions", {
      method: "POST",
      body: JSON.stringify({ machineId, agentId: "claude", cwd: "/work" }),
    });
    expect(unknownAgent.status).toBe(400);
    // The scripted daemon advertises the root /work: a directory elsewhere is refused before anything starts.
    for (const cwd of ["/tmp", "/workbench", "/work/../etc"]) {
      const outside = await api("/api/sessions", { method: "POST", body: JSON.stringify({ machineId, agentId: "demo", cwd }) });
      expect(outside.status).toBe(400);
      expect(outside.body).toMatchObject({ error: { code: "CWD_OUTSIDE_ROOTS" } });
    }
    const inside = await api("/api/sessions", { method: "POST", body: JSON.stringify({ machineId, agentId: "demo", cwd: "/work/app" }) });
    expect(inside.status).toBe(201);
    const noMachine = await api("/api/sessions", { method: "POST", body: JSON.stringify({ machineId: "x", agentId: "demo", cwd: "/w" }) });
    expect(noMachine.status).toBe(404);
    const list = await api<{ sessions: unknown[] }>("/api/sessions");
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body.sessions)).toBe(true);
  });
});
