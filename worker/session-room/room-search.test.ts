/**
 * Session search over a RoomStore on in-memory SQLite: what is found (user / agent text, tool titles and
 * commands; not JSON keys, escapes or thoughts), newest first, the bounds per answer, continuing below.
 */
import { describe, expect, it } from "vitest";
import { fold, initialSessionState, prependPage } from "../../shared/fold";
import { MAX_SEARCH_RESULTS } from "../../shared/limits";
import type { SessionEvent } from "../../shared/viewer-protocol";
import { memorySql } from "../testing/memory-sql";
import { historyPage } from "./room-replay";
import { searchHistory } from "./room-search";
import { RoomStore } from "./room-store";
import { likePattern, readableMarkdown, snippetOf } from "./search-text";

/** Not a speed target: the bound of a wedged room. The quadratic patterns took 84 s over this test's input here, the linear ones milliseconds. */
const FREEZE_MS = 5_000;

const acp = (update: Record<string, unknown>): SessionEvent => ({ kind: "acp", update: update as Extract<SessionEvent, { kind: "acp" }>["update"] });
const chunk = (text: string, kind = "agent_message_chunk") => acp({ sessionUpdate: kind, content: { type: "text", text } });

function turn(i: number, said = `question ${i}`, answer = `answer ${i}`): SessionEvent[] {
  return [
    { kind: "user_message", id: `u${i}`, blocks: [{ type: "text", text: said }], author: { id: "u1", name: "Ann" }, at: i },
    { kind: "session_status", state: "active", turnId: `t${i}` },
    chunk("pondering zebra", "agent_thought_chunk"),
    acp({ sessionUpdate: "tool_call", toolCallId: `tc${i}`, title: `Run step ${i}`, kind: "execute", status: "pending", rawInput: { command: ["git", "log", `--grep=needle${i}`] } }),
    acp({ sessionUpdate: "tool_call_update", toolCallId: `tc${i}`, status: "completed", content: [{ type: "content", content: { type: "text", text: "output haystack" } }] }),
    chunk("Here "),
    chunk(answer),
    { kind: "session_status", state: "idle", stopReason: "end_turn" },
  ];
}

function room(turns: SessionEvent[][]): RoomStore {
  const store = new RoomStore(memorySql());
  store.beginRun();
  for (const e of turns.flat()) store.append(e.kind, JSON.stringify(e));
  store.endRun();
  return store;
}

describe("history.search", () => {
  it("finds user text, agent text across chunks, tool titles and commands — newest first, with snippets", () => {
    const store = room([turn(1, "please find the Walrus"), turn(2, "nothing", "the walrus is here"), turn(3)]);
    const found = searchHistory(store, "walrus");
    expect(found.hits.map((h) => [h.kind, h.label ?? null])).toEqual([
      ["agent", null],
      ["user", "Ann"],
    ]);
    expect(found).toMatchObject({ continueBefore: null, truncated: false });
    const [agent, user] = found.hits;
    expect(agent!.snippet).toBe("Here the walrus is here");
    expect(agent!.marks).toEqual([[9, 15]]);
    expect(user!.snippet.slice(user!.marks[0]![0], user!.marks[0]![1])).toBe("Walrus");
    // Tool title and command (an argv, as the transcript shows it).
    expect(searchHistory(store, "run step 2").hits).toMatchObject([{ kind: "tool", rowId: "tool:tc2", snippet: "Run step 2" }]);
    expect(searchHistory(store, "needle3").hits).toMatchObject([{ kind: "tool", label: "Run step 3", snippet: "git log --grep=needle3" }]);
  });

  it("an answer's snippet reads as the transcript shows it: no Markdown markup, snake_case kept", () => {
    const answer = "\n## Result\n**Found** the `walrus_count` in [the docs](https://x.test/a_b) and *here*:\n```ts\nconst walrus = 1;\n```\n- one _more_ walrus";
    const store = room([turn(1, "q", answer)]);
    const [hit] = searchHistory(store, "walrus_count").hits;
    expect(hit!.snippet).toBe("Here Result Found the walrus_count in the docs and here: const walrus = 1; one more walrus");
    expect(hit!.snippet.slice(hit!.marks[0]![0], hit!.marks[0]![1])).toBe("walrus_count");
    expect(searchHistory(store, "the docs and here").hits).toHaveLength(1); // across the removed markup
    expect(readableMarkdown("2 * 3 * 4 and a*b*c")).toBe("2 * 3 * 4 and a*b*c");
    expect(readableMarkdown("> quoted\n+ [x] done")).toBe("quoted\ndone");
  });

  it("an agent's hostile Markdown (an item's 256 Ki chars of unclosed ** or __, brackets or links, blank lines, spaced lines) reads in one pass", () => {
    // Each took seconds of the room's CPU when a pattern ran to the end of the text from every line or delimiter.
    const size = 256 * 1024;
    for (const unit of ["**a ", "__a ", "\n", " \n", "[", "[a](", "![a]("]) {
      const md = unit.repeat(size / unit.length) + "x";
      expect(readableMarkdown(md).endsWith("x")).toBe(true);
    }
    expect(readableMarkdown("**a ".repeat(4))).toBe("**a **a **a **a ");
    expect(readableMarkdown("**one** and __two__ **x** [a link](https://x.io) ![an image](i.png)")).toBe("one and two x a link an image");
  }, FREEZE_MS);

  it("never matches JSON keys, escapes, thoughts or tool output", () => {
    const store = room([turn(1, 'say "hi" \\ there')]);
    for (const q of ["sessionUpdate", "toolCallId", "agent_message_chunk", "zebra", "haystack", "u1", "\\\\", "blocks"]) expect(searchHistory(store, q).hits, q).toEqual([]);
    // Quotes and backslashes in the text itself are found (the prefilter matches them JSON-escaped).
    expect(searchHistory(store, '"hi" \\').hits).toMatchObject([{ kind: "user" }]);
  });

  it("LIKE wildcards in the query are literal; case and Unicode fold; runs of spaces read as one", () => {
    const store = room([turn(1, "100% done_ok"), turn(2, "ÉTÉ à Paris"), turn(3, "one   two")]);
    expect(searchHistory(store, "%").hits).toHaveLength(1);
    expect(searchHistory(store, "d_ne").hits).toEqual([]);
    expect(searchHistory(store, "1%0").hits).toEqual([]);
    expect(searchHistory(store, "done_ok").hits).toHaveLength(1);
    expect(searchHistory(store, "été").hits).toMatchObject([{ kind: "user" }]);
    expect(searchHistory(store, "  one two ").hits).toMatchObject([{ kind: "user", snippet: "one two" }]);
    expect(likePattern("a%b_c\\")).toBe("%a\\%b\\_c\\\\\\\\%");
  });

  it("bounds an answer by results and by rows read, and continues below where it stopped", () => {
    const turns = Array.from({ length: 300 }, (_, i) => turn(i + 1, i % 2 ? `common word ${i + 1}` : `rare ${i + 1}`));
    const store = room(turns);
    const first = searchHistory(store, "common");
    expect(first.hits).toHaveLength(MAX_SEARCH_RESULTS);
    expect(first.truncated).toBe(true);
    const second = searchHistory(store, "common", { before: first.continueBefore! });
    expect(second.hits[0]!.at).toBeLessThan(first.hits.at(-1)!.at);
    // Walking slice by slice (small slices: few rows read per answer) finds every match exactly once.
    const seen: number[] = [];
    let before: number | undefined;
    let answers = 0;
    do {
      const r = searchHistory(store, "common", { before, limit: 7 }, 50);
      seen.push(...r.hits.map((h) => h.at));
      before = r.continueBefore ?? undefined;
      answers++;
    } while (before !== undefined);
    expect(seen).toHaveLength(150);
    expect(new Set(seen).size).toBe(150);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
    expect(answers).toBeGreaterThan(300 * 3 / 50);
  });

  it("a hit's rowId is the row's id once the pages down to it are folded (the client scrolls to it)", () => {
    const turns = Array.from({ length: 120 }, (_, i) => turn(i + 1, i === 0 ? "the very first zucchini" : `q ${i + 1}`));
    const store = room(turns);
    const [hit] = searchHistory(store, "zucchini").hits;
    expect(hit).toBeDefined();
    // A join's window, then pages down to the hit's row, as the client asks them.
    let state = fold(initialSessionState(), { type: "snapshot", seq: store.headSeq(), events: [], at: [], historyBefore: store.headSeq() + 1 });
    while (state.historyBefore !== null && state.historyBefore > hit!.at) {
      const before = state.historyBefore;
      state = prependPage(state, before, historyPage(store, before, 200));
    }
    expect(state.rowIndex[hit!.rowId]).toBeDefined();
    expect(state.rows[state.rowIndex[hit!.rowId]!]).toMatchObject({ kind: "user", blocks: [{ text: "the very first zucchini" }] });
  });

  it("snippets cut at words around the match and keep every match in them", () => {
    const long = `${"alpha ".repeat(30)}target beta target ${"gamma ".repeat(30)}`;
    const s = snippetOf(long, "target")!;
    expect(s.snippet.startsWith("…alpha")).toBe(true);
    expect(s.snippet.endsWith("gamma…")).toBe(true);
    expect(s.marks).toHaveLength(2);
    for (const [a, b] of s.marks) expect(s.snippet.slice(a, b)).toBe("target");
  });
});
