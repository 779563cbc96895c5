/** The search panel: searching walks the room's answers, snippets render as text with marks, choosing, closing, bad input. */
import { cleanup, fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SearchAck, SearchHit } from "../../../shared/viewer-protocol";
import { SearchPanel } from "./SearchPanel";

afterEach(cleanup);

const hit = (at: number, snippet: string, marks: [number, number][], kind: SearchHit["kind"] = "user", label?: string): SearchHit => ({
  at,
  rowId: `row-${at}`,
  kind,
  snippet,
  marks,
  ...(label ? { label } : {}),
});

function setup(answers: SearchAck[]) {
  const asked: { query: string; before: number | undefined }[] = [];
  const ask = vi.fn(async (query: string, before: number | undefined) => {
    asked.push({ query, before });
    return answers[asked.length - 1] ?? { error: "no more" };
  });
  const onChoose = vi.fn(async () => true);
  const onClose = vi.fn();
  render(() => <SearchPanel open onClose={onClose} ask={ask} onChoose={onChoose} exportHref="/api/sessions/s1/export.md" />);
  const input = screen.getByRole("searchbox", { name: "Search this session" });
  return { asked, ask, onChoose, onClose, input };
}

describe("SearchPanel", () => {
  it("Enter searches; answers are walked slice by slice; snippets are text with the match marked", async () => {
    const { asked, input } = setup([
      { hits: [hit(900, "the <img src=x onerror=alert(1)> walrus", [[33, 39]], "agent")], continueBefore: 500, truncated: true },
      { hits: [], continueBefore: 100, truncated: true },
      { hits: [hit(3, "find the Walrus", [[9, 15]], "user", "Ann")], continueBefore: null, truncated: false },
    ]);
    fireEvent.input(input, { target: { value: "walrus" } });
    fireEvent.submit(input.closest("form")!);
    await waitFor(() => expect(screen.getByTestId("search-status").textContent).toBe("2 matches in the whole session, newest first."));
    expect(asked).toEqual([
      { query: "walrus", before: undefined },
      { query: "walrus", before: 500 },
      { query: "walrus", before: 100 },
    ]);
    const hits = screen.getAllByTestId("search-hit");
    expect(hits.map((h) => h.querySelector(".hit-kind")!.textContent)).toEqual(["Agent", "Ann"]);
    // User content is text: no element was made from it.
    expect(hits[0]!.querySelector("img")).toBeNull();
    expect(hits[0]!.textContent).toContain("<img src=x onerror=alert(1)>");
    expect([...hits[0]!.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["walrus"]);
    expect([...hits[1]!.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["Walrus"]);
    expect(screen.getByRole("link", { name: "Export as Markdown" }).getAttribute("href")).toBe("/api/sessions/s1/export.md");
  });

  it("choosing a result hands it over; Escape closes", async () => {
    const { input, onChoose, onClose } = setup([{ hits: [hit(7, "git log --grep=x", [[0, 3]], "tool", "Run git")], continueBefore: null, truncated: false }]);
    fireEvent.input(input, { target: { value: "git" } });
    fireEvent.submit(input.closest("form")!);
    const result = await screen.findByRole("button", { name: /Tool · Run git/ });
    fireEvent.click(result);
    await waitFor(() => expect(onChoose).toHaveBeenCalledWith(expect.objectContaining({ at: 7, rowId: "row-7" })));
    fireEvent.keyDown(input, { key: "Escape" });
    expect(onClose).toHaveBeenCalled();
  });

  it("a 10 kB query is refused with a clear message and nothing is asked; an error from the room is shown", async () => {
    const { input, ask } = setup([]);
    fireEvent.input(input, { target: { value: "x".repeat(10_000) } });
    fireEvent.submit(input.closest("form")!);
    expect(screen.getByTestId("search-status").textContent).toBe("A search can be at most 200 characters.");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(ask).not.toHaveBeenCalled();
    fireEvent.input(input, { target: { value: "fine" } });
    fireEvent.submit(input.closest("form")!);
    await waitFor(() => expect(screen.getByTestId("search-status").textContent).toBe("no more"));
  });

  it("stops at a bound and offers to search older messages, which continues where it stopped", async () => {
    const many = Array.from({ length: 50 }, (_, i) => hit(1000 - i, `common ${i}`, [[0, 6]]));
    const { asked, input } = setup([
      { hits: many, continueBefore: 950, truncated: true },
      { hits: [hit(10, "common last", [[0, 6]])], continueBefore: null, truncated: false },
    ]);
    fireEvent.input(input, { target: { value: "common" } });
    fireEvent.submit(input.closest("form")!);
    const more = await screen.findByRole("button", { name: "Search older messages" });
    expect(screen.getByTestId("search-status").textContent).toBe("50 matches so far, newest first.");
    fireEvent.click(more);
    await waitFor(() => expect(screen.getAllByTestId("search-hit")).toHaveLength(51));
    expect(asked.at(-1)).toEqual({ query: "common", before: 950 });
    expect(screen.queryByRole("button", { name: "Search older messages" })).toBeNull();
  });
});
