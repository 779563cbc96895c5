import { describe, expect, it } from "vitest";
import type { OpInput, OpReply } from "../connection/op-client";
import { type Draft, EMPTY_DRAFT } from "./composer-logic";
import { errorText, makeSessionActions } from "./session-actions";

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

describe("what a Stop dropped: restore claims, re-queue hears taken", () => {
  const entry = (id: string, text: string) => ({ id, blocks: [{ type: "text" as const, text }] });
  function setup(answer: (op: OpInput) => OpReply) {
    let draft: Draft = EMPTY_DRAFT;
    const notes: string[] = [];
    const sent: OpInput[] = [];
    const actions = makeSessionActions({
      request: async (op) => {
        sent.push(op);
        return answer(op);
      },
      draft: () => draft,
      setDraft: (d) => void (draft = d),
      notify: (t) => void notes.push(t),
    });
    return { actions, notes, sent, draft: () => draft.text };
  }
  const ack = <K extends OpInput["op"]>(op: K, result: unknown) => ({ type: "ack", rid: "r", op, result }) as unknown as OpReply;

  it("restore puts only the claimed entries in the draft and says when someone else had the rest", async () => {
    const t = setup(() => ack("queue.claimDropped", { claimed: ["b"] }));
    await t.actions.restoreDropped([entry("a", "first"), entry("b", "second")]);
    expect(t.sent).toEqual([{ op: "queue.claimDropped", ids: ["a", "b"] }]);
    expect(t.draft()).toBe("second");
    expect(t.notes).toEqual(["Some of those were already re-queued or taken by someone else."]);
  });

  it("restore when the room cannot answer keeps everything here (nothing typed is lost)", async () => {
    const t = setup(() => err("NOT_CONNECTED", "not connected"));
    await t.actions.restoreDropped([entry("a", "first")]);
    expect(t.draft()).toBe("first");
  });

  it("a re-queue of an entry someone restored runs nothing and says so; a plain re-queue adds no toast", async () => {
    const taken = setup(() => ack("message.send", { queued: false, taken: true, duplicate: true }));
    expect(await taken.actions.requeue([entry("a", "x")])).toMatchObject({ taken: 1, sent: 0 });
    expect(taken.notes).toEqual(["Someone already took that back to their draft — nothing ran."]);
    const plain = setup(() => ack("message.send", { queued: false }));
    expect(await plain.actions.requeue([entry("a", "x")])).toMatchObject({ sent: 1 });
    expect(plain.notes).toEqual([]);
  });
});
