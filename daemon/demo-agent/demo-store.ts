/** Per-session history on disk, so a fresh demo process can `session/load` and replay it. */
import fs from "node:fs";
import path from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { DEFAULT_CONFIG_VALUES, DEFAULT_MODE_ID, type DemoConfigValues } from "./demo-settings";

export type StoredSession = {
  sessionId: string;
  cwd: string;
  modeId: string;
  config: DemoConfigValues;
  /** Updates replayed on load: user prompts and the agent's (coalesced) replies, in order. */
  history: acp.SessionUpdate[];
  /** For `session/list`: the first prompt's first line, and when the session last changed (ISO 8601). */
  title?: string | null;
  updatedAt?: string;
};

const FILE_PREFIX = "baton-demo-session-";
/** A listed title: the first prompt's first line, this long at most. */
const TITLE_CHARS = 80;

/** The title `session/list` shows: the first user text's first line. */
export function titleOf(history: readonly acp.SessionUpdate[]): string | null {
  for (const u of history)
    if (u.sessionUpdate === "user_message_chunk" && u.content.type === "text" && u.content.text.trim())
      return u.content.text.trim().split("\n")[0]!.slice(0, TITLE_CHARS);
  return null;
}

/** Every stored session in `cwd`, most recently updated first. */
export function listStoredSessions(stateDir: string, cwd: string): StoredSession[] {
  let names: string[];
  try {
    names = fs.readdirSync(stateDir).filter((n) => n.startsWith(FILE_PREFIX) && n.endsWith(".json"));
  } catch {
    return [];
  }
  const out: StoredSession[] = [];
  for (const n of names) {
    const s = loadSession(stateDir, n.slice(FILE_PREFIX.length, -".json".length));
    if (s && s.cwd === cwd) out.push(s);
  }
  return out.sort((a, b) => (b.updatedAt ?? "").localeCompare(a.updatedAt ?? "") || a.sessionId.localeCompare(b.sessionId));
}

export function deleteStoredSession(stateDir: string, sessionId: string): boolean {
  const file = sessionFile(stateDir, sessionId);
  if (!file) return false;
  try {
    fs.unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Session ids come from the client on load: keep them to a safe file-name alphabet. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function sessionFile(stateDir: string, sessionId: string): string | null {
  if (!SAFE_ID.test(sessionId)) return null;
  return path.join(stateDir, `${FILE_PREFIX}${sessionId}.json`);
}

export function saveSession(stateDir: string, s: StoredSession): void {
  const file = sessionFile(stateDir, s.sessionId);
  if (!file) return;
  fs.mkdirSync(stateDir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ ...s, title: titleOf(s.history), updatedAt: new Date().toISOString() }));
  fs.renameSync(tmp, file); // atomic: a crash mid-write never leaves half a file
}

export function loadSession(stateDir: string, sessionId: string): StoredSession | null {
  const file = sessionFile(stateDir, sessionId);
  if (!file) return null;
  try {
    const raw = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<StoredSession>;
    if (raw.sessionId !== sessionId || !Array.isArray(raw.history)) return null;
    return {
      sessionId,
      cwd: typeof raw.cwd === "string" ? raw.cwd : "",
      modeId: typeof raw.modeId === "string" ? raw.modeId : DEFAULT_MODE_ID,
      config: { ...DEFAULT_CONFIG_VALUES, ...(raw.config ?? {}) },
      history: raw.history,
      title: typeof raw.title === "string" ? raw.title : titleOf(raw.history),
      updatedAt: typeof raw.updatedAt === "string" ? raw.updatedAt : new Date(0).toISOString(),
    };
  } catch {
    return null;
  }
}

/** Appends an update to history, merging consecutive text chunks of the same kind (replay stays O(messages)). */
export function appendHistory(history: acp.SessionUpdate[], update: acp.SessionUpdate): void {
  const last = history[history.length - 1];
  if (
    last &&
    (update.sessionUpdate === "agent_message_chunk" || update.sessionUpdate === "agent_thought_chunk") &&
    last.sessionUpdate === update.sessionUpdate &&
    last.content.type === "text" &&
    update.content.type === "text"
  ) {
    history[history.length - 1] = { ...last, content: { ...last.content, text: last.content.text + update.content.text } };
    return;
  }
  history.push(update);
}
