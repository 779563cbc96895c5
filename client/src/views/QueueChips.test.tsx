import { fireEvent, render, screen } from "@solidjs/testing-library";
import { describe, expect, it, vi } from "vitest";
import type { QueueEntry } from "../../../shared/viewer-protocol";
import { QueueChips } from "./QueueChips";

const entry = (id: string, text: string): QueueEntry => ({ id, blocks: [{ type: "text", text }], author: { id: "a", name: "Ann" }, createdAt: 1, state: "queued" });

describe("QueueChips", () => {
  it("renders a chip per entry with preview; × cancels, ✎ takes back, steer only when enabled", () => {
    const onCancel = vi.fn();
    const onTakeBack = vi.fn();
    const onSteer = vi.fn();
    render(() => (
      <QueueChips entries={[entry("q1", "fix the tests")]} canAct steering={false} onCancel={onCancel} onTakeBack={onTakeBack} onSteer={onSteer} onMove={() => {}} />
    ));
    expect(screen.getByTestId("queue-chip")).toHaveTextContent("fix the tests");
    expect(screen.queryByTestId("chip-steer")).toBeNull();
    fireEvent.click(screen.getByTestId("chip-cancel"));
    expect(onCancel).toHaveBeenCalledWith("q1");
    fireEvent.click(screen.getByTestId("chip-edit"));
    expect(onTakeBack).toHaveBeenCalledWith("q1");
  });

  it("a stack reorders with Alt+Arrow and offers steer when the agent supports it", () => {
    const onMove = vi.fn();
    render(() => (
      <QueueChips entries={[entry("a", "one"), entry("b", "two")]} canAct steering onCancel={() => {}} onTakeBack={() => {}} onSteer={() => {}} onMove={onMove} />
    ));
    const chips = screen.getAllByTestId("queue-chip");
    expect(chips).toHaveLength(2);
    expect(screen.getAllByTestId("chip-steer")).toHaveLength(2);
    fireEvent.keyDown(chips[1]!, { key: "ArrowUp", altKey: true });
    expect(onMove).toHaveBeenCalledWith("b", "a");
    fireEvent.keyDown(chips[0]!, { key: "ArrowDown", altKey: true });
    expect(onMove).toHaveBeenLastCalledWith("a", null);
  });

  it("read-only viewers see the chip without controls", () => {
    render(() => <QueueChips entries={[entry("a", "one")]} canAct={false} steering onCancel={() => {}} onTakeBack={() => {}} onSteer={() => {}} onMove={() => {}} />);
    expect(screen.queryByTestId("chip-cancel")).toBeNull();
  });
});
