/**
 * A small, sanitised sample of an agent's real ACP traffic (test/fixtures/acp-captures/<agent>.jsonl) for
 * the daemon and client tests: the initialize / session/new / session/load exchanges, a few session/update
 * of each kind (all the ones the issue is about), permission requests, config writes and `_`-extension
 * notifications. Temp paths become <home> / <workspace> / <tmp>; long strings and arrays are trimmed.
 */
import fs from "node:fs";
import path from "node:path";
import type { WireLine } from "./harness";

export const CAPTURES_DIR = path.join(import.meta.dirname, "..", "fixtures", "acp-captures");

const MAX_STRING = 1500;
const MAX_ARRAY = 60;
/** session/update lines kept per kind (beyond the "interesting" ones, which are always kept). */
const PER_KIND = 4;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function trim(v: unknown, paths: [string, string][]): Json {
  if (typeof v === "string") {
    let s = v;
    for (const [from, to] of paths) s = s.split(from).join(to);
    return s.length > MAX_STRING ? `${s.slice(0, MAX_STRING)}…[${s.length - MAX_STRING} chars trimmed]` : s;
  }
  if (Array.isArray(v)) {
    const kept = v.slice(0, MAX_ARRAY).map((x) => trim(x, paths));
    return v.length > MAX_ARRAY ? [...kept, `…[${v.length - MAX_ARRAY} more trimmed]`] : kept;
  }
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trim(x, paths)]));
  if (typeof v === "number" || typeof v === "boolean" || v === null) return v;
  return null;
}

const rec = (x: unknown): Record<string, unknown> => (x && typeof x === "object" && !Array.isArray(x) ? (x as Record<string, unknown>) : {});

/** Why a session/update line is worth keeping whatever the per-kind budget. */
function interesting(update: Record<string, unknown>): string | null {
  const kind = String(update.sessionUpdate);
  const json = JSON.stringify(update);
  if (kind === "available_commands_update") return "commands";
  if (kind === "config_option_update" || kind === "current_mode_update" || kind === "session_info_update") return kind;
  if (json.includes('"terminal"') || json.includes("terminal_output")) return "terminal";
  if (kind === "agent_message_chunk" && !("messageId" in update) && /Warning/i.test(json)) return "chunk-without-messageId";
  if ((kind === "tool_call" || kind === "tool_call_update") && json.includes("```")) return "fenced-tool-output";
  if (kind === "tool_call_update" && json.includes("baton-tool-ok")) return "tool-output";
  return null;
}

/** Reduces a recorded exchange to the sample; `paths` maps temp paths to placeholders. */
export function sampleWire(lines: readonly WireLine[], paths: [string, string][]): Json[] {
  const out: Json[] = [];
  const methodsById = new Map<string, string>();
  const perKind = new Map<string, number>();
  const perNote = new Map<string, number>();
  const keepMethods = new Set(["initialize", "session/new", "session/load", "session/resume", "session/set_config_option", "session/set_mode", "session/set_model", "session/request_permission", "session/prompt", "session/cancel"]);
  for (const l of lines) {
    const m = l.msg;
    const method = typeof m.method === "string" ? m.method : null;
    const id = "id" in m ? JSON.stringify(m.id) : null;
    if (method && id) methodsById.set(`${l.dir}:${id}`, method);
    const answered = !method && id ? methodsById.get(`${l.dir === "toAgent" ? "fromAgent" : "toAgent"}:${id}`) : undefined;
    let keep = false;
    let note: string | null = null;
    if (method === "session/update") {
      const u = rec(rec(m.params).update);
      const kind = String(u.sessionUpdate);
      note = interesting(u);
      const n = perKind.get(kind) ?? 0;
      const nn = note ? (perNote.get(note) ?? 0) : 0;
      if ((note && nn < PER_KIND) || n < PER_KIND) {
        keep = true;
        perKind.set(kind, n + 1);
        if (note) perNote.set(note, nn + 1);
      }
    } else if (method && (keepMethods.has(method) || method.startsWith("_"))) keep = true;
    else if (answered && keepMethods.has(answered)) {
      keep = true;
      note = `result of ${answered}`;
    }
    if (keep) out.push(trim({ dir: l.dir, ...(note ? { note } : {}), msg: m }, paths));
  }
  return out;
}

export function writeCapture(agent: string, lines: readonly WireLine[], paths: [string, string][]): string {
  fs.mkdirSync(CAPTURES_DIR, { recursive: true });
  const file = path.join(CAPTURES_DIR, `${agent}.jsonl`);
  fs.writeFileSync(file, sampleWire(lines, paths).map((x) => JSON.stringify(x)).join("\n") + "\n");
  return file;
}
