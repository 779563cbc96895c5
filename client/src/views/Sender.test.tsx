import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { describe, expect, it, vi } from "vitest";
import type { ConfigState } from "../../../shared/viewer-protocol";
import type { OpInput, OpReply } from "../connection/op-client";
import { type Draft, EMPTY_DRAFT } from "../session/composer-logic";
import { recordedActions } from "../session/recorded-actions";
import { makeSessionActions } from "../session/session-actions";
import { Sender } from "./Sender";

const CONFIG: ConfigState = {
  modes: { currentModeId: "code", availableModes: [{ id: "ask", name: "Ask" }, { id: "code", name: "Code" }] },
  models: null,
  configOptions: [
    { id: "model", name: "Model", category: "model", type: "select", currentValue: "fast", options: [{ value: "fast", name: "Fast" }, { value: "smart", name: "Smart" }] },
    { id: "effort", name: "Thinking effort", category: "thought_level", type: "select", currentValue: "low", options: [{ value: "low", name: "Low" }, { value: "high", name: "High" }] },
  ],
  steering: false,
  images: false,
  queueDepth: 1,
  mergeQueued: false,
};

function setup(opts: { turnActive?: boolean; config?: ConfigState | null; canAct?: boolean; text?: string } = {}) {
  const onSend = vi.fn();
  const onStop = vi.fn();
  const onSelect = vi.fn();
  const [draft, setDraft] = createSignal<Draft>({ text: opts.text ?? "", attachments: [] });
  const [turnActive, setTurnActive] = createSignal(opts.turnActive ?? false);
  render(() => (
    <Sender
      draft={draft()}
      onDraft={setDraft}
      turnActive={turnActive()}
      canAct={opts.canAct ?? true}
      config={opts.config === undefined ? CONFIG : opts.config}
      onSend={onSend}
      onStop={onStop}
      onSelect={onSelect}
    />
  ));
  const input = screen.getByTestId("composer-input") as HTMLTextAreaElement;
  return { onSend, onStop, onSelect, draft, setTurnActive, input };
}

describe("Sender: buttons", () => {
  it("idle: Send only (disabled while empty), no Stop", () => {
    const { input } = setup();
    expect(screen.queryByTestId("stop-button")).toBeNull();
    expect(screen.getByTestId("send-button")).toHaveAttribute("title", "Send");
    expect(screen.getByTestId("send-button")).toBeDisabled();
    fireEvent.input(input, { target: { value: "hello" } });
    expect(screen.getByTestId("send-button")).toBeEnabled();
  });

  it("mid-turn: Stop alone with an empty draft; 'Queue message' beside Stop once there is a draft", () => {
    const { input, onStop, onSend } = setup({ turnActive: true });
    expect(screen.getByTestId("stop-button")).toBeInTheDocument();
    expect(screen.queryByTestId("send-button")).toBeNull();
    fireEvent.input(input, { target: { value: "later" } });
    const send = screen.getByTestId("send-button");
    expect(send).toHaveAttribute("title", "Queue message");
    expect(screen.getByTestId("stop-button")).toBeInTheDocument();
    // Side by side in one action group.
    expect(send.parentElement).toBe(screen.getByTestId("stop-button").parentElement);
    fireEvent.click(screen.getByTestId("stop-button"));
    expect(onStop).toHaveBeenCalledTimes(1);
    fireEvent.click(send);
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it("the buttons follow the turn: a turn starting turns Send into Queue + Stop", () => {
    const { input, setTurnActive } = setup({ text: "draft" });
    expect(screen.getByTestId("send-button")).toHaveAttribute("title", "Send");
    setTurnActive(true);
    expect(screen.getByTestId("send-button")).toHaveAttribute("title", "Queue message");
    expect(screen.getByTestId("stop-button")).toBeInTheDocument();
    fireEvent.input(input, { target: { value: "  " } });
    expect(screen.queryByTestId("send-button")).toBeNull();
  });

  it("read-only viewers get neither Send nor Stop and a disabled input", () => {
    const { input } = setup({ turnActive: true, canAct: false });
    expect(screen.queryByTestId("send-button")).toBeNull();
    expect(screen.queryByTestId("stop-button")).toBeNull();
    expect(input).toBeDisabled();
  });
});

describe("Sender: keys", () => {
  it("Enter sends, Shift+Enter does not, an empty draft does not", () => {
    const { input, onSend } = setup();
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.input(input, { target: { value: "hello" } });
    fireEvent.keyDown(input, { key: "Enter", shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it("no send while an IME composition is active (or on its confirming Enter)", () => {
    const { input, onSend } = setup({ text: "にほん" });
    fireEvent.keyDown(input, { key: "Enter", isComposing: true });
    fireEvent.keyDown(input, { key: "Enter", keyCode: 229 });
    fireEvent.compositionStart(input);
    fireEvent.keyDown(input, { key: "Enter" });
    fireEvent.compositionEnd(input);
    fireEvent.keyDown(input, { key: "Enter" }); // the confirming Enter right after compositionend
    expect(onSend).not.toHaveBeenCalled();
  });

  it("mid-turn Enter queues (same handler as the Queue message button)", () => {
    const { input, onSend } = setup({ turnActive: true, text: "next" });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it("uses a 16 px-friendly textarea (no iOS zoom) that the CSS sizes; it is a real textarea", () => {
    const { input } = setup();
    expect(input.tagName).toBe("TEXTAREA");
    expect(input).toHaveClass("composer-input");
  });
});

describe("Sender: selects", () => {
  it("shows only what the agent advertised", () => {
    setup({ config: { ...CONFIG, modes: null, configOptions: [] } });
    expect(screen.queryByTestId("model-select")).toBeNull();
    expect(screen.queryByTestId("mode-select")).toBeNull();
    expect(screen.queryByTestId("effort-select")).toBeNull();
  });

  it("no config yet: no selects at all", () => {
    setup({ config: null });
    expect(screen.queryByRole("combobox")).toBeNull();
  });

  it("model from config options, mode from legacy modes, thought_level as Effort", () => {
    setup();
    expect((screen.getByTestId("model-select") as HTMLSelectElement).value).toBe("fast");
    expect((screen.getByTestId("mode-select") as HTMLSelectElement).value).toBe("code");
    const effort = screen.getByTestId("effort-select") as HTMLSelectElement;
    expect(effort).toHaveAccessibleName("Effort");
    expect([...effort.options].map((o) => o.textContent)).toEqual(["Low", "High"]);
  });

  it("legacy models give a model select when there is no model config option", () => {
    setup({ config: { ...CONFIG, configOptions: [], models: { currentModelId: "m2", availableModels: [{ modelId: "m1", name: "One" }, { modelId: "m2", name: "Two" }] } } });
    expect((screen.getByTestId("model-select") as HTMLSelectElement).value).toBe("m2");
  });

  it("a mode config option wins over legacy modes", () => {
    setup({
      config: {
        ...CONFIG,
        configOptions: [{ id: "perm", name: "Permissions", category: "mode", type: "select", currentValue: "auto", options: [{ value: "auto", name: "Auto" }, { value: "ask", name: "Ask first" }] }],
      },
    });
    const mode = screen.getByTestId("mode-select") as HTMLSelectElement;
    expect(mode.value).toBe("auto");
    expect([...mode.options].map((o) => o.value)).toEqual(["auto", "ask"]);
  });

  it("stay writable mid-turn, titled 'applies from the next turn', and write through onSelect", () => {
    const { onSelect } = setup({ turnActive: true });
    for (const id of ["model-select", "mode-select", "effort-select"]) {
      const el = screen.getByTestId(id);
      expect(el).toBeEnabled();
      expect(el).toHaveAttribute("title", "applies from the next turn");
    }
    fireEvent.change(screen.getByTestId("model-select"), { target: { value: "smart" } });
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ write: { op: "config.set", configId: "model" } }), "smart");
    fireEvent.change(screen.getByTestId("mode-select"), { target: { value: "ask" } });
    expect(onSelect).toHaveBeenLastCalledWith(expect.objectContaining({ write: { op: "mode.set" } }), "ask");
  });

  it("a change mid-turn is noted beside the controls until the turn ends; an idle change is not", () => {
    const { setTurnActive } = setup({ turnActive: true });
    expect(screen.queryByTestId("applies-next-turn")).toBeNull();
    fireEvent.change(screen.getByTestId("model-select"), { target: { value: "smart" } });
    expect(screen.getByTestId("applies-next-turn")).toHaveTextContent("Model changed — applies from the next turn");
    setTurnActive(false);
    expect(screen.queryByTestId("applies-next-turn")).toBeNull();
    fireEvent.change(screen.getByTestId("model-select"), { target: { value: "fast" } });
    expect(screen.queryByTestId("applies-next-turn")).toBeNull();
  });

  it("idle selects have no 'next turn' tooltip", () => {
    setup();
    expect(screen.getByTestId("model-select")).not.toHaveAttribute("title", "applies from the next turn");
  });
});

describe("Sender wired to the session actions", () => {
  function wired(reply: (op: OpInput) => OpReply) {
    const { actions, sent, notify, draft, setDraft } = recordedActions(reply, { mintId: () => "m-1" });
    render(() => (
      <Sender draft={draft()} onDraft={setDraft} turnActive canAct config={CONFIG} onSend={() => void actions.send()} onStop={() => void actions.stop()} onSelect={() => {}} />
    ));
    return { sent, notify, draft, input: screen.getByTestId("composer-input") as HTMLTextAreaElement };
  }

  it("QUEUE_FULL: an error toast and the draft is kept", async () => {
    const { input, notify, sent } = wired(() => ({ type: "error", rid: "r", code: "QUEUE_FULL", message: "queue full" }));
    fireEvent.input(input, { target: { value: "second follow-up" } });
    fireEvent.click(screen.getByTestId("send-button"));
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.stringMatching(/queue is full/i), "error"));
    expect(input.value).toBe("second follow-up");
    expect(sent[0]).toMatchObject({ op: "message.send", id: "m-1", blocks: [{ type: "text", text: "second follow-up" }] });
  });

  it("MACHINE_BUSY: the draft comes back even if the user typed meanwhile", async () => {
    let answer!: (r: OpReply) => void;
    const notify = vi.fn();
    const [draft, setDraft] = createSignal<Draft>(EMPTY_DRAFT);
    const actions = makeSessionActions({ request: () => new Promise((r) => (answer = r)), draft, setDraft, notify });
    render(() => <Sender draft={draft()} onDraft={setDraft} turnActive={false} canAct config={null} onSend={() => void actions.send()} onStop={() => {}} onSelect={() => {}} />);
    const input = screen.getByTestId("composer-input") as HTMLTextAreaElement;
    fireEvent.input(input, { target: { value: "first" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(input.value).toBe("");
    fireEvent.input(input, { target: { value: "typed meanwhile" } });
    answer({ type: "error", rid: "r", code: "MACHINE_BUSY", message: "busy" });
    await waitFor(() => expect(input.value).toBe("first\n\ntyped meanwhile"));
    expect(notify).toHaveBeenCalledWith(expect.stringMatching(/draft is kept/i), "error");
  });

  it("a park mid-turn clears the composer and adds no toast (the queue chip is the confirmation; no transcript row is made here)", async () => {
    const { input, notify, sent } = wired(() => ({ type: "ack", rid: "r", op: "message.send", result: { queued: true, position: 1 } }));
    fireEvent.input(input, { target: { value: "later" } });
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(sent).toHaveLength(1));
    await Promise.resolve();
    expect(notify).not.toHaveBeenCalled();
    expect(input.value).toBe("");
    expect(document.querySelector("[data-testid=row-user]")).toBeNull();
  });
});
