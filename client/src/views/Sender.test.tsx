import { fireEvent, render, screen } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { describe, expect, it, vi } from "vitest";
import type { ConfigState } from "../../../shared/viewer-protocol";
import { Sender } from "./Sender";

const CONFIG: ConfigState = {
  modes: { currentModeId: "code", availableModes: [{ id: "ask", name: "Ask" }, { id: "code", name: "Code" }] },
  models: null,
  configOptions: [
    { id: "model", name: "Model", category: "model", type: "select", currentValue: "fast", options: [{ value: "fast", name: "Fast" }, { value: "smart", name: "Smart" }] },
    { id: "effort", name: "Effort", category: "thought_level", type: "select", currentValue: "low", options: [{ value: "low", name: "Low" }, { value: "high", name: "High" }] },
  ],
  steering: false,
  images: false,
  queueDepth: 1,
  mergeQueued: false,
};

function setup(turnActive: boolean, config: ConfigState | null = CONFIG) {
  const onSend = vi.fn();
  const onStop = vi.fn();
  const onSelect = vi.fn();
  const [draft, setDraft] = createSignal("");
  render(() => (
    <Sender draft={draft()} onDraft={setDraft} turnActive={turnActive} canAct config={config} onSend={onSend} onStop={onStop} onSelect={onSelect} />
  ));
  return { onSend, onStop, onSelect, draft };
}

describe("Sender", () => {
  it("idle: Send only; Enter sends, Shift+Enter does not", () => {
    const { onSend } = setup(false);
    expect(screen.queryByTestId("stop-button")).toBeNull();
    const input = screen.getByTestId("composer-input");
    fireEvent.input(input, { target: { value: "hello" } });
    expect(screen.getByTestId("send-button")).toHaveAttribute("title", "Send");
    fireEvent.keyDown(input, { key: "Enter", shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it("mid-turn: Stop alone with an empty draft; Queue message beside Stop with a draft; selects writable with the tooltip", () => {
    const { onStop, onSelect } = setup(true);
    expect(screen.getByTestId("stop-button")).toBeInTheDocument();
    expect(screen.queryByTestId("send-button")).toBeNull();
    fireEvent.input(screen.getByTestId("composer-input"), { target: { value: "later" } });
    expect(screen.getByTestId("send-button")).toHaveAttribute("title", "Queue message");
    expect(screen.getByTestId("stop-button")).toBeInTheDocument();
    fireEvent.click(screen.getByTestId("stop-button"));
    expect(onStop).toHaveBeenCalled();
    const model = screen.getByTestId("model-select") as HTMLSelectElement;
    expect(model).not.toBeDisabled();
    expect(model.closest("label")).toHaveAttribute("title", "applies from the next turn");
    fireEvent.change(model, { target: { value: "smart" } });
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ write: { op: "config.set", configId: "model" } }), "smart");
  });

  it("shows only the selectors the agent advertised", () => {
    setup(false, { ...CONFIG, modes: null, configOptions: [] });
    expect(screen.queryByTestId("model-select")).toBeNull();
    expect(screen.queryByTestId("mode-select")).toBeNull();
    expect(screen.queryByTestId("effort-select")).toBeNull();
  });

  it("legacy modes give a mode select; thought_level gives Effort", () => {
    setup(false);
    expect((screen.getByTestId("mode-select") as HTMLSelectElement).value).toBe("code");
    expect(screen.getByTestId("effort-select")).toBeInTheDocument();
  });
});
