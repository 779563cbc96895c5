import { Hono } from "hono";
import { DurableObject } from "cloudflare:workers";
export interface Env { SESSION_ROOM: DurableObjectNamespace; MACHINE: DurableObjectNamespace; DB: D1Database; AUTH_MODE: string }
export class SessionRoom extends DurableObject<Env> { async fetch() { return new Response("room"); } }
export class Machine extends DurableObject<Env> { }
const app = new Hono<{ Bindings: Env }>();
app.get("/api/health", (c) => c.json({ ok: true }));
export default app;
