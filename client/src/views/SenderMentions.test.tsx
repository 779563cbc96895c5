/**
 * The Sender's "@" file picker (issue 29 #3) on the popover and keyboard model it shares with the "/" picker:
 * by keyboard and by touch, the resource link a pick adds, the chip in the text, and an offline machine or a
 * timeout said in the picker with the draft untouched.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { describe, expect, it, vi } from "vitest";
import type { Command } from "../../../shared/fold";
import { type Draft, draftBlocks } from "../session/composer-logic";
import type { FilesAnswer } from "../session/file-search";
import { Sender } from "./Sender";

const ROOT = "/home/me/proj";
const FILES = ["src/app.ts", "src/api/apple.ts", "README.md", "docs/guide.md"];

/** The machine's side, as the route answers it: the fuzzy filter is the daemon's, so only a prefix filter here. */
const machine = (answer?: FilesAnswer) =>
  vi.fn(async (q: string): Promise<FilesAnswer> => answer ?? { ok: true, root: ROOT, files: FILES.filter((f) => f.includes(q.slice(0, 2))), truncated: false });

function setup(files: (q: string) => Promise<FilesAnswer>, commands: Command[] = [{ name: "review", description: "Review the diff" }]) {
  const onSend = vi.fn();
  const [draft, setDraft] = createSignal<Draft>({ text: "", attachments: [] });
  render(() => (
    <Sender draft={draft()} onDraft={setDraft} turnActive={false} canAct config={null} commands={commands} files={files} onSend={onSend} onStop={() => {}} onSelect={() => {}} />
  ));
  const input = screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
  const type = (value: string) => {
    input.value = value;
    input.setSelectionRange(value.length, value.length);
    fireEvent.input(input, { target: { value } });
  };
  return { input, type, draft, onSend };
}

/** Role queries are slow in jsdom; the debounce adds its pause. */
const fileList = () => screen.findByRole("listbox", { name: "Files" }, { timeout: 4000 });
const names = (list: HTMLElement) => within(list).getAllByRole("option").map((o) => o.textContent);

describe("Sender: the @ file picker", () => {
  it("'@' opens the session's files; typing filters them; ↓ and Enter pick: @path in the text, a resource link in the draft, no send", async () => {
    const files = machine();
    const { input, type, draft, onSend } = setup(files);
    type("look at @");
    const list = await fileList();
    expect(files).toHaveBeenCalledWith("");
    expect(input).toHaveAttribute("aria-controls", list.id);
    expect(names(list)).toContain("app.tssrc");
    type("look at @ap");
    await waitFor(() => expect(files).toHaveBeenLastCalledWith("ap"));
    // The file's name first, its folder after; the daemon's order re-filtered as typed.
    await waitFor(() => expect(names(screen.getByRole("listbox", { name: "Files" }))).toEqual(["app.tssrc", "apple.tssrc/api"]), { timeout: 4000 });
    expect(screen.getByTestId("slash-count")).toHaveTextContent("2 files");
    fireEvent.keyDown(input, { key: "ArrowDown" });
    expect(input.getAttribute("aria-activedescendant")).toBe(within(screen.getByRole("listbox", { name: "Files" })).getAllByRole("option")[1]!.id);
    fireEvent.keyDown(input, { key: "ArrowUp" });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSend).not.toHaveBeenCalled();
    expect(draft().text).toBe("look at @src/app.ts ");
    expect(draftBlocks(draft())).toEqual([
      { type: "text", text: "look at @src/app.ts" },
      { type: "resource_link", uri: "file:///home/me/proj/src/app.ts", name: "src/app.ts" },
    ]);
    expect(screen.queryByRole("listbox", { name: "Files" })).toBeNull();
    // The chip, drawn under the text at its place.
    expect(screen.getByTestId("mention-chips").querySelector("mark")).toHaveTextContent("@src/app.ts");
  });

  it("a mentioned file shows once, as its chip in the text: no pill for it above the field; an attached file keeps its pill", async () => {
    const [draft, setDraft] = createSignal<Draft>({
      text: "look at @src/app.ts ",
      attachments: [
        { type: "resource_link", uri: "file:///home/me/proj/src/app.ts", name: "src/app.ts" },
        { type: "resource_link", uri: "file:///home/me/proj/notes.txt", name: "notes.txt" },
      ],
    });
    render(() => <Sender draft={draft()} onDraft={setDraft} turnActive={false} canAct config={null} commands={[]} files={machine()} onSend={() => {}} onStop={() => {}} onSelect={() => {}} />);
    await waitFor(() => expect(screen.getByTestId("mention-chips").querySelector("mark")).toHaveTextContent("@src/app.ts"));
    const tray = await screen.findByTestId("attachments");
    await waitFor(() => expect(within(tray).queryByRole("button", { name: "Remove @notes.txt" })).not.toBeNull());
    expect(within(tray).queryByRole("button", { name: /src\/app\.ts/ })).toBeNull();
    expect(tray).not.toHaveTextContent("app.ts");
    // Removing the other file's pill leaves the mention's link in the draft.
    fireEvent.click(within(tray).getByRole("button", { name: "Remove @notes.txt" }));
    expect(draft().attachments).toEqual([{ type: "resource_link", uri: "file:///home/me/proj/src/app.ts", name: "src/app.ts" }]);
    await waitFor(() => expect(screen.queryByTestId("attachments")).toBeNull());
  });

  it("a tap picks (the focus stays in the message field); Tab picks too", async () => {
    const { input, type, draft } = setup(machine());
    input.focus();
    type("@READ");

    const option = within(await fileList()).getByRole("option", { name: /README\.md/ });
    // The tap's pointerdown is cancelled so a phone's keyboard stays up.
    expect(fireEvent.pointerDown(option)).toBe(false);
    fireEvent.click(option);
    expect(draft().text).toBe("@README.md ");
    expect(draft().attachments).toEqual([{ type: "resource_link", uri: "file:///home/me/proj/README.md", name: "README.md" }]);
    // The pick puts the caret after the token once the draft is written (a microtask).
    await Promise.resolve();
    expect(input.selectionStart).toBe("@README.md ".length);
    expect(document.activeElement).toBe(input);
    type("@README.md and @do");
    await waitFor(() => expect(names(screen.getByRole("listbox", { name: "Files" }))).toEqual(["guide.mddocs"]), { timeout: 4000 });
    fireEvent.keyDown(input, { key: "Tab" });
    expect(draft().text).toBe("@README.md and @docs/guide.md ");
    expect(draft().attachments.map((a) => (a.type === "resource_link" ? a.name : a.type))).toEqual(["README.md", "docs/guide.md"]);
  });

  it("Escape closes it and Enter then sends what is typed; deleting the chip's text drops its link", async () => {
    const { input, type, draft, onSend } = setup(machine());
    type("@src");
    await fileList();
    fireEvent.keyDown(input, { key: "Escape" });
    expect(document.querySelector(".picker-pop")).toBeNull();
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSend).toHaveBeenCalledTimes(1);
    type("@");
    fireEvent.click(within(await fileList()).getByRole("option", { name: /app\.ts/ }));
    expect(draft().attachments).toHaveLength(1);
    type("@src/app.t");
    expect(draft().attachments).toEqual([]);
  });

  it("an offline machine or a timeout is said in the picker; the draft is untouched and Enter still sends", async () => {
    const offline = machine({ ok: false, code: "MACHINE_OFFLINE", message: "laptop is offline" });
    const { input, type, draft, onSend } = setup(offline);
    type("see @ap");
    await waitFor(() => expect(document.querySelector(".picker-status")).toHaveTextContent("The machine is offline: its files cannot be listed."));
    expect(screen.queryByRole("listbox", { name: "Files" })).toBeNull();
    expect(input).not.toHaveAttribute("aria-activedescendant");
    expect(draft()).toEqual({ text: "see @ap", attachments: [] });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it("a timeout says to keep typing; an answer with nothing says so", async () => {
    const { type, draft } = setup(machine({ ok: false, code: "ASK_TIMEOUT", message: "no answer" }));
    type("@x");
    expect(document.querySelector(".picker-status")).toHaveTextContent("Listing files…");
    await waitFor(() => expect(document.querySelector(".picker-status")).toHaveTextContent(/did not answer in time/));
    expect(draft()).toEqual({ text: "@x", attachments: [] });
    cleanup();
    const empty = setup(machine({ ok: true, root: ROOT, files: [], truncated: false }));
    empty.type("@zzz");
    await waitFor(() => expect(document.querySelector(".picker-status")).toHaveTextContent("No matching files."));
  });

  it("the '/' picker is the same popover: a tap on a command, and the same keys", async () => {
    const { input, type, draft } = setup(machine());
    type("/");
    const commands = screen.getByRole("listbox", { name: "Commands" });
    expect(commands.closest(".picker-pop")).not.toBeNull();
    fireEvent.click(within(commands).getByRole("option", { name: /review/ }));
    expect(draft().text).toBe("/review ");
    type("/re");
    fireEvent.keyDown(input, { key: "Tab" });
    expect(draft().text).toBe("/review ");
    type("@");
    expect((await fileList()).closest(".picker-pop")).not.toBeNull();
  });

  it("without a file source (a share link's page) '@' opens nothing", () => {
    const onDraft = vi.fn();
    render(() => <Sender draft={{ text: "@", attachments: [] }} onDraft={onDraft} turnActive={false} canAct config={null} onSend={() => {}} onStop={() => {}} onSelect={() => {}} />);
    expect(document.querySelector(".picker-pop")).toBeNull();
    expect(screen.getByRole("textbox")).not.toHaveAttribute("aria-haspopup");
  });
});
