/**
 * AUTH_MODE=dev guards and per-connection limits: the dev identity exists only on loopback hosts
 * (a mistaken deploy is closed), foreign pages cannot write, the machine token is accepted only in
 * its header, and a viewer socket is rate limited and size limited without being dropped.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_PROMPT_BYTES, MAX_VIEWER_FRAME_BYTES, RATE_BURST, RATE_NOTICE_WINDOW_MS } from "../../shared/limits";
import { TUNNEL_TOKEN_HEADER } from "../../shared/tunnel-protocol";
import { api, setupSession, TestViewer, text, waitFor } from "./harness";

describe("dev identity", () => {
  it("is granted on loopback hosts only", async () => {
    for (const host of ["http://localhost", "http://127.0.0.1:8787"]) {
      expect((await exports.default.fetch(`${host}/api/me`)).status, host).toBe(200);
    }
    for (const host of ["https://baton.example.com", "http://192.168.1.20:8787", "http://localhost.evil.example"]) {
      expect((await exports.default.fetch(`${host}/api/me`)).status, host).toBe(401);
      expect((await exports.default.fetch(`${host}/api/dev/pair`, { method: "POST", body: "{}" })).status, host).toBe(401);
      expect((await exports.default.fetch(`${host}/api/sessions/x/ws`, { headers: { Upgrade: "websocket" } })).status, host).toBe(401);
    }
  });

  it("refuses writes from a foreign page (local CSRF) but not from local scripts", async () => {
    const foreign = await api("/api/machines", { method: "POST", headers: { Origin: "https://evil.example" }, body: "{}" });
    expect(foreign.status).toBe(403);
    const script = await api("/api/machines", { method: "POST", body: "{}" });
    expect(script.status).toBe(201);
  });

  it("the builtin sign-in routes are absent in dev mode", async () => {
    const r = await api("/api/auth/code", { method: "POST", headers: { Origin: "http://localhost" }, body: JSON.stringify({ email: "a@b.co" }) });
    expect(r.status).toBe(404);
    expect((await api("/api/auth/config")).body).toEqual({ mode: "dev" });
  });
});

describe("machine token", () => {
  it("is only accepted in its header, never from the URL", async () => {
    const { token } = await setupSession();
    const inUrl = await exports.default.fetch(`http://localhost/api/tunnel?token=${encodeURIComponent(token)}`, { headers: { Upgrade: "websocket" } });
    expect(inUrl.status).toBe(401);
    const wrong = await exports.default.fetch("http://localhost/api/tunnel", { headers: { Upgrade: "websocket", [TUNNEL_TOKEN_HEADER]: `${token}x` } });
    expect(wrong.status).toBe(401);
  });
});

describe("viewer socket limits", () => {
  it("rate limits a flood of frames on one connection and keeps serving it afterwards", async () => {
    const { sessionId } = await setupSession();
    const v = await TestViewer.open(sessionId);
    const n = RATE_BURST * 2;
    for (let i = 0; i < n; i++) v.raw(JSON.stringify({ op: "queue.cancel", rid: `flood-${i}`, id: `nope-${i}` }));
    // Over the limit: one RATE_LIMITED (no rid: the frame is not parsed) per window, the rest dropped.
    await v.drained(RATE_NOTICE_WINDOW_MS);
    const acked = v.frames.filter((f) => f.type === "ack" && String(f.rid).startsWith("flood-")).length;
    const limited = v.frames.filter((f) => f.type === "error" && f.code === "RATE_LIMITED");
    expect(acked).toBeGreaterThanOrEqual(RATE_BURST);
    expect(acked).toBeLessThan(n);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited.every((f) => f.type === "error" && f.rid === null)).toBe(true);
    // A second connection has its own bucket.
    const other = await TestViewer.open(sessionId);
    expect(await other.op({ op: "queue.cancel", id: "fresh" })).toMatchObject({ type: "ack" });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await v.op({ op: "queue.cancel", id: "later" })).toMatchObject({ type: "ack" });
    v.close();
    other.close();
  });

  it("refuses oversized frames and prompts with an error frame, not a dropped socket", async () => {
    const { sessionId, daemon } = await setupSession();
    const v = await TestViewer.open(sessionId);
    v.raw("x".repeat(MAX_VIEWER_FRAME_BYTES + 1));
    await waitFor(() => v.frames.some((f) => f.type === "error" && f.code === "FRAME_TOO_LARGE"), "FRAME_TOO_LARGE");
    const big = await v.op({ op: "message.send", id: "big-1", blocks: text("y".repeat(MAX_PROMPT_BYTES + 1)) });
    expect(big).toMatchObject({ type: "error", code: "PROMPT_TOO_LARGE" });
    expect(daemon.prompts(sessionId)).toHaveLength(0);
    expect(await v.op({ op: "message.send", id: "ok-1", blocks: text("small") })).toMatchObject({ type: "ack" });
    v.close();
  });
});
