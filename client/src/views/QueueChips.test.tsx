import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { describe, expect, it, vi } from "vitest";
import type { QueueEntry } from "../../../shared/viewer-protocol";
import type { OpInput, OpReply } from "../connection/op-client";
import { type Draft, EMPTY_DRAFT } from "../session/composer-logic";
import { makeSessionActions } from "../session/session-actions";
import { QueueChips } from "./QueueChips";
import { Sender } from "./Sender";

const entry = (id: string, text: string, state: QueueEntry["state"] = "queued", author = { id: "a", name: "Ann" }): QueueEntry => ({
  id,
  blocks: [{ type: "text", text }],
  author,
  createdAt: 1,
  state,
});
const noop = () => {};

describe("QueueChips", () => {
  it("one chip: clock, 'Queued', monospace preview, ✎ and ×; no steer unless advertised", () => {
    const onCancel = vi.fn();
    const onTakeBack = vi.fn();
    render(() => <QueueChips entries={[entry("q1", "fix the tests")]} canAct steering={false} onCancel={onCancel} onTakeBack={onTakeBack} onSteer={noop} onMove={noop} />);
    const chip = screen.getByTestId("queue-chip");
    expect(chip).toHaveTextContent("Queued");
    expect(chip.querySelector(".chip-preview")).toHaveTextContent("fix the tests");
    expect(chip.querySelector(".chip-clock svg")).not.toBeNull();
    expect(screen.queryByTestId("chip-steer")).toBeNull();
    fireEvent.click(screen.getByTestId("chip-cancel"));
    expect(onCancel).toHaveBeenCalledWith("q1");
    fireEvent.click(screen.getByTestId("chip-edit"));
    expect(onTakeBack).toHaveBeenCalledWith("q1");
  });

  it("a stack: one chip per entry labelled by position, steer per entry when the agent supports it", () => {
    const onSteer = vi.fn();
    render(() => <QueueChips entries={[entry("a", "one"), entry("b", "two")]} canAct steering onCancel={noop} onTakeBack={noop} onSteer={onSteer} onMove={noop} />);
    const chips = screen.getAllByTestId("queue-chip");
    expect(chips.map((c) => c.querySelector(".chip-label")?.textContent)).toEqual(["Queued · 1", "Queued · 2"]);
    const steers = screen.getAllByTestId("chip-steer");
    expect(steers).toHaveLength(2);
    fireEvent.click(steers[1]!);
    expect(onSteer).toHaveBeenCalledWith("b");
  });

  it("reorders with Alt+Arrow and the move buttons (queue.move's `before`)", () => {
    const onMove = vi.fn();
    render(() => <QueueChips entries={[entry("a", "one"), entry("b", "two"), entry("c", "three")]} canAct steering={false} onCancel={noop} onTakeBack={noop} onSteer={noop} onMove={onMove} />);
    const chips = screen.getAllByTestId("queue-chip");
    fireEvent.keyDown(chips[2]!, { key: "ArrowUp", altKey: true });
    expect(onMove).toHaveBeenLastCalledWith("c", "b");
    fireEvent.keyDown(chips[0]!, { key: "ArrowDown", altKey: true });
    expect(onMove).toHaveBeenLastCalledWith("a", "c");
    fireEvent.keyDown(chips[1]!, { key: "ArrowDown", altKey: true });
    expect(onMove).toHaveBeenLastCalledWith("b", null);
    // Plain arrows (no Alt) do nothing; the first cannot move earlier.
    fireEvent.keyDown(chips[1]!, { key: "ArrowUp" });
    fireEvent.keyDown(chips[0]!, { key: "ArrowUp", altKey: true });
    expect(onMove).toHaveBeenCalledTimes(3);
    const earlier = screen.getAllByRole("button", { name: "Move earlier" });
    expect(earlier[0]).toBeDisabled();
    fireEvent.click(earlier[1]!);
    expect(onMove).toHaveBeenLastCalledWith("b", "a");
  });

  it("drag and drop moves an entry onto another's place", () => {
    const onMove = vi.fn();
    render(() => <QueueChips entries={[entry("a", "one"), entry("b", "two"), entry("c", "three")]} canAct steering={false} onCancel={noop} onTakeBack={noop} onSteer={noop} onMove={onMove} />);
    const [a, , c] = screen.getAllByTestId("queue-chip");
    fireEvent.dragStart(c!, { dataTransfer: { setData: noop, effectAllowed: "" } });
    fireEvent.dragOver(a!);
    fireEvent.drop(a!);
    expect(onMove).toHaveBeenCalledWith("c", "a");
    fireEvent.dragStart(a!, { dataTransfer: { setData: noop, effectAllowed: "" } });
    fireEvent.drop(c!);
    expect(onMove).toHaveBeenLastCalledWith("a", null);
  });

  it("steering / unconfirmed entries and failed steers are labelled; a steering entry cannot be taken back", () => {
    render(() => (
      <QueueChips
        entries={[entry("s", "now", "steering"), entry("i", "maybe", "indeterminate"), entry("f", "retry")]}
        steer={{ f: "failed" }}
        canAct
        steering
        onCancel={noop}
        onTakeBack={noop}
        onSteer={noop}
        onMove={noop}
      />
    ));
    const chips = screen.getAllByTestId("queue-chip");
    expect(chips[0]).toHaveTextContent("Steering…");
    expect(chips[0]!.querySelector("[data-testid=chip-edit]")).toBeDisabled();
    expect(chips[1]).toHaveTextContent("Unconfirmed");
    expect(chips[2]!.querySelector("[data-testid=chip-note]")).toHaveTextContent(/steer failed/);
  });

  it("read-only viewers see the chip without controls; entries by others name their author", () => {
    render(() => <QueueChips entries={[entry("a", "one", "queued", { id: "x", name: "Xan" })]} viewerId="me" canAct={false} steering onCancel={noop} onTakeBack={noop} onSteer={noop} onMove={noop} />);
    expect(screen.getByTestId("queue-chip")).toHaveTextContent("Xan");
    expect(screen.queryByTestId("chip-cancel")).toBeNull();
    expect(screen.queryByTestId("chip-edit")).toBeNull();
  });

  it("renders nothing with an empty queue", () => {
    render(() => <QueueChips entries={[]} canAct steering onCancel={noop} onTakeBack={noop} onSteer={noop} onMove={noop} />);
    expect(screen.queryByTestId("queue-chip")).toBeNull();
  });
});

describe("QueueChips wired to the session actions", () => {
  function wired(reply: (op: OpInput) => OpReply, initial = "") {
    const sent: OpInput[] = [];
    const notify = vi.fn();
    const [draft, setDraft] = createSignal<Draft>({ ...EMPTY_DRAFT, text: initial });
    const [queue] = createSignal([entry("q1", "run the linter")]);
    const actions = makeSessionActions({
      request: async (op) => {
        sent.push(op);
        return reply(op);
      },
      draft,
      setDraft,
      notify,
    });
    render(() => (
      <>
        <QueueChips
          entries={queue()}
          canAct
          steering={false}
          onCancel={(id) => void actions.cancel(id)}
          onTakeBack={(id) => void actions.takeBack(id)}
          onSteer={noop}
          onMove={noop}
        />
        <Sender draft={draft()} onDraft={setDraft} turnActive canAct config={null} onSend={noop} onStop={noop} onSelect={noop} />
      </>
    ));
    return { sent, notify, input: screen.getByTestId("composer-input") as HTMLTextAreaElement };
  }

  it("× sends queue.cancel for that entry and leaves the draft alone", async () => {
    const { sent, input } = wired(() => ({ type: "ack", rid: "r", op: "queue.cancel", result: { outcome: "cancelled", entry: entry("q1", "run the linter") } }), "mine");
    fireEvent.click(screen.getByTestId("chip-cancel"));
    await waitFor(() => expect(sent).toEqual([{ op: "queue.cancel", id: "q1" }]));
    expect(input.value).toBe("mine");
  });

  it("✎ take-back cancels and refills the composer with the returned entry's blocks", async () => {
    const { sent, input } = wired(() => ({ type: "ack", rid: "r", op: "queue.cancel", result: { outcome: "cancelled", entry: entry("q1", "run the linter") } }));
    fireEvent.click(screen.getByTestId("chip-edit"));
    await waitFor(() => expect(input.value).toBe("run the linter"));
    expect(sent).toEqual([{ op: "queue.cancel", id: "q1" }]);
  });

  it("take-back keeps what was typed and appends the entry after it", async () => {
    const { input } = wired(() => ({ type: "ack", rid: "r", op: "queue.cancel", result: { outcome: "cancelled", entry: entry("q1", "run the linter") } }), "also");
    fireEvent.click(screen.getByTestId("chip-edit"));
    await waitFor(() => expect(input.value).toBe("also\n\nrun the linter"));
  });

  it("take-back of an entry that already ran says so and does not touch the draft", async () => {
    const { input, notify } = wired(() => ({ type: "ack", rid: "r", op: "queue.cancel", result: { outcome: "already_sent" } }));
    fireEvent.click(screen.getByTestId("chip-edit"));
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.stringMatching(/already ran/), "error"));
    expect(input.value).toBe("");
  });
});
