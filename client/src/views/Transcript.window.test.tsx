import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { describe, expect, it } from "vitest";
import type { Row } from "../../../shared/fold";
import { EARLIER_PAGE_ROWS, LANDING_STEP_ROWS, Transcript, WINDOW_ROWS, windowStart } from "./Transcript";

const notice = (i: number): Row => ({ kind: "notice", id: `n${i}`, level: "info", text: `note ${i}` });
const rowsUpTo = (n: number) => Array.from({ length: n }, (_, i) => notice(i));
const rendered = () => screen.queryAllByText(/^note \d+$/).map((el) => el.textContent);
const busy = () => screen.getByTestId("transcript").getAttribute("aria-busy");
/** A landing is a few tasks, but on a loaded 2-core CI box (jsdom beside the e2e runs) it took over waitFor's 1 s. */
const LANDING_WAIT_MS = 15_000;
/** Waits out a landing: the window is mounted a step per task. */
const landed = () => waitFor(() => expect(busy()).toBe("false"), { timeout: LANDING_WAIT_MS });

describe("Transcript window (long sessions mount only their end)", () => {
  it("windowStart keeps the last `shown` rows", () => {
    expect(windowStart(10, 120)).toBe(0);
    expect(windowStart(500, 120)).toBe(380);
  });

  it("mounts the last WINDOW_ROWS rows and offers the rest a page at a time", async () => {
    render(() => <Transcript rows={rowsUpTo(500)} canAct onPermission={() => {}} />);
    await landed();
    expect(rendered()).toHaveLength(WINDOW_ROWS);
    expect(rendered().at(-1)).toBe("note 499");
    const more = screen.getByTestId("show-earlier");
    expect(more).toHaveTextContent(`(${500 - WINDOW_ROWS})`);
    fireEvent.click(more);
    expect(rendered()).toHaveLength(WINDOW_ROWS + EARLIER_PAGE_ROWS);
    expect(rendered()[0]).toBe(`note ${500 - WINDOW_ROWS - EARLIER_PAGE_ROWS}`);
  });

  it("a short transcript renders whole, without the button", () => {
    render(() => <Transcript rows={rowsUpTo(5)} canAct onPermission={() => {}} />);
    expect(rendered()).toHaveLength(5);
    expect(screen.queryByTestId("show-earlier")).toBeNull();
  });

  it("a long transcript landing at once mounts its newest rows first, then the rest of the window a step per task", async () => {
    const [rows, setRows] = createSignal<Row[]>([]);
    render(() => <Transcript rows={rows()} canAct onPermission={() => {}} />);
    expect(busy()).toBe("false");
    setRows(rowsUpTo(500));
    // The store write's own task mounts one step, the newest rows: what is on screen at the bottom.
    expect(rendered()).toEqual(rowsUpTo(500).slice(-LANDING_STEP_ROWS).map((r) => (r.kind === "notice" ? r.text : "")));
    expect(busy()).toBe("true");
    const counts: number[] = [];
    await waitFor(
      () => {
        counts.push(rendered().length);
        expect(busy()).toBe("false");
      },
      { timeout: LANDING_WAIT_MS },
    );
    expect(rendered()).toHaveLength(WINDOW_ROWS);
    expect(rendered().at(-1)).toBe("note 499");
    // It grew through intermediate steps, never past the window.
    expect(Math.max(...counts)).toBeLessThanOrEqual(WINDOW_ROWS);
    expect(new Set(counts).size).toBeGreaterThan(1);
    // Rows arriving one by one afterwards (streaming) mount at once.
    setRows(rowsUpTo(501));
    expect(rendered().at(-1)).toBe("note 500");
    expect(busy()).toBe("false");
  });

  it("a reader up the page is not moved by a landing: a replay appended while they read mounts whole", () => {
    const [rows, setRows] = createSignal(rowsUpTo(10));
    render(() => <Transcript rows={rows()} following={false} canAct onPermission={() => {}} />);
    setRows(rowsUpTo(100));
    expect(busy()).toBe("false");
    expect(rendered()).toHaveLength(100);
  });

  it("new rows slide the window at the bottom, but grow it while the reader is up the page", () => {
    const [rows, setRows] = createSignal(rowsUpTo(300));
    const [following, setFollowing] = createSignal(false);
    render(() => <Transcript rows={rows()} following={following()} canAct onPermission={() => {}} />);
    const first = rendered()[0];
    setRows(rowsUpTo(310));
    expect(rendered()[0]).toBe(first); // nothing unmounted above the reader
    expect(rendered()).toHaveLength(WINDOW_ROWS + 10);
    setFollowing(true);
    expect(rendered()).toHaveLength(WINDOW_ROWS);
    setRows(rowsUpTo(320));
    expect(rendered()).toHaveLength(WINDOW_ROWS);
    expect(rendered().at(-1)).toBe("note 319");
  });
});
