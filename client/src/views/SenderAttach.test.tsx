import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_IMAGE_LONG_SIDE_PX } from "../../../shared/limits";
import type { ConfigState } from "../../../shared/viewer-protocol";
import { sharpFitter, sizeOf, testImage } from "../composer/testing-sharp-codec";
import type { Draft } from "../session/composer-logic";
import { Sender } from "./Sender";

/** A 12-megapixel image made, decoded and fitted by a real codec: seconds on a loaded 2-core machine. */
const HEAVY_MS = 90_000;

const CONFIG: ConfigState = { modes: null, models: null, configOptions: [], steering: false, images: true, embeddedContext: true, queueDepth: 1, mergeQueued: false };

/** jsdom has no matchMedia: a phone answers "(pointer: coarse)". */
function asPhone() {
  vi.stubGlobal("matchMedia", (q: string) => ({ matches: q === "(pointer: coarse)", media: q, addEventListener() {}, removeEventListener() {} }));
}
afterEach(() => vi.unstubAllGlobals());

async function setup(opts: { config?: ConfigState; text?: string } = {}) {
  const onError = vi.fn();
  const [draft, setDraft] = createSignal<Draft>({ text: opts.text ?? "", attachments: [] });
  render(() => (
    <Sender
      draft={draft()}
      onDraft={setDraft}
      turnActive={false}
      canAct
      config={opts.config ?? CONFIG}
      onSend={() => {}}
      onStop={() => {}}
      onSelect={() => {}}
      onError={onError}
      fitImage={sharpFitter}
    />
  ));
  // The attach buttons load after the first paint (their own chunk): a cold import is slow on a loaded machine.
  await screen.findByTestId("attach-button", {}, { timeout: 15_000 });
  return { draft, onError };
}

/** What the OS picker does once the user chose: the input holds the files and fires change. */
function choose(input: HTMLElement, files: File[]) {
  Object.defineProperty(input, "files", { value: files, configurable: true });
  fireEvent.change(input);
}

const asFile = async (blob: Promise<Blob>, name: string) => {
  const b = await blob;
  return new File([await b.arrayBuffer()], name, { type: b.type });
};

describe("Sender: attaching images and files", () => {
  it("by keyboard: Enter on 'Attach images or files' opens the picker; a 4000 × 3000 photo joins the draft fitted, shown as a thumbnail", async () => {
    const { draft } = await setup({ text: "what is this?" });
    const button = await screen.findByRole("button", { name: "Attach images or files" });
    const input = screen.getByTestId("attach-input") as HTMLInputElement;
    const opened = vi.spyOn(input, "click");
    button.focus();
    expect(document.activeElement).toBe(button);
    fireEvent.keyDown(button, { key: "Enter" });
    fireEvent.click(button); // a button's Enter is its click
    expect(opened).toHaveBeenCalled();
    choose(input, [await asFile(testImage(4000, 3000, "jpeg"), "photo.jpg")]);
    await waitFor(() => expect(draft().attachments).toHaveLength(1), { timeout: 20_000 });
    const image = draft().attachments[0]!;
    if (image.type !== "image") throw new Error("not an image");
    const size = await sizeOf(image.data);
    expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(MAX_IMAGE_LONG_SIDE_PX);
    expect(draft().text).toBe("what is this?");
    fireEvent.click(await screen.findByRole("button", { name: "Image 1 — show full size" }, { timeout: 15_000 }));
    expect(screen.getByRole("dialog", { name: "Image 1" }).querySelector("img")).toHaveAttribute("src", `data:image/jpeg;base64,${image.data}`);
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    fireEvent.click(screen.getByRole("button", { name: "Remove image 1" }));
    expect(draft().attachments).toEqual([]);
  }, HEAVY_MS);

  it("by touch on a phone: 'Take a photo' opens the camera (image/*, capture); the photo joins the draft", async () => {
    asPhone();
    const { draft } = await setup();
    const camera = (await screen.findByTestId("camera-input")) as HTMLInputElement;
    expect(camera).toHaveAttribute("accept", "image/*");
    expect(camera).toHaveAttribute("capture", "environment");
    const opened = vi.spyOn(camera, "click");
    const button = screen.getByRole("button", { name: "Take a photo" });
    fireEvent.pointerDown(button, { pointerType: "touch" });
    fireEvent.pointerUp(button, { pointerType: "touch" });
    fireEvent.click(button);
    expect(opened).toHaveBeenCalled();
    // Portrait and past the long-side bound (fitted like the 12-megapixel one above, at a fifth of sharp's work).
    choose(camera, [await asFile(testImage(1500, 2000, "jpeg"), "IMG_0001.jpg")]);
    await waitFor(() => expect(draft().attachments).toHaveLength(1), { timeout: 20_000 });
    expect(draft().attachments[0]).toMatchObject({ type: "image", mimeType: "image/jpeg" });
  }, HEAVY_MS);

  it("an agent without image prompts: the camera says why and attaches nothing; a picked image is refused with the reason", async () => {
    asPhone();
    const { draft, onError } = await setup({ config: { ...CONFIG, images: false }, text: "keep me" });
    const camera = await screen.findByRole("button", { name: "Take a photo" });
    expect(camera).toHaveAttribute("aria-disabled", "true");
    expect(camera).toHaveAttribute("title", expect.stringMatching(/does not take images/));
    fireEvent.click(camera);
    expect(onError).toHaveBeenCalledWith(expect.stringMatching(/does not take images/));
    expect(screen.getByRole("button", { name: "Attach files" })).toHaveAttribute("title", expect.stringMatching(/does not take images/));
    choose(await screen.findByTestId("attach-input"), [await asFile(testImage(100, 100, "png", "flat"), "a.png")]);
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(2));
    expect(draft()).toEqual({ text: "keep me", attachments: [] });
  });

  it("too large even made smaller (the agent's own limit): a clear error, the draft kept as it was", async () => {
    const { draft, onError } = await setup({ config: { ...CONFIG, imageLimits: { maxBytes: 1_000 } }, text: "my words" });
    // Noise does not compress: at every size and quality the fitter tries it stays over 1 KB. Small, so its twelve
    // encodes are cheap in the CPU-bound run (2000 × 1500 took past 30 s there); image-resize.test.ts has the large cases.
    choose(await screen.findByTestId("attach-input"), [await asFile(testImage(600, 450, "jpeg", "noise"), "huge.jpg")]);
    await waitFor(() => expect(onError).toHaveBeenCalled(), { timeout: 20_000 });
    expect(onError.mock.calls[0]![0]).toMatch(/too large to send.*draft is kept/);
    expect(draft()).toEqual({ text: "my words", attachments: [] });
  });

  it("files: a text file is embedded where the agent takes embedded context, else linked; a PDF is linked by its name", async () => {
    const { draft } = await setup();
    const notes = new File(["line one\nline two\n"], "notes.md", { type: "text/markdown" });
    const pdf = new File([new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 1, 2])], "spec.pdf", { type: "application/pdf" });
    choose(await screen.findByTestId("attach-input"), [notes, pdf]);
    await waitFor(() => expect(draft().attachments).toHaveLength(2));
    expect(draft().attachments).toEqual([
      { type: "resource", resource: { uri: "attachment:///notes.md", text: "line one\nline two\n", mimeType: "text/markdown" } },
      { type: "resource_link", uri: "attachment:///spec.pdf", name: "spec.pdf" },
    ]);
    expect(await screen.findByRole("button", { name: "Remove @notes.md" })).toBeInTheDocument();
  });

  it("paste: an image on the clipboard joins the draft (text pastes stay text)", async () => {
    const { draft } = await setup();
    const file = await asFile(testImage(640, 480, "png", "flat"), "image.png");
    const composer = screen.getByTestId("composer");
    const paste = new Event("paste", { bubbles: true, cancelable: true });
    Object.defineProperty(paste, "clipboardData", { value: { files: [file] } });
    screen.getByTestId("composer-input").dispatchEvent(paste);
    expect(paste.defaultPrevented).toBe(true);
    await waitFor(() => expect(draft().attachments).toHaveLength(1), { timeout: 10_000 });
    expect(draft().attachments[0]).toMatchObject({ type: "image", mimeType: "image/png" });
    const textPaste = new Event("paste", { bubbles: true, cancelable: true });
    Object.defineProperty(textPaste, "clipboardData", { value: { files: [] } });
    composer.dispatchEvent(textPaste);
    expect(textPaste.defaultPrevented).toBe(false);
  });

  it("drop: files dropped on the composer join the draft", async () => {
    const { draft } = await setup();
    const composer = screen.getByTestId("composer");
    const file = await asFile(testImage(320, 240, "png", "flat"), "dropped.png");
    const over = new Event("dragover", { bubbles: true, cancelable: true });
    Object.defineProperty(over, "dataTransfer", { value: { types: ["Files"], files: [] } });
    composer.dispatchEvent(over);
    expect(over.defaultPrevented).toBe(true); // the composer takes the drop
    const drop = new Event("drop", { bubbles: true, cancelable: true });
    Object.defineProperty(drop, "dataTransfer", { value: { types: ["Files"], files: [file] } });
    composer.dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(true);
    await waitFor(() => expect(draft().attachments).toHaveLength(1), { timeout: 10_000 });
    expect(draft().attachments[0]).toMatchObject({ type: "image", mimeType: "image/png" });
  });
});
