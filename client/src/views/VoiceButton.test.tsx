import { fireEvent, render, screen } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ConfigState } from "../../../shared/viewer-protocol";
import type { Recognition } from "../composer/speech";
import { appendDictation, dictationError } from "../composer/speech";
import type { Draft } from "../session/composer-logic";
import { Sender } from "./Sender";

const CONFIG: ConfigState = { modes: null, models: null, configOptions: [], steering: false, images: true, queueDepth: 1, mergeQueued: false };

/** jsdom has no speech recognition (Chromium's needs Google's service): a stand-in that lets the test speak. */
class FakeRecognition implements Recognition {
  static last: FakeRecognition | null = null;
  continuous = false;
  interimResults = true;
  lang = "";
  started = false;
  onresult: Recognition["onresult"] = null;
  onend: (() => void) | null = null;
  onerror: Recognition["onerror"] = null;
  constructor() {
    FakeRecognition.last = this;
  }
  start() {
    this.started = true;
  }
  stop() {
    this.started = false;
    this.onend?.();
  }
  say(transcript: string, isFinal = true) {
    this.onresult?.({ resultIndex: 0, results: [{ isFinal, 0: { transcript } }] });
  }
}

function setup() {
  const onSend = vi.fn();
  const [draft, setDraft] = createSignal<Draft>({ text: "Please", attachments: [] });
  render(() => <Sender draft={draft()} onDraft={setDraft} turnActive={false} canAct config={CONFIG} onSend={onSend} onStop={() => {}} onSelect={() => {}} />);
  return { draft, onSend };
}

afterEach(() => vi.unstubAllGlobals());

describe("dictation", () => {
  it("absent where the browser has no speech recognition", async () => {
    setup();
    await screen.findByRole("button", { name: "Attach images or files" }, { timeout: 15_000 }); // the composer's tools are up
    expect(screen.queryByRole("button", { name: "Dictate" })).toBeNull();
  });

  it("where it exists: finished phrases fill the draft; nothing is sent by itself; Stop dictation ends it", async () => {
    vi.stubGlobal("webkitSpeechRecognition", FakeRecognition);
    const { draft, onSend } = setup();
    fireEvent.click(await screen.findByRole("button", { name: "Dictate" }, { timeout: 15_000 }));
    const rec = FakeRecognition.last!;
    expect(rec.started).toBe(true);
    expect(screen.getByRole("button", { name: "Stop dictation" })).toHaveAttribute("aria-pressed", "true");
    rec.say("fix the failing test");
    rec.say("and the", false); // not final: not in the draft yet
    rec.say("and the docs");
    expect(draft().text).toBe("Please fix the failing test and the docs");
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Stop dictation" }));
    expect(rec.started).toBe(false);
    expect(screen.getByRole("button", { name: "Dictate" })).toHaveAttribute("aria-pressed", "false");
  });

  it("joins phrases with one space; says why when the microphone is refused", () => {
    expect(appendDictation("", "hello")).toBe("hello");
    expect(appendDictation("a\n", " b ")).toBe("a\nb");
    expect(appendDictation("a", "   ")).toBe("a");
    expect(dictationError("not-allowed")).toMatch(/microphone/);
    expect(dictationError("no-speech")).toBeNull();
  });
});
