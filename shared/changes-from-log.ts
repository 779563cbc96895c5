/**
 * The changes view from the room's log (issue 28 #2), for when the machine is offline: the files the agent's
 * tool calls touched — ACP `diff` contents (path, oldText, newText) and the locations of edit / delete / move
 * calls — for the whole session and per turn (a turn starts at each user message). Pure and incremental: the
 * room feeds its log a step at a time.
 */

/** One file's change: the text before the first edit and after the last one (null: created / unknown / deleted). */
export type LoggedFile = {
  path: string;
  oldText: string | null;
  newText: string | null;
  /** Only a location was logged (no diff content): the file was touched, its change is unknown. */
  hasDiff: boolean;
};
/**
 * `trees`: the turn's worktree snapshots (issue 28 #2, `turn.tree`), when the room has both: while
 * the machine is online the view asks git for the diff between them instead of reading the log's.
 */
export type LoggedTurn = { index: number; messageId: string | null; files: LoggedFile[]; trees?: { from: string; to: string } };
export type LoggedChanges = { files: LoggedFile[]; turns: LoggedTurn[]; /** Texts were left out past the budget. */ truncated: boolean };

/** Tool kinds whose locations are files the call changed (a `read` or `search` touches nothing). */
const CHANGING_KINDS = new Set(["edit", "delete", "move"]);

type Event = { kind: string; id?: unknown; update?: unknown };

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null;
const text = (x: unknown): string | null => (typeof x === "string" ? x : null);

export type ChangesCollector = { add(events: Iterable<Event>): void; result(): LoggedChanges };

/**
 * `cwd` makes absolute paths relative to it; `maxChars` bounds the texts kept (the rest become location-only).
 * `trees`: turns' worktree snapshots by their message id; a turn with them is listed even when its tools logged
 * no change (an edit made through a shell command is only in git).
 */
export function collectChanges(cwd: string | null, maxChars: number, trees: ReadonlyMap<string, { from: string; to: string }> = new Map()): ChangesCollector {
  const session = new Map<string, LoggedFile>();
  const turns: { index: number; messageId: string | null; files: Map<string, LoggedFile> }[] = [];
  const kinds = new Map<string, string>();
  let used = 0;
  let truncated = false;
  const rel = (p: string) => {
    if (!cwd) return p;
    const root = cwd.endsWith("/") ? cwd : `${cwd}/`;
    return p.startsWith(root) ? p.slice(root.length) : p;
  };
  const keep = (t: string | null): string | null | undefined => {
    if (t === null) return null;
    if (used + t.length > maxChars) {
      truncated = true;
      return undefined; // over budget: the change is known only as a location
    }
    used += t.length;
    return t;
  };
  const touch = (map: Map<string, LoggedFile>, path: string, change: { oldText: string | null; newText: string | null } | null) => {
    const had = map.get(path);
    if (!change) {
      if (!had) map.set(path, { path, oldText: null, newText: null, hasDiff: false });
      return;
    }
    if (!had || !had.hasDiff) map.set(path, { path, oldText: change.oldText, newText: change.newText, hasDiff: true });
    else map.set(path, { ...had, newText: change.newText });
  };
  const record = (path: string, change: { oldText: string | null; newText: string | null } | null) => {
    const p = rel(path);
    touch(session, p, change);
    const turn = turns.at(-1) ?? (turns.push({ index: 0, messageId: null, files: new Map() }), turns[0]!);
    touch(turn.files, p, change);
  };
  return {
    add(events) {
      for (const e of events) {
        if (e.kind === "user_message") {
          turns.push({ index: turns.length, messageId: text(e.id), files: new Map() });
          continue;
        }
        if (e.kind !== "acp" || !isRecord(e.update)) continue;
        const u = e.update;
        if (u.sessionUpdate !== "tool_call" && u.sessionUpdate !== "tool_call_update") continue;
        const id = text(u.toolCallId) ?? "";
        if (typeof u.kind === "string") kinds.set(id, u.kind);
        const diffs = Array.isArray(u.content) ? u.content.filter((c): c is Record<string, unknown> => isRecord(c) && c.type === "diff" && typeof c.path === "string") : [];
        for (const d of diffs) {
          const oldText = keep(text(d.oldText));
          const newText = keep(text(d.newText));
          record(String(d.path), oldText === undefined || newText === undefined ? null : { oldText, newText });
        }
        if (!diffs.length && CHANGING_KINDS.has(kinds.get(id) ?? "") && Array.isArray(u.locations))
          for (const l of u.locations) if (isRecord(l) && typeof l.path === "string") record(l.path, null);
      }
    },
    result() {
      const net = (f: LoggedFile) => !f.hasDiff || f.oldText !== f.newText;
      const treesOf = (t: { messageId: string | null }) => (t.messageId !== null ? trees.get(t.messageId) : undefined);
      return {
        files: [...session.values()].filter(net),
        turns: turns
          .filter((t) => t.files.size || treesOf(t))
          .map((t) => {
            const snap = treesOf(t);
            return { index: t.index, messageId: t.messageId, files: [...t.files.values()].filter(net), ...(snap ? { trees: snap } : {}) };
          }),
        truncated,
      };
    },
  };
}
