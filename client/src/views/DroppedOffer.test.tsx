import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { describe, expect, it, vi } from "vitest";
import type { QueueEntry } from "../../../shared/viewer-protocol";
import { DroppedOffer } from "./DroppedOffer";

const entry = (id: string, text: string): QueueEntry => ({ id, blocks: [{ type: "text", text }], author: { id: "a", name: "Ann" }, createdAt: 1, state: "queued" });

describe("DroppedOffer", () => {
  it("shows what Stop dropped with Re-queue, Restore to draft and dismiss", async () => {
    let release!: () => void;
    const onRequeue = vi.fn(() => new Promise<void>((r) => (release = r)));
    const onRestore = vi.fn();
    const onDismiss = vi.fn();
    render(() => <DroppedOffer entries={[entry("a", "first thing"), entry("b", "second")]} canAct onRequeue={onRequeue} onRestore={onRestore} onDismiss={onDismiss} />);
    const offer = screen.getByTestId("dropped-offer");
    expect(offer).toHaveTextContent("Dropped by Stop (2)");
    expect(offer).toHaveTextContent("first thing");
    fireEvent.click(screen.getByTestId("requeue-dropped"));
    expect(onRequeue).toHaveBeenCalledTimes(1);
    // No double submit while the sends travel.
    expect(screen.getByTestId("requeue-dropped")).toBeDisabled();
    release();
    await waitFor(() => expect(screen.getByTestId("requeue-dropped")).not.toBeDisabled());
    fireEvent.click(screen.getByTestId("restore-dropped"));
    expect(onRestore).toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("dismiss-dropped"));
    expect(onDismiss).toHaveBeenCalled();
  });

  it("read-only viewers can copy to their draft but not re-queue; nothing dropped renders nothing", () => {
    const { unmount } = render(() => <DroppedOffer entries={[entry("a", "x")]} canAct={false} onRequeue={async () => {}} onRestore={() => {}} onDismiss={() => {}} />);
    expect(screen.queryByTestId("requeue-dropped")).toBeNull();
    expect(screen.getByTestId("restore-dropped")).toBeInTheDocument();
    unmount();
    render(() => <DroppedOffer entries={[]} canAct onRequeue={async () => {}} onRestore={() => {}} onDismiss={() => {}} />);
    expect(screen.queryByTestId("dropped-offer")).toBeNull();
  });
});
