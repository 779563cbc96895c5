/** The Sender's slash-command picker and the config options sheet. */
import { cleanup, fireEvent, render, screen, within } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { describe, expect, it, vi } from "vitest";
import type { Command } from "../../../shared/fold";
import type { ConfigState } from "../../../shared/viewer-protocol";
import type { Draft } from "../session/composer-logic";
import { Sender } from "./Sender";

const COMMANDS: Command[] = [
  { name: "review", description: "Review the current diff" },
  { name: "init", description: "Create an AGENTS.md file with instructions" },
  { name: "compact", description: "Summarise the conversation", hint: "what to keep" },
];

const CONFIG: ConfigState = {
  modes: null,
  models: null,
  configOptions: [
    { id: "model", name: "Model", category: "model", type: "select", currentValue: "default", options: [{ value: "default", name: "Default (recommended)" }, { value: "haiku", name: "Haiku" }] },
    { id: "effort", name: "Effort", category: "thought_level", type: "select", currentValue: "high", options: [{ value: "low", name: "Low" }, { value: "high", name: "High" }] },
    { id: "mode", name: "Mode", category: "mode", type: "select", currentValue: "off", options: [{ value: "off", name: "Off" }] },
    { id: "fast", name: "Fast mode", description: "Faster output", type: "boolean", currentValue: false },
    { id: "collab", name: "Collaboration mode", type: "select", currentValue: "workspace", options: [{ value: "workspace", name: "Workspace access with review" }, { value: "ro", name: "Read-only" }] },
  ],
  steering: false,
  images: false,
  queueDepth: 1,
  mergeQueued: false,
};

function setup(opts: { turnActive?: boolean; commands?: Command[]; config?: ConfigState | null } = {}) {
  const onSend = vi.fn();
  const onSelect = vi.fn();
  const [draft, setDraft] = createSignal<Draft>({ text: "", attachments: [] });
  render(() => (
    <Sender
      draft={draft()}
      onDraft={setDraft}
      turnActive={opts.turnActive ?? false}
      canAct
      config={opts.config === undefined ? CONFIG : opts.config}
      commands={opts.commands ?? COMMANDS}
      onSend={onSend}
      onStop={() => {}}
      onSelect={onSelect}
    />
  ));
  const input = screen.getByTestId("composer-input") as HTMLTextAreaElement;
  const type = (value: string) => {
    input.value = value;
    input.setSelectionRange(value.length, value.length);
    fireEvent.input(input, { target: { value } });
  };
  return { input, type, draft, onSend, onSelect };
}

describe("Sender: slash-command picker", () => {
  it("'/' at the start opens the agent's commands with descriptions: the message field stays a textbox that controls a listbox", () => {
    const { input, type } = setup();
    expect(screen.queryByRole("listbox")).toBeNull();
    // ARIA in HTML allows no role on a textarea but textbox, and an editable combobox must be single-line.
    expect(screen.getByRole("textbox", { name: "Message" })).toBe(input);
    expect(input).not.toHaveAttribute("role");
    expect(input).toHaveAttribute("aria-haspopup", "listbox");
    expect(input).not.toHaveAttribute("aria-controls");
    type("/");
    const list = screen.getByRole("listbox", { name: "Commands" });
    expect(within(list).getAllByRole("option").map((o) => o.textContent)).toEqual([
      "/reviewReview the current diff",
      "/initCreate an AGENTS.md file with instructions",
      "/compactSummarise the conversation",
    ]);
    expect(screen.getByRole("textbox", { name: "Message" })).toBe(input);
    expect(input).not.toHaveAttribute("aria-expanded");
    expect(input).toHaveAttribute("aria-autocomplete", "list");
    expect(input).toHaveAttribute("aria-controls", list.id);
    // Announced once, politely, not on every keystroke's re-render of the list.
    expect(screen.getByTestId("slash-count")).toHaveTextContent("3 commands");
    expect(screen.getByTestId("slash-count")).toHaveAttribute("aria-live", "polite");
    expect(input.getAttribute("aria-activedescendant")).toBe(within(list).getAllByRole("option")[0]!.id);
  });

  it("filters as you type; ↑/↓ move the active option; Enter picks it (no send)", () => {
    const { input, type, draft, onSend } = setup();
    type("/i");
    // "init" by name first, then the others matching by name / description.
    const listed = () => within(screen.getByRole("listbox")).getAllByRole("option");
    expect(listed().map((o) => o.querySelector(".cmd-name")!.textContent)).toEqual(["/init", "/review", "/compact"]);
    type("/in");
    expect(listed().map((o) => o.querySelector(".cmd-name")!.textContent)).toEqual(["/init"]);
    type("/i");
    expect(listed()[0]).toHaveAttribute("aria-selected", "true");
    fireEvent.keyDown(input, { key: "ArrowDown" });
    const options = listed();
    expect(options[1]).toHaveAttribute("aria-selected", "true");
    expect(input.getAttribute("aria-activedescendant")).toBe(options[1]!.id);
    fireEvent.keyDown(input, { key: "ArrowUp" });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(draft().text).toBe("/init ");
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.queryByRole("listbox")).toBeNull();
  });

  it("Tab picks too, and a command with an input hint gets the hint after its name", () => {
    const { input, type, draft } = setup();
    type("/comp");
    fireEvent.keyDown(input, { key: "Tab" });
    expect(draft().text).toBe("/compact what to keep");
  });

  it("Esc closes the list and the next Enter sends what is typed", () => {
    const { input, type, onSend } = setup();
    type("/rev");
    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(input).not.toHaveAttribute("aria-controls");
    expect(input).not.toHaveAttribute("aria-activedescendant");
    expect(screen.getByTestId("slash-count")).toHaveTextContent("");
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it("a tap picks; mid-turn the picked command is queued like any message", () => {
    const { input, type, draft, onSend } = setup({ turnActive: true });
    type("/");
    fireEvent.click(screen.getByRole("option", { name: /review/ }));
    expect(draft().text).toBe("/review ");
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId("send-button")).toHaveAttribute("title", "Queue message");
  });

  it("nothing to pick: no list, and the input stays a plain textbox without commands", () => {
    const { type, input } = setup({ commands: [] });
    type("/");
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(input).not.toHaveAttribute("role", "combobox");
    type("/zzz");
    expect(screen.queryByRole("listbox")).toBeNull();
  });

  it("not after text: a '/' in the middle opens nothing", () => {
    const { type } = setup();
    type("see /rev");
    expect(screen.queryByRole("listbox")).toBeNull();
  });
});

describe("Sender: every config option by its type", () => {
  it("pills show the main selects with their full current label; a one-option select is hidden", () => {
    setup();
    expect(screen.getByTestId("model-select")).toBeInTheDocument();
    expect(screen.getByTestId("effort-select")).toBeInTheDocument();
    expect(screen.queryByTestId("mode-select")).toBeNull();
    expect(screen.getByTestId("model-select").closest(".select-pill")).toHaveTextContent("Default (recommended)");
  });

  it("the options sheet lists every option with its full name and value: selects and a boolean toggle", async () => {
    const { onSelect } = setup();
    fireEvent.click(screen.getByRole("button", { name: "More options" }));
    const sheet = screen.getByRole("dialog", { name: "Agent options" });
    await within(sheet).findByRole("switch", { name: "Fast mode" }, { timeout: 15_000 }); // its rows load when it first opens
    expect(sheet).toHaveTextContent("Collaboration mode");
    const collab = within(sheet).getByRole("combobox", { name: "Collaboration mode" }) as HTMLSelectElement;
    expect(collab.value).toBe("workspace");
    expect(collab.selectedOptions[0]!.textContent).toBe("Workspace access with review");
    expect(within(sheet).queryByRole("combobox", { name: "Mode" })).toBeNull();
    const fast = within(sheet).getByRole("switch", { name: "Fast mode" });
    expect(fast).not.toBeChecked();
    fireEvent.click(fast);
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ label: "Fast mode", write: { op: "config.set", configId: "fast" } }), true);
    fireEvent.change(collab, { target: { value: "ro" } });
    expect(onSelect).toHaveBeenLastCalledWith(expect.objectContaining({ write: { op: "config.set", configId: "collab" } }), "ro");
  });

  it("mid-turn the sheet stays writable and says the change applies from the next turn", async () => {
    setup({ turnActive: true });
    fireEvent.click(screen.getByRole("button", { name: "More options" }));
    const sheet = screen.getByRole("dialog", { name: "Agent options" });
    await within(sheet).findByRole("switch", { name: "Fast mode" }, { timeout: 15_000 });
    expect(sheet).toHaveTextContent(/applies from the next turn/i);
    expect(within(sheet).getByRole("switch", { name: "Fast mode" })).toBeEnabled();
  });

  it("no options beyond the pills: the options button is for narrow screens only; no options at all: none", () => {
    setup({ config: { ...CONFIG, configOptions: CONFIG.configOptions.slice(0, 2) } });
    expect(screen.getByRole("button", { name: "More options" }).closest(".options")).toHaveClass("narrow-flex");
    cleanup();
    setup({ config: { ...CONFIG, configOptions: [] } });
    expect(screen.queryByRole("button", { name: "More options" })).toBeNull();
  });

  it("with options beyond the pills, the button shows at every width", () => {
    setup();
    expect(screen.getByRole("button", { name: "More options" }).closest(".options")).not.toHaveClass("narrow-flex");
  });
});
