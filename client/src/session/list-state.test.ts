import { describe, expect, it } from "vitest";
import type { SessionFeedFrame, SessionListItem } from "../../../shared/session-list";
import { item, NOW } from "./list-fixtures";
import {
  abandonLoad,
  applyFirstPage,
  applyFrame,
  applyNextPage,
  archivableSelection,
  filterChoices,
  listSearch,
  beginLoad,
  initialListState,
  type ListState,
  pruneSelection,
  sameFilter,
  toggleSelected,
} from "./list-state";

const ids = (s: ListState) => s.rows.map((r) => r.id);
const up = (it: SessionListItem): SessionFeedFrame => ({ type: "upsert", item: it });
const at = (minAgo: number) => NOW - minAgo * 60_000;

/** a (1 min ago), b (2), c (3): one page, the last. */
function loaded(filter = initialListState().filter, nextCursor: string | null = null): ListState {
  return applyFirstPage(initialListState(filter), {
    sessions: [item("a", { lastActivityAt: at(1) }), item("b", { lastActivityAt: at(2) }), item("c", { lastActivityAt: at(3) })],
    nextCursor,
  });
}

describe("list state: first page and frames", () => {
  it("the first page shows newest activity first", () => {
    const s = applyFirstPage(initialListState(), { sessions: [item("b", { lastActivityAt: at(5) }), item("a", { lastActivityAt: at(1) })], nextCursor: null });
    expect(ids(s)).toEqual(["a", "b"]);
    expect(s.loading).toBe(false);
  });

  it("an upsert with newer activity moves the row to the top; an older version changes nothing", () => {
    let s = applyFrame(loaded(), up(item("c", { lastActivityAt: at(0), version: 2, customTitle: "Now" })));
    expect(ids(s)).toEqual(["c", "a", "b"]);
    expect(s.rows[0]!.customTitle).toBe("Now");
    const same = applyFrame(s, up(item("c", { lastActivityAt: at(10), version: 2, customTitle: "Stale" })));
    expect(same).toBe(s);
    s = applyFrame(s, up(item("c", { lastActivityAt: at(0), version: 1, customTitle: "Older" })));
    expect(s.rows[0]!.customTitle).toBe("Now");
  });

  it("a new session comes in at its place; a remove takes a row out", () => {
    let s = applyFrame(loaded(), up(item("n", { lastActivityAt: at(2.5) })));
    expect(ids(s)).toEqual(["a", "b", "n", "c"]);
    s = applyFrame(s, { type: "remove", id: "b", reason: "deleted" });
    expect(ids(s)).toEqual(["a", "n", "c"]);
  });

  it("live frames go through the filter: a row that stops matching leaves, one that starts matching comes in", () => {
    let s = loaded({ archived: "hide", text: "fix" });
    expect(ids(s)).toEqual([]);
    s = applyFrame(s, up(item("a", { lastActivityAt: at(1), version: 2, customTitle: "Fix the tests" })));
    expect(ids(s)).toEqual(["a"]);
    s = applyFrame(s, up(item("a", { lastActivityAt: at(1), version: 3, customTitle: "Fix the tests", archivedAt: NOW })));
    expect(ids(s)).toEqual([]);
    s = beginLoad(s, { archived: "only" });
    s = applyFirstPage(s, { sessions: [item("a", { version: 3, archivedAt: NOW })], nextCursor: null });
    expect(ids(s)).toEqual(["a"]);
    s = applyFrame(s, up(item("a", { version: 4, archivedAt: null })));
    expect(ids(s)).toEqual([]);
  });

  it("with more pages to come, a row older than the last held waits for its page", () => {
    let s = loaded(undefined, "cur1");
    s = applyFrame(s, up(item("old", { lastActivityAt: at(60) })));
    expect(ids(s)).toEqual(["a", "b", "c"]);
    s = applyNextPage(s, { sessions: [item("old", { lastActivityAt: at(60) }), item("d", { lastActivityAt: at(4) })], nextCursor: null });
    expect(ids(s)).toEqual(["a", "b", "c", "d", "old"]);
    expect(s.nextCursor).toBeNull();
    // All pages in: an old row now comes in at its place.
    s = applyFrame(s, up(item("older", { lastActivityAt: at(90) })));
    expect(ids(s).at(-1)).toBe("older");
  });

  it("a further page never duplicates a row, nor brings back an older version or a removed one", () => {
    let s = loaded(undefined, "cur1");
    s = applyFrame(s, up(item("a", { lastActivityAt: at(0.5), version: 5, customTitle: "Fresh" })));
    s = applyFrame(s, { type: "remove", id: "x", reason: "deleted" });
    s = applyNextPage(s, { sessions: [item("a", { version: 4, customTitle: "Old" }), item("x", { lastActivityAt: at(4) }), item("d", { lastActivityAt: at(5) })], nextCursor: "cur2" });
    expect(ids(s)).toEqual(["a", "b", "c", "d"]);
    expect(s.rows[0]!.customTitle).toBe("Fresh");
    expect(s.nextCursor).toBe("cur2");
  });
});

describe("list state: the race rule (feed opened before the page)", () => {
  it("frames that arrive before the page wait and are applied after it, by version", () => {
    let s = initialListState();
    s = applyFrame(s, { type: "hello", at: NOW });
    s = applyFrame(s, up(item("a", { lastActivityAt: at(0), version: 3, customTitle: "After the page" })));
    s = applyFrame(s, up(item("b", { version: 1, customTitle: "Before the page" })));
    s = applyFrame(s, { type: "remove", id: "c", reason: "deleted" });
    s = applyFrame(s, up(item("new", { lastActivityAt: at(0.5) })));
    expect(s.rows).toEqual([]);
    expect(s.buffer).toHaveLength(4);
    s = applyFirstPage(s, {
      sessions: [item("a", { lastActivityAt: at(1), version: 2 }), item("b", { lastActivityAt: at(2), version: 2, customTitle: "In the page" }), item("c", { lastActivityAt: at(3) })],
      nextCursor: null,
    });
    expect(ids(s)).toEqual(["a", "new", "b"]);
    expect(s.rows[0]!.customTitle).toBe("After the page");
    expect(s.rows[2]!.customTitle).toBe("In the page");
    expect(s.buffer).toEqual([]);
  });

  it("a refresh (the feed reconnected) keeps the rows on screen until the fresh page replaces them", () => {
    let s = applyFrame(loaded(), { type: "remove", id: "c", reason: "access" });
    s = beginLoad(s, s.filter);
    expect(ids(s)).toEqual(["a", "b"]);
    expect(s.loading).toBe(true);
    // Access was granted again while away: the fresh page is the newer word.
    s = applyFirstPage(s, { sessions: [item("c", { lastActivityAt: at(3), version: 2 }), item("a", { lastActivityAt: at(1) })], nextCursor: null });
    expect(ids(s)).toEqual(["a", "c"]);
  });

  it("a first page that fails leaves the rows held, with the frames that waited applied", () => {
    let s = beginLoad(loaded(), { archived: "hide" });
    s = applyFrame(s, up(item("b", { lastActivityAt: at(0), version: 2 })));
    s = abandonLoad(s);
    expect(s.loading).toBe(false);
    expect(ids(s)).toEqual(["b", "a", "c"]);
  });

  it("a new filter drops the rows at once", () => {
    const s = beginLoad(loaded(), { archived: "all" });
    expect(s.rows).toEqual([]);
    expect(s.loading).toBe(true);
  });

  it("an upsert after a remove brings the session back even at a version already seen", () => {
    let s = applyFrame(loaded(), { type: "remove", id: "b", reason: "access" });
    s = applyFrame(s, up(item("b", { lastActivityAt: at(2), version: 1 })));
    expect(ids(s)).toEqual(["a", "b", "c"]);
  });
});

describe("list state: filters and selection", () => {
  it("filters compare by meaning (blank text = none)", () => {
    expect(sameFilter({ archived: "hide", text: "  " }, { archived: "hide" })).toBe(true);
    expect(sameFilter({ archived: "hide", agentId: "claude" }, { archived: "hide" })).toBe(false);
    expect(sameFilter({ archived: "hide" }, { archived: "all" })).toBe(false);
  });

  it("selection toggles, leaves with the row, and sends only rows that can be archived", () => {
    const s = applyFirstPage(initialListState({ archived: "all" }), {
      sessions: [item("a", { lastActivityAt: at(1) }), item("b", { lastActivityAt: at(2), archivedAt: NOW }), item("v", { lastActivityAt: at(3), role: "viewer" })],
      nextCursor: null,
    });
    let sel: ReadonlySet<string> = toggleSelected(toggleSelected(toggleSelected(new Set(), "a"), "b"), "v");
    expect(archivableSelection(sel, s.rows)).toEqual(["a"]);
    sel = toggleSelected(sel, "a");
    expect([...sel].sort()).toEqual(["b", "v"]);
    const after = applyFrame(s, { type: "remove", id: "b", reason: "deleted" });
    expect([...pruneSelection(sel, after.rows)]).toEqual(["v"]);
    expect(pruneSelection(new Set(["v"]), after.rows)).toEqual(new Set(["v"]));
  });
});

describe("list state: the page request and the filter's choices", () => {
  it("a filter becomes the page's query; blank fields stay out", () => {
    expect(listSearch({ archived: "hide", text: "  " }).toString()).toBe("archived=hide");
    expect(listSearch({ archived: "only", text: " fix ", agentId: "claude", machineId: "lap", status: "needs_you" }, "c1").toString()).toBe(
      "text=fix&agentId=claude&machineId=lap&status=needs_you&archived=only&cursor=c1",
    );
  });

  it("agents and machines to filter by come from every row seen", () => {
    const s = applyFrame(loaded(), up(item("z", { agentId: "codex", agentLabel: "Codex", machineId: "box", machineName: "Build box", archivedAt: NOW })));
    expect(filterChoices(s.latest)).toEqual({
      agents: [
        { id: "claude", label: "Claude Code" },
        { id: "codex", label: "Codex" },
      ],
      machines: [
        { id: "box", label: "Build box" },
        { id: "lap", label: "Laptop" },
      ],
    });
  });
});
