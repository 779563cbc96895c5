import { fireEvent, render, screen, waitFor, within } from "@solidjs/testing-library";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { LoggedChanges } from "../../../shared/changes-from-log";
import type { WorktreeDiff } from "../../../shared/worktree";
import { ChangesPanel, COLLAPSE_LINES } from "./ChangesPanel";

const EVIL = '<img src=x onerror="alert(1)">';
const PATCH = `@@ -1,3 +1,4 @@\n const a = 1;\n-const b = 2;\n+const b = "two";\n+// ${EVIL}\n export { a };`;
const BIG = Array.from({ length: COLLAPSE_LINES + 20 }, (_, i) => `line ${i + 1}`).join("\n");
const DIFF: WorktreeDiff = {
  base: "main",
  note: null,
  files: [
    { path: "src/a.ts", oldPath: null, status: "modified", binary: false, patch: PATCH, truncated: false },
    { path: "src/b.ts", oldPath: null, status: "untracked", binary: false, patch: "@@ -0,0 +1,2 @@\n+let b = 1;\n+b++;", truncated: false },
    { path: "gen/big.txt", oldPath: null, status: "untracked", binary: false, patch: `@@ -0,0 +1,${COLLAPSE_LINES + 20} @@\n${BIG.split("\n").map((l) => `+${l}`).join("\n")}`, truncated: false },
  ],
};
const LOG: LoggedChanges = {
  files: [{ path: "notes.md", oldText: "# Notes\nfirst\n", newText: "# Notes\nfirst\nsecond\n", hasDiff: true }],
  turns: [],
  truncated: false,
};

let posted: unknown[];
let wide: boolean;

// The highlighter and its TypeScript grammar are chunks of their own: loaded here once, so a test waits on its
// rendering, not on importing highlight.js through the transform of a loaded machine (a 1 s wait ran out in a run).
beforeAll(async () => {
  const { highlightRows } = await import("../lib/highlight");
  await highlightRows("warm.ts", [{ op: " ", text: "const a = 1;", oldLine: 1, newLine: 1 }]);
});

beforeEach(() => {
  posted = [];
  wide = false;
  localStorage.clear();
  vi.stubGlobal("matchMedia", (q: string) => ({ matches: q.includes("min-width") && wide, media: q, addEventListener() {}, removeEventListener() {} }));
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
      if (url.endsWith("/git/diff")) return json(DIFF);
      if (url.endsWith("/changes")) return json(LOG);
      if (url.endsWith("/review") && init?.method === "POST") {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        posted.push(body);
        return json({ comments: [{ ...body, id: `c${posted.length}`, author: "Ann", createdAt: 1 }] });
      }
      if (url.endsWith("/review")) return json({ comments: [] });
      return new Response("{}", { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const open = (online = true) => render(() => <ChangesPanel sessionId="s1" against="base" online={online} canAct send={async () => true} onClose={() => {}} />);

describe("the changes view: highlighted, side by side, collapsed, commented from either source", () => {
  it("highlights by the file's language, keeps numbers and selection, and shows hostile content as text", async () => {
    open();
    fireEvent.click(await screen.findByRole("button", { name: /src\/a\.ts/ }));
    const diff = screen.getByTestId("file-diff");
    await waitFor(() => expect(diff.querySelector(".hljs-keyword")).not.toBeNull());
    expect(diff.querySelector(".hljs-string")?.textContent).toBe('"two"');
    expect(diff.querySelector("img")).toBeNull();
    expect(diff.textContent).toContain(EVIL);
    const row = diff.querySelector('[data-line="3"]')!;
    expect(row.textContent).toBe(`3+ // ${EVIL}`);
    fireEvent.click(diff.querySelector('[data-line="2"].diff-add')!);
    fireEvent.click(row);
    const box = screen.getByRole("textbox", { name: "Comment on src/a.ts:2-3" });
    fireEvent.input(box, { target: { value: "why a string?" } });
    fireEvent.click(screen.getByRole("button", { name: "Add comment" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ path: "src/a.ts", line: 2, endLine: 3, quoted: `const b = "two";\n// ${EVIL}`, text: "why a string?" });
  });

  it("wide: 'Side by side' puts old beside new, is remembered, and comments the same way", async () => {
    wide = true;
    const first = open();
    const toggle = await screen.findByRole("button", { name: "Side by side" });
    expect(toggle).toHaveAttribute("aria-pressed", "false");
    fireEvent.click(toggle);
    expect(localStorage.getItem("baton.changes.layout")).toBe("split");
    fireEvent.click(await screen.findByRole("button", { name: /src\/a\.ts/ }));
    const split = await screen.findByTestId("diff-split");
    const oldB = split.querySelector('[data-side="old"][data-line="2"]')!;
    const newB = split.querySelector('[data-side="new"][data-line="2"]')!;
    expect(oldB.textContent).toBe("2const b = 2;");
    expect(newB.textContent).toBe('2const b = "two";');
    // The removed line's cell and the added line's cell sit on one grid row: next to each other in order.
    expect(oldB.nextElementSibling).toBe(newB);
    fireEvent.click(oldB);
    fireEvent.input(screen.getByRole("textbox", { name: "Comment on src/a.ts:2" }), { target: { value: "was fine" } });
    fireEvent.click(screen.getByRole("button", { name: "Add comment" }));
    await waitFor(() => expect(posted).toEqual([{ path: "src/a.ts", line: 2, endLine: 2, quoted: "const b = 2;", text: "was fine" }]));
    first.unmount();
    open();
    expect(await screen.findByRole("button", { name: "Side by side" })).toHaveAttribute("aria-pressed", "true");
  });

  it("a phone has no side by side: unified even when it was chosen on a desktop", async () => {
    localStorage.setItem("baton.changes.layout", "split");
    open();
    fireEvent.click(await screen.findByRole("button", { name: /src\/a\.ts/ }));
    expect(screen.queryByRole("button", { name: "Side by side" })).toBeNull();
    expect(screen.queryByTestId("diff-split")).toBeNull();
  });

  it(`a diff over ${COLLAPSE_LINES} lines opens collapsed, with "Show N lines"`, async () => {
    open();
    fireEvent.click(await screen.findByRole("button", { name: /gen\/big\.txt/ }));
    const diff = screen.getByTestId("file-diff");
    expect(diff.querySelector("[data-line]")).toBeNull();
    fireEvent.click(within(diff).getByRole("button", { name: `Show ${COLLAPSE_LINES + 20} lines` }));
    await waitFor(() => expect(diff.querySelectorAll("[data-line]")).toHaveLength(COLLAPSE_LINES + 20));
  });

  it("from the log (machine offline): lines are numbered and a selection makes a review comment", async () => {
    open(false);
    fireEvent.click(await screen.findByRole("button", { name: /notes\.md/ }));
    const diff = screen.getByTestId("file-diff");
    const added = await waitFor(() => {
      const el = diff.querySelector('.diff-add[data-line="3"]');
      if (!el) throw new Error("the logged diff is not shown yet");
      return el;
    });
    expect(added.textContent).toBe("3+ second");
    fireEvent.click(added);
    fireEvent.input(screen.getByRole("textbox", { name: "Comment on notes.md:3" }), { target: { value: "say more" } });
    fireEvent.click(screen.getByRole("button", { name: "Add comment" }));
    await waitFor(() => expect(posted).toEqual([{ path: "notes.md", line: 3, endLine: 3, quoted: "second", text: "say more" }]));
    await screen.findByRole("region", { name: "Review" });
  });
});

describe("choosing another file", () => {
  it("drops the selection made in the last one", async () => {
    open();
    fireEvent.click(await screen.findByRole("button", { name: /src\/a\.ts/ }));
    fireEvent.click(screen.getByTestId("file-diff").querySelector('[data-line="1"]')!);
    screen.getByRole("textbox", { name: "Comment on src/a.ts:1" });
    fireEvent.click(screen.getByRole("button", { name: /src\/b\.ts/ }));
    await waitFor(() => expect(screen.getByTestId("file-diff").textContent).toContain("b++;"));
    expect(screen.queryByRole("textbox")).toBeNull();
  });
});
