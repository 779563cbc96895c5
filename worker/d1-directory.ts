/** The D1 directory: users, machines (hashed tokens), sessions and members. */
import type { MachineSummary, SessionSummary } from "../shared/api";
import type { AgentInfo } from "../shared/tunnel-protocol";
import type { SessionState } from "../shared/viewer-protocol";
import { SessionWorktree } from "../shared/worktree";

export type User = { id: string; email: string; name: string };
export type Role = "owner" | "member" | "viewer";

type MachineRow = {
  id: string;
  owner_id: string;
  name: string;
  hostname: string | null;
  agents_json: string;
  roots_json: string;
  online: number;
  last_seen_at: number | null;
  revoked_at: number | null;
  daemon_version?: string | null;
  protocol_version?: number | null;
};

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** 32 random bytes, base64url: the machine token shown once at pairing. */
export function newSecret(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return prefix + btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export async function upsertUser(db: D1Database, email: string, name: string): Promise<User> {
  const existing = await db.prepare("SELECT id, email, name FROM users WHERE email = ?").bind(email).first<User>();
  if (existing) return existing;
  const user = { id: crypto.randomUUID(), email, name };
  await db
    .prepare("INSERT INTO users (id, email, name, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(email) DO NOTHING")
    .bind(user.id, email, name, Date.now())
    .run();
  return (await db.prepare("SELECT id, email, name FROM users WHERE email = ?").bind(email).first<User>())!;
}

function machineSummary(r: MachineRow): MachineSummary {
  return {
    id: r.id,
    name: r.name,
    online: r.online === 1,
    hostname: r.hostname,
    agents: JSON.parse(r.agents_json) as AgentInfo[],
    roots: JSON.parse(r.roots_json) as string[],
    lastSeenAt: r.last_seen_at,
    daemonVersion: r.daemon_version ?? null,
    protocolVersion: r.protocol_version ?? null,
  };
}

export async function createMachine(db: D1Database, ownerId: string, name: string): Promise<{ machine: MachineSummary; token: string }> {
  const id = crypto.randomUUID();
  const token = newSecret("bt_");
  await db
    .prepare("INSERT INTO machines (id, owner_id, name, token_hash, created_at) VALUES (?, ?, ?, ?, ?)")
    .bind(id, ownerId, name, await sha256Hex(token), Date.now())
    .run();
  const row = await db.prepare("SELECT * FROM machines WHERE id = ?").bind(id).first<MachineRow>();
  return { machine: machineSummary(row!), token };
}

export async function listMachines(db: D1Database, ownerId: string): Promise<MachineSummary[]> {
  const { results } = await db
    .prepare("SELECT * FROM machines WHERE owner_id = ? AND revoked_at IS NULL ORDER BY created_at")
    .bind(ownerId)
    .all<MachineRow>();
  return results.map(machineSummary);
}

export async function getMachine(db: D1Database, id: string): Promise<(MachineSummary & { ownerId: string; revoked: boolean }) | null> {
  const r = await db.prepare("SELECT * FROM machines WHERE id = ?").bind(id).first<MachineRow>();
  return r ? { ...machineSummary(r), ownerId: r.owner_id, revoked: r.revoked_at !== null } : null;
}

/** The machine a tunnel token belongs to, or null when unknown or revoked. */
export async function machineForToken(db: D1Database, token: string): Promise<{ id: string } | null> {
  return db
    .prepare("SELECT id FROM machines WHERE token_hash = ? AND revoked_at IS NULL")
    .bind(await sha256Hex(token))
    .first<{ id: string }>();
}

export async function revokeMachine(db: D1Database, id: string): Promise<void> {
  await db.prepare("UPDATE machines SET revoked_at = ?, online = 0 WHERE id = ?").bind(Date.now(), id).run();
}

const SESSION_SELECT = `SELECT s.id, s.title, s.machine_id AS machineId, m.name AS machineName, s.agent_id AS agentId,
  m.agents_json AS agentsJson, s.cwd, s.status, m.online AS machineOnline, s.created_at AS createdAt,
  s.last_activity_at AS lastActivityAt, s.first_prompt AS firstPrompt, s.agent_title AS agentTitle,
  s.worktree_json AS worktreeJson
  FROM sessions s JOIN machines m ON m.id = s.machine_id`;

type SessionRow = Omit<SessionSummary, "agentLabel" | "worktree"> & { agentsJson: string; machineOnline: number; worktreeJson: string | null };

function sessionSummary(r: SessionRow): SessionSummary {
  const agents = JSON.parse(r.agentsJson) as AgentInfo[];
  const { agentsJson: _a, machineOnline, worktreeJson, ...rest } = r;
  return {
    ...rest,
    worktree: worktreeOf(worktreeJson),
    status: machineOnline ? r.status : "offline",
    agentLabel: agents.find((a) => a.id === r.agentId)?.label ?? r.agentId,
  };
}

/** The stored worktree JSON read back (a row from before issue 28, or unreadable: none). */
export function worktreeOf(json: string | null): SessionWorktree | null {
  if (!json) return null;
  try {
    const parsed = SessionWorktree.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function getSession(db: D1Database, id: string): Promise<(SessionSummary & { ownerId: string }) | null> {
  const r = await db
    .prepare(`${SESSION_SELECT.replace("SELECT s.id,", "SELECT s.owner_id AS ownerId, s.id,")} WHERE s.id = ?`)
    .bind(id)
    .first<SessionRow & { ownerId: string }>();
  if (!r) return null;
  const { ownerId, ...row } = r;
  return { ...sessionSummary(row), ownerId };
}

export async function createSession(
  db: D1Database,
  s: { id: string; ownerId: string; machineId: string; agentId: string; cwd: string; title: string; worktree?: SessionWorktree | null },
): Promise<void> {
  const now = Date.now();
  await db.batch([
    db
      .prepare(
        "INSERT INTO sessions (id, owner_id, machine_id, agent_id, cwd, title, status, created_at, last_activity_at, worktree_json) VALUES (?, ?, ?, ?, ?, ?, 'starting', ?, ?, ?)",
      )
      .bind(s.id, s.ownerId, s.machineId, s.agentId, s.cwd, s.title, now, now, s.worktree ? JSON.stringify(s.worktree) : null),
    // The owner has seen what it just created (not "new since you looked" in its own list).
    db.prepare("INSERT INTO session_members (session_id, user_id, role, seen_at) VALUES (?, ?, 'owner', ?)").bind(s.id, s.ownerId, now),
  ]);
}

export async function sessionRole(db: D1Database, sessionId: string, userId: string): Promise<Role | null> {
  const r = await db
    .prepare("SELECT role FROM session_members WHERE session_id = ? AND user_id = ?")
    .bind(sessionId, userId)
    .first<{ role: Role }>();
  return r?.role ?? null;
}

/** The session and the user's role in it (the owner's is "owner"), or null when they have no access. */
export async function sessionAccess(
  db: D1Database,
  sessionId: string,
  userId: string,
): Promise<{ session: SessionSummary & { ownerId: string }; role: Role } | null> {
  const session = await getSession(db, sessionId);
  if (!session) return null;
  const role = session.ownerId === userId ? "owner" : await sessionRole(db, sessionId, userId);
  return role ? { session, role } : null;
}

export async function setMember(db: D1Database, sessionId: string, userId: string, role: Role): Promise<void> {
  await db
    .prepare("INSERT INTO session_members (session_id, user_id, role) VALUES (?, ?, ?) ON CONFLICT(session_id, user_id) DO UPDATE SET role = excluded.role")
    .bind(sessionId, userId, role)
    .run();
}

export type Member = { userId: string; email: string; name: string; role: Role };

/** Everyone with access to a session, the owner first. */
export async function listMembers(db: D1Database, sessionId: string, ownerId: string): Promise<Member[]> {
  const { results } = await db
    .prepare(
      `SELECT u.id AS userId, u.email, u.name, CASE WHEN u.id = ?2 THEN 'owner' ELSE m.role END AS role
       FROM session_members m JOIN users u ON u.id = m.user_id WHERE m.session_id = ?1
       ORDER BY (u.id = ?2) DESC, u.email`,
    )
    .bind(sessionId, ownerId)
    .all<Member>();
  return results;
}

export async function removeMember(db: D1Database, sessionId: string, userId: string): Promise<boolean> {
  const r = await db.prepare("DELETE FROM session_members WHERE session_id = ? AND user_id = ?").bind(sessionId, userId).run();
  return r.meta.changes > 0;
}

/** Builtin sign-in admits invited users: anyone who is a member of at least one session. */
export async function isInvited(db: D1Database, email: string): Promise<boolean> {
  const r = await db
    .prepare("SELECT 1 AS ok FROM users u JOIN session_members m ON m.user_id = u.id WHERE u.email = ? LIMIT 1")
    .bind(email)
    .first<{ ok: number }>();
  return r !== null;
}

export async function getUser(db: D1Database, id: string): Promise<User | null> {
  return db.prepare("SELECT id, email, name FROM users WHERE id = ?").bind(id).first<User>();
}

/**
 * The directory's copies of what a room knows (written by its room on each change). Each bumps the session's
 * `version` (the live list's ordering key, worker/session-feed) and says whether anything changed.
 */
export async function setSessionStatus(db: D1Database, sessionId: string, state: SessionState): Promise<boolean> {
  const r = await db.prepare("UPDATE sessions SET status = ?1, version = version + 1 WHERE id = ?2 AND status IS NOT ?1").bind(state, sessionId).run();
  return r.meta.changes > 0;
}

/** When the session last saw a turn start or end (the list's order). */
export async function setSessionActivity(db: D1Database, sessionId: string, at: number): Promise<boolean> {
  const r = await db
    .prepare("UPDATE sessions SET last_activity_at = ?1, version = version + 1 WHERE id = ?2 AND last_activity_at IS NOT ?1")
    .bind(at, sessionId)
    .run();
  return r.meta.changes > 0;
}

/** What tells the session apart in the list (the room writes each when it changes). */
export async function setSessionTitle(db: D1Database, sessionId: string, t: { firstPrompt?: string; agentTitle?: string }): Promise<boolean> {
  const r = await db
    .prepare(
      `UPDATE sessions SET first_prompt = CASE WHEN ?1 THEN ?2 ELSE first_prompt END, agent_title = CASE WHEN ?3 THEN ?4 ELSE agent_title END,
       version = version + 1 WHERE id = ?5`,
    )
    .bind(t.firstPrompt !== undefined ? 1 : 0, t.firstPrompt ?? null, t.agentTitle !== undefined ? 1 : 0, t.agentTitle ?? null, sessionId)
    .run();
  return r.meta.changes > 0;
}

/** A daemon said hello (or re-announced its agents): what the machine offers, and that it is online. */
export async function setMachineHello(
  db: D1Database,
  machineId: string,
  hello: { hostname: string; agents: AgentInfo[]; roots: string[] },
  at: number,
): Promise<void> {
  await db
    .prepare("UPDATE machines SET online = 1, last_seen_at = ?, hostname = ?, agents_json = ?, roots_json = ? WHERE id = ?")
    .bind(at, hello.hostname, JSON.stringify(hello.agents), JSON.stringify(hello.roots), machineId)
    .run();
}

export async function setMachineOnline(db: D1Database, machineId: string, online: boolean, at: number): Promise<void> {
  await db.prepare("UPDATE machines SET online = ?, last_seen_at = ? WHERE id = ?").bind(online ? 1 : 0, at, machineId).run();
}

/** Of `ids`, those that are sessions on machine `machineId` (`baton doctor`'s orphan-worktree check). */
export async function knownSessions(db: D1Database, machineId: string, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const { results } = await db
    .prepare(`SELECT id FROM sessions WHERE machine_id = ? AND id IN (${ids.map(() => "?").join(",")})`)
    .bind(machineId, ...ids)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}
