import { describe, expect, it } from "vitest";
import { errorText } from "./session-actions";

const err = (code: string, message: string) => ({ type: "error" as const, rid: "r1", code: code as never, message });

describe("errorText", () => {
  it("explains known refusals in the user's terms and keeps the draft", () => {
    expect(errorText(err("QUEUE_FULL", "a message is already queued"))).toMatch(/queue is full.*draft is kept/i);
  });

  it("a failed agent session shows the room's reason, not a generic 'starting'", () => {
    const text = errorText(err("SESSION_NOT_READY", "the agent session failed: working directory is outside the allowed roots: /tmp"));
    expect(text).toBe("The agent session failed: working directory is outside the allowed roots: /tmp. Your draft is kept.");
  });

  it("falls back to the room's message for codes without a fixed text", () => {
    expect(errorText(err("NOT_FOUND", "no such permission request"))).toBe("No such permission request");
  });
});
