import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { describe, expect, it, vi } from "vitest";
import type { AckOf, ClientOpName, QueueEntry } from "../../../shared/viewer-protocol";
import type { OpInput, OpReply } from "../connection/op-client";
import { recordedActions } from "../session/recorded-actions";
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
const more = { cancel: noop, takeBack: noop, steer: noop, move: noop, edit: async () => true, editLost: noop, retry: noop };

describe("QueueChips", () => {
  it("one chip: clock, 'Queued', monospace preview, ✎ and ×; no steer unless advertised", () => {
    const onCancel = vi.fn();
    const onTakeBack = vi.fn();
    render(() => <QueueChips entries={[entry("q1", "fix the tests")]} canAct steering={false} actions={{ ...more, cancel: onCancel, takeBack: onTakeBack }} />);
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

  it("a queued image shows as its thumbnail only (named for screen readers), not as '[image]' text beside it", async () => {
    const withImage: QueueEntry = { ...entry("q1", "look at this"), blocks: [{ type: "text", text: "look at this" }, { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }] };
    render(() => <QueueChips entries={[withImage]} canAct steering={false} actions={more} />);
    const chip = screen.getByTestId("queue-chip");
    expect(chip.querySelector(".chip-preview")).toHaveTextContent(/^look at this$/);
    expect(chip).not.toHaveTextContent("[image]");
    expect(await screen.findByRole("button", { name: "Queued image 1 — show full size" })).not.toBeNull();
    // The chip's own name still says an image is queued.
    expect(chip.getAttribute("aria-label")).toContain("look at this");
    expect(chip.getAttribute("aria-label")).toMatch(/image/);
  });

  it("a stack: one chip per entry labelled by position, steer per entry when the agent supports it", () => {
    const onSteer = vi.fn();
    render(() => <QueueChips entries={[entry("a", "one"), entry("b", "two")]} canAct steering actions={{ ...more, steer: onSteer }} />);
    const chips = screen.getAllByTestId("queue-chip");
    expect(chips.map((c) => c.querySelector(".chip-label")?.textContent)).toEqual(["Queued · 1", "Queued · 2"]);
    const steers = screen.getAllByTestId("chip-steer");
    expect(steers).toHaveLength(2);
    fireEvent.click(steers[1]!);
    expect(onSteer).toHaveBeenCalledWith("b");
  });

  it("reorders with Alt+Arrow and the move buttons (queue.move's `before`)", async () => {
    const onMove = vi.fn();
    // The parent's entries never change here (no room): each move's pending order clears once it settles.
    const settle = () => new Promise((r) => setTimeout(r, 0));
    render(() => <QueueChips entries={[entry("a", "one"), entry("b", "two"), entry("c", "three")]} canAct steering={false} actions={{ ...more, move: onMove }} />);
    const chip = (id: string) => screen.getAllByTestId("queue-chip").find((c) => c.dataset["entryId"] === id)!;
    fireEvent.keyDown(chip("c"), { key: "ArrowUp", altKey: true });
    expect(onMove).toHaveBeenLastCalledWith("c", "b");
    // Shown in its new place at once.
    expect(screen.getAllByTestId("queue-chip").map((c) => c.dataset["entryId"])).toEqual(["a", "c", "b"]);
    await settle();
    expect(screen.getAllByTestId("queue-chip").map((c) => c.dataset["entryId"])).toEqual(["a", "b", "c"]);
    fireEvent.keyDown(chip("a"), { key: "ArrowDown", altKey: true });
    expect(onMove).toHaveBeenLastCalledWith("a", "c");
    await settle();
    fireEvent.keyDown(chip("b"), { key: "ArrowDown", altKey: true });
    expect(onMove).toHaveBeenLastCalledWith("b", null);
    await settle();
    // Plain arrows (no Alt) do nothing; the first cannot move earlier.
    fireEvent.keyDown(chip("b"), { key: "ArrowUp" });
    fireEvent.keyDown(chip("a"), { key: "ArrowUp", altKey: true });
    expect(onMove).toHaveBeenCalledTimes(3);
    expect(chip("a")).toHaveAttribute("aria-keyshortcuts", "Alt+ArrowUp Alt+ArrowDown");
    const earlier = screen.getAllByRole("button", { name: "Move earlier" });
    expect(earlier[0]).toBeDisabled();
    fireEvent.click(earlier[1]!);
    expect(onMove).toHaveBeenLastCalledWith("b", "a");
  });

  it("keyboard focus stays on a moved chip after the room answers", async () => {
    const [entries, setEntries] = createSignal([entry("a", "one"), entry("b", "two")]);
    const onMove = vi.fn(async () => {
      setEntries((l) => [l[1]!, l[0]!]);
    });
    render(() => <QueueChips entries={entries()} canAct steering={false} actions={{ ...more, move: onMove }} />);
    const b = screen.getAllByTestId("queue-chip")[1]!;
    b.focus();
    fireEvent.keyDown(b, { key: "ArrowUp", altKey: true });
    await waitFor(() => expect(screen.getAllByTestId("queue-chip").map((c) => c.dataset["entryId"])).toEqual(["b", "a"]));
    await waitFor(() => expect(document.activeElement?.getAttribute("data-entry-id")).toBe("b"));
  });

  it("keyboard focus is back on a moved chip at once, before the room answers", async () => {
    const onMove = vi.fn(() => new Promise<void>(() => {}));
    render(() => <QueueChips entries={[entry("a", "one"), entry("b", "two"), entry("c", "three")]} canAct steering={false} actions={{ ...more, move: onMove }} />);
    const c = screen.getAllByTestId("queue-chip")[2]!;
    c.focus();
    fireEvent.keyDown(c, { key: "ArrowUp", altKey: true });
    expect(screen.getAllByTestId("queue-chip").map((x) => x.dataset["entryId"])).toEqual(["a", "c", "b"]);
    await waitFor(() => expect(document.activeElement?.getAttribute("data-entry-id")).toBe("c"));
    // So a second Alt+↑ right away (no answer yet) moves it again.
    fireEvent.keyDown(document.activeElement!, { key: "ArrowUp", altKey: true });
    expect(onMove).toHaveBeenLastCalledWith("c", "a");
  });

  it("keyboard focus survives the room's queue_state landing after the ack (e.g. held by a replay)", async () => {
    const [entries, setEntries] = createSignal([entry("a", "one"), entry("b", "two"), entry("c", "three")]);
    // The ack resolves first: the optimistic order is dropped and the old order shows again…
    const onMove = vi.fn(async () => {});
    const settle = () => new Promise((r) => setTimeout(r, 0));
    render(() => <QueueChips entries={entries()} canAct steering={false} actions={{ ...more, move: onMove }} />);
    const c = screen.getAllByTestId("queue-chip")[2]!;
    c.focus();
    fireEvent.keyDown(c, { key: "ArrowUp", altKey: true });
    await settle();
    // …then the broadcast order arrives and the list re-renders around the focused chip.
    setEntries((l) => [l[0]!, l[2]!, l[1]!]);
    await waitFor(() => expect(screen.getAllByTestId("queue-chip").map((x) => x.dataset["entryId"])).toEqual(["a", "c", "b"]));
    await waitFor(() => expect(document.activeElement?.getAttribute("data-entry-id")).toBe("c"));
    // A second Alt+↑ on the focused chip moves it again.
    fireEvent.keyDown(document.activeElement!, { key: "ArrowUp", altKey: true });
    expect(onMove).toHaveBeenLastCalledWith("c", "a");
    // Focusing something else ends it: a later re-render does not pull focus back.
    await settle();
    const other = document.createElement("input");
    document.body.append(other);
    other.focus();
    setEntries((l) => [l[1]!, l[0]!, l[2]!]);
    await settle();
    expect(document.activeElement).toBe(other);
    other.remove();
  });

  it("a grip drag (touch or mouse pointer) moves an entry; the others slide to open the gap", () => {
    const onMove = vi.fn(() => new Promise<void>(() => {}));
    render(() => <QueueChips entries={[entry("a", "one"), entry("b", "two"), entry("c", "three")]} canAct steering={false} actions={{ ...more, move: onMove }} />);
    const chips = screen.getAllByTestId("queue-chip");
    // jsdom has no layout: chips 48 px tall, 54 px apart.
    chips.forEach((c, i) => (c.getBoundingClientRect = () => ({ top: i * 54, height: 48, bottom: i * 54 + 48, left: 0, right: 300, width: 300, x: 0, y: i * 54, toJSON: noop })));
    const grip = chips[2]!.querySelector<HTMLElement>("[data-testid=chip-grip]")!;
    fireEvent.pointerDown(grip, { pointerId: 7, pointerType: "touch", clientY: 130 });
    fireEvent.pointerMove(grip, { pointerId: 7, pointerType: "touch", clientY: 5 });
    expect(chips[2]).toHaveClass("dragging");
    expect(chips[2]!.style.transform).toBe("translateY(-125px)");
    expect(chips[0]!.style.transform).toBe("translateY(54px)");
    expect(chips[1]!.style.transform).toBe("translateY(54px)");
    // Another finger's moves are ignored.
    fireEvent.pointerMove(grip, { pointerId: 8, pointerType: "touch", clientY: 400 });
    fireEvent.pointerUp(grip, { pointerId: 7, pointerType: "touch", clientY: 5 });
    expect(onMove).toHaveBeenCalledWith("c", "a");
    // The new order shows at once, while the room's answer travels.
    expect(screen.getAllByTestId("queue-chip").map((c) => c.dataset["entryId"])).toEqual(["c", "a", "b"]);
    expect(chips[2]).not.toHaveClass("dragging");
  });

  it("the ⋯ menu (phones) toggles per chip and closes on a tap elsewhere or after an action", () => {
    const onMove = vi.fn();
    // One array (a store's entries keep their identity; an inline literal would be new on every read).
    const entries = [entry("a", "one"), entry("b", "two")];
    render(() => <QueueChips entries={entries} canAct steering actions={{ ...more, move: onMove }} />);
    const [moreA, moreB] = screen.getAllByTestId("chip-more");
    fireEvent.click(moreB!);
    expect(moreB).toHaveAttribute("aria-expanded", "true");
    expect(moreA).not.toHaveAttribute("aria-expanded", "true");
    fireEvent.pointerDown(document.body);
    expect(moreB).not.toHaveAttribute("aria-expanded", "true");
    fireEvent.click(moreB!);
    fireEvent.click(screen.getAllByRole("button", { name: /Move earlier/ })[1]!);
    expect(onMove).toHaveBeenCalledWith("b", "a");
    expect(moreB).not.toHaveAttribute("aria-expanded", "true");
  });

  it("a drag that ends where it began, or a cancelled pointer, moves nothing", () => {
    const onMove = vi.fn();
    render(() => <QueueChips entries={[entry("a", "one"), entry("b", "two")]} canAct steering={false} actions={{ ...more, move: onMove }} />);
    const chips = screen.getAllByTestId("queue-chip");
    chips.forEach((c, i) => (c.getBoundingClientRect = () => ({ top: i * 54, height: 48, bottom: i * 54 + 48, left: 0, right: 300, width: 300, x: 0, y: i * 54, toJSON: noop })));
    const grip = chips[0]!.querySelector<HTMLElement>("[data-testid=chip-grip]")!;
    fireEvent.pointerDown(grip, { pointerId: 1, pointerType: "mouse", button: 0, clientY: 20 });
    fireEvent.pointerMove(grip, { pointerId: 1, pointerType: "mouse", clientY: 40 });
    fireEvent.pointerUp(grip, { pointerId: 1, pointerType: "mouse", clientY: 40 });
    fireEvent.pointerDown(grip, { pointerId: 2, pointerType: "touch", clientY: 20 });
    fireEvent.pointerMove(grip, { pointerId: 2, pointerType: "touch", clientY: 200 });
    fireEvent.pointerCancel(grip, { pointerId: 2, pointerType: "touch" });
    fireEvent.pointerUp(grip, { pointerId: 2, pointerType: "touch", clientY: 200 });
    expect(onMove).not.toHaveBeenCalled();
    expect(chips[0]!.style.transform).toBe("");
  });

  it("steering / unconfirmed entries and failed steers are labelled; a steering entry cannot be taken back", () => {
    render(() => (
      <QueueChips
        entries={[entry("s", "now", "steering"), entry("i", "maybe", "indeterminate"), entry("f", "retry")]}
        steer={{ f: "failed" }}
        canAct
        steering
        actions={more}
      />
    ));
    const chips = screen.getAllByTestId("queue-chip");
    expect(chips[0]).toHaveTextContent("Steering…");
    expect(chips[0]!.querySelector("[data-testid=chip-edit]")).toBeDisabled();
    expect(chips[0]!.querySelector("[data-testid=chip-cancel]")).toBeDisabled();
    expect(chips[1]).toHaveTextContent("Unconfirmed");
    expect(chips[2]!.querySelector("[data-testid=chip-note]")).toHaveTextContent(/steer failed/);
  });

  it("read-only viewers see the chip without controls; entries by others name their author", () => {
    render(() => <QueueChips entries={[entry("a", "one", "queued", { id: "x", name: "Xan" })]} viewerId="me" canAct={false} steering actions={more} />);
    expect(screen.getByTestId("queue-chip")).toHaveTextContent("Xan");
    expect(screen.queryByTestId("chip-cancel")).toBeNull();
    expect(screen.queryByTestId("chip-edit")).toBeNull();
  });

  it("renders nothing with an empty queue", () => {
    render(() => <QueueChips entries={[]} canAct steering actions={more} />);
    expect(screen.queryByTestId("queue-chip")).toBeNull();
  });
});

describe("QueueChips wired to the session actions", () => {
  function wired(reply: (op: OpInput) => OpReply, initial = "") {
    const { actions, sent, notify, draft, setDraft } = recordedActions(reply, { initial });
    const [queue] = createSignal([entry("q1", "run the linter")]);
    render(() => (
      <>
        <QueueChips
          entries={queue()}
          canAct
          steering={false}
          actions={actions}
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

describe("QueueChips: edit in place (depth > 1)", () => {
  const three = () => [entry("a", "one"), entry("b", "two"), entry("c", "three")];

  it("✎ opens an inline editor prefilled with the entry; Enter saves through onEdit and closes", async () => {
    const onEdit = vi.fn(async () => true);
    const onTakeBack = vi.fn();
    render(() => <QueueChips entries={three()} queueDepth={3} canAct steering={false} actions={{ ...more, takeBack: onTakeBack, edit: onEdit }} />);
    const edit = screen.getAllByTestId("chip-edit")[1]!;
    expect(edit).toHaveAccessibleName("Edit queued message");
    fireEvent.click(edit);
    const input = screen.getByTestId("chip-editor-input") as HTMLTextAreaElement;
    expect(input.value).toBe("two");
    expect(document.activeElement).toBe(input);
    // One editor at a time; the other chips' ✎ wait.
    expect(screen.getAllByTestId("chip-edit").every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    fireEvent.input(input, { target: { value: "two, edited" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onEdit).toHaveBeenCalledWith(expect.objectContaining({ id: "b" }), "two, edited");
    await waitFor(() => expect(screen.queryByTestId("chip-editor")).toBeNull());
    expect(onTakeBack).not.toHaveBeenCalled();
  });

  it("Escape and Cancel close without saving; Save is disabled for empty text; 'To draft' takes it back", () => {
    const onEdit = vi.fn(async () => true);
    const onTakeBack = vi.fn();
    render(() => <QueueChips entries={three()} queueDepth={3} canAct steering={false} actions={{ ...more, takeBack: onTakeBack, edit: onEdit }} />);
    fireEvent.click(screen.getAllByTestId("chip-edit")[0]!);
    fireEvent.keyDown(screen.getByTestId("chip-editor-input"), { key: "Escape" });
    expect(screen.queryByTestId("chip-editor")).toBeNull();
    fireEvent.click(screen.getAllByTestId("chip-edit")[0]!);
    fireEvent.input(screen.getByTestId("chip-editor-input"), { target: { value: "  " } });
    expect(screen.getByTestId("chip-edit-save")).toBeDisabled();
    fireEvent.click(screen.getByTestId("chip-edit-cancel"));
    expect(screen.queryByTestId("chip-editor")).toBeNull();
    fireEvent.click(screen.getAllByTestId("chip-edit")[2]!);
    fireEvent.click(screen.getByTestId("chip-edit-draft"));
    expect(onTakeBack).toHaveBeenCalledWith("c");
    expect(onEdit).not.toHaveBeenCalled();
  });

  it("the editor stays open when the save fails (nothing typed is lost)", async () => {
    const onEdit = vi.fn(async () => false);
    render(() => <QueueChips entries={three()} queueDepth={3} canAct steering={false} actions={{ ...more, edit: onEdit }} />);
    fireEvent.click(screen.getAllByTestId("chip-edit")[0]!);
    fireEvent.input(screen.getByTestId("chip-editor-input"), { target: { value: "kept" } });
    fireEvent.click(screen.getByTestId("chip-edit-save"));
    await waitFor(() => expect(onEdit).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 0));
    expect((screen.getByTestId("chip-editor-input") as HTMLTextAreaElement).value).toBe("kept");
  });

  it("the entry leaving the queue under a changed editor hands the text over once; an unchanged one just closes", () => {
    const [entries, setEntries] = createSignal(three());
    const onEditLost = vi.fn();
    render(() => <QueueChips entries={entries()} queueDepth={3} canAct steering={false} actions={{ ...more, editLost: onEditLost }} />);
    fireEvent.click(screen.getAllByTestId("chip-edit")[0]!);
    fireEvent.input(screen.getByTestId("chip-editor-input"), { target: { value: "one, better" } });
    setEntries((l) => l.slice(1));
    expect(onEditLost).toHaveBeenCalledTimes(1);
    expect(onEditLost).toHaveBeenCalledWith(expect.objectContaining({ id: "a" }), "one, better");
    expect(screen.queryByTestId("chip-editor")).toBeNull();
    fireEvent.click(screen.getAllByTestId("chip-edit")[0]!);
    setEntries((l) => l.slice(1));
    expect(onEditLost).toHaveBeenCalledTimes(1);
  });

  it("says so when another viewer changed the entry under the editor", () => {
    const [entries, setEntries] = createSignal(three());
    render(() => <QueueChips entries={entries()} queueDepth={3} canAct steering={false} actions={more} />);
    fireEvent.click(screen.getAllByTestId("chip-edit")[1]!);
    expect(screen.getByTestId("chip-editor")).not.toHaveTextContent(/someone else/);
    setEntries((l) => [l[0]!, { ...l[1]!, blocks: [{ type: "text", text: "two (theirs)" }] }, l[2]!]);
    expect(screen.getByTestId("chip-editor")).toHaveTextContent(/Changed by someone else/);
  });
});

describe("QueueChips: unconfirmed steer", () => {
  it("an indeterminate entry offers an explicit retry (steer mid-turn, run next when idle) and cancel — no steer button", () => {
    const onRetry = vi.fn();
    const [active, setActive] = createSignal(true);
    render(() => (
      <QueueChips entries={[entry("i", "maybe", "indeterminate")]} canAct steering={active()} turnActive={active()} actions={{ ...more, retry: onRetry }} />
    ));
    const chip = screen.getByTestId("queue-chip");
    expect(chip).toHaveTextContent("Unconfirmed");
    expect(chip).toHaveTextContent("may have reached the agent");
    expect(screen.queryByTestId("chip-steer")).toBeNull();
    expect(screen.getByTestId("chip-retry")).toHaveTextContent("Retry");
    fireEvent.click(screen.getByTestId("chip-retry"));
    expect(onRetry).toHaveBeenCalledWith("i");
    setActive(false);
    expect(screen.getByTestId("chip-retry")).toHaveTextContent("Send");
    expect(screen.getByTestId("chip-cancel")).toBeInTheDocument();
  });
});

describe("session actions: edit, retry, re-queue", () => {
  const actionsWith = (reply: (op: OpInput, i: number) => OpReply, initial = "") => recordedActions(reply, { initial });
  const ack = <K extends ClientOpName>(op: K, result: AckOf<K>): OpReply => ({ type: "ack", rid: "r", op, result }) as OpReply;

  it("edit sends queue.edit with the new text (attachments kept) and leaves the draft alone", async () => {
    const image = { type: "image" as const, mimeType: "image/png", data: "AA" };
    const { actions, sent, draft } = actionsWith(() => ack("queue.edit", { outcome: "edited" }), "mine");
    expect(await actions.edit({ id: "q", blocks: [{ type: "text", text: "old" }, image] }, "new")).toBe(true);
    expect(sent).toEqual([{ op: "queue.edit", id: "q", blocks: [{ type: "text", text: "new" }, image] }]);
    expect(draft().text).toBe("mine");
  });

  it("an edit that lost the race to the flush (already_sent) lands in the draft with a note", async () => {
    const { actions, notify, draft } = actionsWith(() => ack("queue.edit", { outcome: "already_sent" }), "typing");
    expect(await actions.edit({ id: "q", blocks: [{ type: "text", text: "old" }] }, "improved")).toBe(true);
    expect(draft().text).toBe("typing\n\nimproved");
    expect(notify).toHaveBeenCalledWith(expect.stringMatching(/already ran/), "error");
  });

  it("a refused edit keeps the editor open", async () => {
    const { actions, notify } = actionsWith(() => ({ type: "error", rid: "r", code: "RATE_LIMITED", message: "slow" }));
    expect(await actions.edit({ id: "q", blocks: [{ type: "text", text: "old" }] }, "x")).toBe(false);
    expect(notify).toHaveBeenCalledWith(expect.stringMatching(/Slow down/), "error");
  });

  it("retry says when the entry runs as the next turn", async () => {
    const { actions, sent, notify } = actionsWith(() => ack("queue.steer", { outcome: "requeued" }));
    await actions.retry("i");
    expect(sent).toEqual([{ op: "queue.steer", id: "i" }]);
    expect(notify).toHaveBeenCalledWith(expect.stringMatching(/next turn/));
  });

  const dropped = [entry("d1", "first"), entry("d2", "second"), entry("d3", "third")];

  it("re-queue sends the dropped entries in order with derived ids: first runs, the rest queue", async () => {
    const { actions, sent, notify, draft } = actionsWith((_op, i) => ack("message.send", { queued: i > 0 }));
    expect(await actions.requeue(dropped)).toEqual({ sent: 1, queued: 2, duplicate: 0, taken: 0, kept: 0 });
    expect(sent.map((o) => (o.op === "message.send" ? [o.id, o.blocks] : null))).toEqual([
      ["rq:d1", dropped[0]!.blocks],
      ["rq:d2", dropped[1]!.blocks],
      ["rq:d3", dropped[2]!.blocks],
    ]);
    // No toast: the row that runs and the chips that wait say it.
    expect(notify).not.toHaveBeenCalled();
    expect(draft().text).toBe("");
  });

  it("what the queue cannot take is claimed for this draft (nobody else re-queues it), in order, with one error", async () => {
    const { actions, sent, notify, draft } = actionsWith((_op, i) =>
      i < 2
        ? ack("message.send", { queued: i > 0 })
        : i === 2
          ? { type: "error", rid: "r", code: "QUEUE_FULL", message: "full" }
          : ack("queue.claimDropped", { claimed: ["d3"] }),
    );
    expect(await actions.requeue(dropped)).toEqual({ sent: 1, queued: 1, duplicate: 0, taken: 0, kept: 1 });
    expect(sent).toHaveLength(4);
    expect(sent[3]).toEqual({ op: "queue.claimDropped", ids: ["d3"] });
    expect(draft().text).toBe("third");
    expect(notify).toHaveBeenCalledWith("The queue is full — 1 message went back to your draft.", "error");
  });

  it("a second viewer re-queueing the same Stop runs nothing twice (duplicate acks) and is told", async () => {
    const { actions, notify } = actionsWith(() => ack("message.send", { queued: true, duplicate: true }));
    expect(await actions.requeue(dropped)).toMatchObject({ duplicate: 3 });
    expect(notify).toHaveBeenCalledWith(expect.stringMatching(/already re-queued/));
  });
});
