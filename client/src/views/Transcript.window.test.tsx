import { fireEvent, render, screen } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { describe, expect, it } from "vitest";
import type { Row } from "../../../shared/fold";
import { EARLIER_PAGE_ROWS, Transcript, WINDOW_ROWS, windowStart } from "./Transcript";

const notice = (i: number): Row => ({ kind: "notice", id: `n${i}`, level: "info", text: `note ${i}` });
const rowsUpTo = (n: number) => Array.from({ length: n }, (_, i) => notice(i));
const rendered = () => screen.queryAllByText(/^note \d+$/).map((el) => el.textContent);

describe("Transcript window (long sessions mount only their end)", () => {
  it("windowStart keeps the last `shown` rows", () => {
    expect(windowStart(10, 120)).toBe(0);
    expect(windowStart(500, 120)).toBe(380);
  });

  it("mounts the last WINDOW_ROWS rows and offers the rest a page at a time", () => {
    render(() => <Transcript rows={rowsUpTo(500)} canAct onPermission={() => {}} />);
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
