/**
 * Who gets which push, and what it says. Pure: the SessionRoom reports what happened (a PushEvent) and
 * who has a live socket; the adapter (push-delivery.ts) reads the followers from D1 and sends.
 *
 * - permission request → members and the owner (not viewers: they cannot answer);
 * - turn ended / failed / machine offline mid-turn → everyone following the session (viewers too);
 * - your own queued message started → you (its author);
 * only people with no live socket on the session, never the one whose action caused it, and only
 * when their event choice is on and the session is not muted.
 */
import { z } from "zod";
import { assertNever } from "../../shared/assert-never";
import { type PushAction, type PushEventKind, PushPayload } from "../../shared/push-api";
import type { PermissionOption, SessionEvent, Viewer } from "../../shared/viewer-protocol";
import { VIEWER_PING_EVERY_MS } from "../../shared/limits";

/** What happened in a session that may notify; `actorId`: the person whose action caused it (never notified). */
export type PushEvent = { sessionId: string; sessionTitle: string; actorId: string | null } & (
  | { kind: "permission"; requestId: string; toolTitle: string; options: readonly PermissionOption[] }
  /** The agent asks a question (an ACP form): like a permission, it waits on a member; answered in the app. */
  | { kind: "question"; requestId: string; message: string }
  | { kind: "turn_ended"; stoppedBy: string | null; preview: string }
  | { kind: "turn_failed"; message: string }
  | { kind: "machine_offline" }
  | { kind: "queued_started"; authorId: string; preview: string }
);

export type FollowerFacts = { userId: string; role: Viewer["role"]; events: Record<PushEventKind, boolean>; muted: boolean };

/**
 * A socket silent this long (no ping heard) is a phone asleep or a network gone without a close, not someone
 * watching: three pings missed (a long-hidden tab's timers may be held to one run a minute).
 */
export const WATCHING_SILENCE_MS = 3 * VIEWER_PING_EVERY_MS;

/** Whether a socket still shows someone the session: connected lately, or its last ping heard lately. */
export function isWatching(socket: { connectedAt: number; lastPingAt: number | null }, now: number): boolean {
  return now - Math.max(socket.connectedAt, socket.lastPingAt ?? 0) < WATCHING_SILENCE_MS;
}

/** The users to notify, of those following the session; `live`: users with a socket open on it now. */
export function pushRecipients(event: PushEvent, followers: readonly FollowerFacts[], live: ReadonlySet<string>): string[] {
  return followers
    .filter((f) => !live.has(f.userId) && f.userId !== event.actorId && !f.muted && f.events[settingOf(event)] && concerns(event, f))
    .map((f) => f.userId);
}

/** The person's choice that governs a push: a question waits on them as a permission does, under one switch. */
function settingOf(event: PushEvent): PushEventKind {
  return event.kind === "question" ? "permission" : event.kind;
}

function concerns(event: PushEvent, f: FollowerFacts): boolean {
  switch (event.kind) {
    case "permission":
    case "question":
      return f.role !== "viewer";
    case "queued_started":
      return f.userId === event.authorId;
    case "turn_ended":
    case "turn_failed":
    case "machine_offline":
      return true;
    default:
      return assertNever(event);
  }
}

/** PushPayload's limits (shared/push-api.ts). */
const TITLE_MAX = 120;
const BODY_MAX = 240;
/** The session's name inside a title: room left for what happened. */
const SESSION_IN_TITLE_MAX = 60;

export function pushPayload(event: PushEvent): PushPayload {
  const session = plainText(event.sessionTitle, SESSION_IN_TITLE_MAX) || "Session";
  const base = { kind: settingOf(event), sessionId: event.sessionId, tag: `${event.sessionId}:${event.kind}`, url: `/s/${encodeURIComponent(event.sessionId)}` };
  const text = (title: string, body: string) => ({ title: plainText(title, TITLE_MAX), body: plainText(body, BODY_MAX) });
  let payload: PushPayload;
  switch (event.kind) {
    case "permission":
      payload = {
        ...base,
        ...text(`Approval needed · ${session}`, event.toolTitle || "The agent asks for permission."),
        permission: { requestId: event.requestId, actions: permissionActions(event.options) },
      };
      break;
    case "question":
      // No buttons: a form is answered in the app; the tap opens the session at it.
      payload = { ...base, ...text(`Your answer needed · ${session}`, event.message || "The agent asks you a question.") };
      break;
    case "turn_ended":
      payload = {
        ...base,
        ...text(
          event.stoppedBy ? `Stopped by ${plainText(event.stoppedBy, 40)} · ${session}` : `Turn finished · ${session}`,
          event.preview || "The agent is done and waiting for you.",
        ),
      };
      break;
    case "turn_failed":
      payload = { ...base, ...text(`Turn failed · ${session}`, event.message || "The turn ended with an error.") };
      break;
    case "machine_offline":
      payload = { ...base, ...text(`Machine offline · ${session}`, "The machine went offline while a turn was running.") };
      break;
    case "queued_started":
      payload = { ...base, ...text(`Your queued message started · ${session}`, event.preview || "Your message is running now.") };
      break;
    default:
      return assertNever(event);
  }
  return PushPayload.parse(payload);
}

/** Button titles: ours, not the agent's text (a notification action must say plainly what it does). */
const ACTION_TITLES: Record<string, string> = {
  allow_once: "Approve",
  allow_always: "Always allow",
  reject_once: "Deny",
  reject_always: "Always deny",
};

/** Approve / Deny from the agent's options: the once-only kind preferred, the always kind otherwise. */
export function permissionActions(options: readonly PermissionOption[]): PushAction[] {
  const pick = (kinds: readonly string[]) => kinds.map((k) => options.find((o) => o.kind === k)).find((o) => o !== undefined);
  const approve = pick(["allow_once", "allow_always"]);
  const deny = pick(["reject_once", "reject_always"]);
  const actions: PushAction[] = [];
  if (approve) actions.push({ action: "approve", optionId: approve.optionId, title: ACTION_TITLES[approve.kind]! });
  if (deny) actions.push({ action: "deny", optionId: deny.optionId, title: ACTION_TITLES[deny.kind]! });
  return actions;
}

/** A token this long of key-like characters is treated as a secret (API keys, JWT parts, hashes). */
const SECRET_MIN_CHARS = 24;
const KNOWN_SECRET = /\b(?:sk-[A-Za-z0-9_-]{8,}|gh[pousr]_[A-Za-z0-9]{8,}|github_pat_[A-Za-z0-9_]{8,}|xox[abpr]-[A-Za-z0-9-]{8,}|AKIA[0-9A-Z]{12,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_.-]*)/g;
// The name's letters around the keyword are bounded: unbounded, one long word of repeated keywords backtracked
// quadratically (80 KB of "token": 0.5 s of the room's CPU).
const ASSIGNED_SECRET = /\b([A-Za-z_]{0,40}(?:password|passwd|secret|token|api[_-]?key|auth)[A-Za-z_]{0,40})(\s*[:=]\s*)("[^"]*"|'[^']*'|\S+)/gi;
const KEYLIKE_RUN = /[A-Za-z0-9_+=\-/.]{24,}/g;
const REDACTED = "[redacted]";

function looksSecret(run: string): boolean {
  return run.split(/[/.]/).some((part) => part.length >= SECRET_MIN_CHARS && /\d/.test(part) && /[A-Za-z]/.test(part));
}

/**
 * What a notification may show: plain text on one line (no markdown, HTML or terminal escapes), likely
 * secrets redacted, cut to `max` characters with an ellipsis.
 */
export function plainText(text: string, max: number): string {
  // No pattern crosses what would end it (a tag's next `<`, a link's next bracket or parenthesis): each match looks
  // no further than that, so an agent's unclosed `<a` or `[a](` repeated reads in one pass, not from every one of them.
  let s = text
    // Terminal escapes: OSC (title, hyperlinks), CSI (colours, cursor), then any other control character.
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g, "")
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, "")
    .replace(/\x1b[@-_]?/g, "")
    .replace(/<\/?[A-Za-z][^<>]*>/g, " ")
    .replace(/```[^\n]*\n?/g, " ")
    .replace(/!\[([^[\]]*)\]\([^()]*\)/g, "$1")
    .replace(/\[([^[\]]*)\]\([^()]*\)/g, "$1")
    .replace(/^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, "")
    .replace(/(\*\*|__|~~|`)/g, "")
    .replace(/(^|\s)[*_]([^*_\s][^*_]*)[*_](?=\s|$|[.,;:!?])/g, "$1$2")
    .replace(/&(?:lt|gt|amp|quot|#39|nbsp);/g, (e) => ({ "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&#39;": "'", "&nbsp;": " " })[e] ?? e)
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, " ");
  s = s.replace(KNOWN_SECRET, REDACTED).replace(ASSIGNED_SECRET, `$1$2${REDACTED}`);
  s = s.replace(KEYLIKE_RUN, (run) => (looksSecret(run) ? REDACTED : run));
  s = s.replace(/\s+/g, " ").trim();
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

/**
 * The agent's last words in a turn, from the log's tail: the text chunks of its message after the last
 * user message (ACP `agent_message_chunk` with text content). Empty when it said nothing.
 */
export function lastAgentText(events: readonly SessionEvent[]): string {
  let parts: string[] = [];
  for (const e of events) {
    if (e.kind === "user_message") parts = [];
    else if (e.kind === "acp") {
      const chunk = AgentTextChunk.safeParse(e.update);
      if (chunk.success) parts.push(chunk.data.content.text);
      else if (e.update.sessionUpdate === "tool_call") parts = [];
    }
  }
  return parts.join("");
}

const AgentTextChunk = z.object({ sessionUpdate: z.literal("agent_message_chunk"), content: z.object({ type: z.literal("text"), text: z.string() }) });
