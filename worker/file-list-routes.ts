/**
 * The Sender's "@" picker (issue 29 #3): `GET /api/sessions/:id/files?q=` lists the files under the session's
 * directory that match `q`, answered by the daemon (Machine.ask `files.list`, daemon/src/files/file-list.ts).
 * Only those who may prompt the session (owner, member) may list its files; the directory is the session's own,
 * never the viewer's say. Mounted under /api/sessions after the identity middleware.
 */
import { Hono } from "hono";
import type { AccountScope } from "../shared/api";
import { FILE_LIST_ASK_TIMEOUT_MS } from "../shared/limits";
import { MAX_FILE_QUERY_LENGTH } from "../shared/tunnel-ask";
import { ask, askRefusal } from "./agent-session-routes";
import { apiError } from "./api-error";
import { getMachine, sessionAccess, type User } from "./d1-directory";
import type { Env } from "./env";

type RouteEnv = { Bindings: Env; Variables: { user: User; scope: AccountScope } };
export const fileListRoutes = new Hono<RouteEnv>();

fileListRoutes.get("/:id/files", async (c) => {
  const q = c.req.query("q") ?? "";
  if (q.length > MAX_FILE_QUERY_LENGTH) return apiError(c, 400, "BAD_REQUEST", `the query is longer than ${MAX_FILE_QUERY_LENGTH} characters`);
  const m = await sessionAccess(c.env.DB, c.req.param("id"), c.get("user").id);
  if (!m) return apiError(c, 404, "NOT_FOUND", "no such session");
  if (m.role === "viewer") return apiError(c, 403, "FORBIDDEN", "viewers cannot list the session's files");
  const machine = await getMachine(c.env.DB, m.session.machineId);
  if (!machine || machine.revoked || !machine.online) return apiError(c, 409, "MACHINE_OFFLINE", `${m.session.machineName} is offline`);
  const out = await ask(c.env, machine.id, { kind: "files.list", cwd: m.session.cwd, query: q }, FILE_LIST_ASK_TIMEOUT_MS);
  if (!out.ok) {
    const r = askRefusal(out);
    return apiError(c, r.status, r.code, r.message);
  }
  return c.json(out.result);
});
