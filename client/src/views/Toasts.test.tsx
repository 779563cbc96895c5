// Toasts wait while someone reads or reaches for one (issue 32 #5): the pointer over the list or the focus
// in it holds them; once both are gone they count on.
import { fireEvent, render, screen } from "@solidjs/testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dismissToast, toast, toasts } from "../lib/toasts";
import { Toasts } from "./Toasts";

/** Past the longest toast (an error's 7 s). */
const LONG_MS = 20_000;

describe("toasts", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    for (const t of toasts()) dismissToast(t.id);
    vi.useRealTimers();
  });

  it("go by themselves when nobody is on them", () => {
    render(() => <Toasts />);
    toast("Saved");
    expect(screen.getByTestId("toast")).toHaveTextContent("Saved");
    vi.advanceTimersByTime(LONG_MS);
    expect(screen.queryByTestId("toast")).toBeNull();
  });

  it("stay while hovered, and go a while after the pointer leaves", () => {
    render(() => <Toasts />);
    toast("Could not send", "error");
    const list = screen.getByTestId("toast").parentElement!;
    fireEvent.mouseEnter(list);
    toast("A second one, while hovered");
    vi.advanceTimersByTime(LONG_MS);
    expect(screen.getAllByTestId("toast")).toHaveLength(2);
    fireEvent.mouseLeave(list);
    expect(screen.getAllByTestId("toast")).toHaveLength(2);
    vi.advanceTimersByTime(LONG_MS);
    expect(screen.queryByTestId("toast")).toBeNull();
  });

  it("stay while the focus is in them (their Dismiss button), hover or not", () => {
    render(() => <Toasts />);
    toast("Removed");
    const list = screen.getByTestId("toast").parentElement!;
    const dismiss = screen.getByRole("button", { name: "Dismiss" });
    fireEvent.focusIn(dismiss);
    fireEvent.mouseEnter(list);
    fireEvent.mouseLeave(list);
    vi.advanceTimersByTime(LONG_MS);
    expect(screen.getByTestId("toast")).toHaveTextContent("Removed");
    fireEvent.focusOut(dismiss, { relatedTarget: document.body });
    vi.advanceTimersByTime(LONG_MS);
    expect(screen.queryByTestId("toast")).toBeNull();
  });
});
