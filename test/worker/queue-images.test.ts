// Issue 29 #1: a queued message keeps its images through edit, reorder, take-back, Stop and restore, for every
// viewer and up to the agent; a message over the image budget is refused whole before anything is queued or sent.
import { describe, expect, it } from "vitest";
import type { PromptBlock } from "../../shared/blocks";
import { MAX_IMAGE_DATA_CHARS, MAX_PROMPT_IMAGE_CHARS, MAX_QUEUE_BYTES } from "../../shared/limits";
import { requeueId } from "../../shared/requeue-id";
import { busyRoom, TestViewer, text, waitFor } from "./harness";

/** A full-size image as the browser makes it (base64 of a JPEG at the per-image limit); `tag` keeps them apart. */
const image = (tag: string, chars = MAX_IMAGE_DATA_CHARS): PromptBlock => ({ type: "image", mimeType: "image/jpeg", data: `/9j/${tag}${"A".repeat(chars - 4 - tag.length)}` });
const withImage = (words: string, tag: string): PromptBlock[] => [{ type: "text", text: words }, image(tag)];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("queued messages with images", () => {
  it("edit, reorder, take-back, Stop and restore keep the images; the agent gets them as sent", async () => {
    const { daemon, sessionId, a } = await busyRoom(3);
    const b = await TestViewer.open(sessionId);
    expect(await a.op({ op: "message.send", id: "q1", blocks: withImage("look", "one") })).toMatchObject({ result: { queued: true } });
    expect(await a.op({ op: "message.send", id: "q2", blocks: text("two") })).toMatchObject({ result: { queued: true } });
    // Edit the text (the client keeps the attachments in the edited blocks): the image is still there.
    expect(await a.op({ op: "queue.edit", id: "q1", blocks: withImage("look at this", "one") })).toMatchObject({ result: { outcome: "edited" } });
    await pause(600); // the rate limit: each full-size frame costs several tokens
    expect(await b.op({ op: "queue.move", id: "q2", before: "q1" })).toMatchObject({ result: { outcome: "moved" } });
    await waitFor(() => b.lastQueue()?.entries.map((e) => e.id).join() === "q2,q1", "moved for B");
    expect(b.lastQueue()!.entries[1]!.blocks).toEqual(withImage("look at this", "one"));
    // Take-back: the entry comes back whole (to the taker's draft), then is sent again.
    const taken = await b.op({ op: "queue.cancel", id: "q1" });
    expect(taken).toMatchObject({ result: { outcome: "cancelled", entry: { id: "q1", blocks: withImage("look at this", "one") } } });
    await pause(600);
    expect(await b.op({ op: "message.send", id: "q3", blocks: withImage("look at this", "one") })).toMatchObject({ result: { queued: true } });
    // Stop drops both; the offer every viewer sees carries the image; B restores q3 to its draft, A re-queues q2.
    const stop = await a.op({ op: "turn.cancel" });
    expect(stop).toMatchObject({ result: { outcome: "cancelled", dropped: [{ id: "q2" }, { id: "q3", blocks: withImage("look at this", "one") }] } });
    await waitFor(() => a.lastQueue()?.dropped?.length === 2, "dropped offer on A");
    expect(a.lastQueue()!.dropped![1]!.blocks).toEqual(withImage("look at this", "one"));
    await waitFor(() => b.lastQueue()?.dropped?.length === 2, "dropped offer on B");
    const offered = b.lastQueue()!.dropped!.find((e) => e.id === "q3")!.blocks;
    expect(await b.op({ op: "queue.claimDropped", ids: ["q3"] })).toMatchObject({ result: { claimed: ["q3"] } });
    await daemon.finishTurn(sessionId, "", "cancelled");
    await waitFor(() => a.lastStatus()?.state === "idle", "idle after Stop");
    await pause(600);
    expect(await b.op({ op: "message.send", id: "r3", blocks: offered })).toMatchObject({ type: "ack" });
    await waitFor(() => daemon.prompts(sessionId).length === 2, "the restored message ran");
    expect(daemon.prompts(sessionId)[1]!.blocks).toEqual(withImage("look at this", "one"));
    // Its re-queue by A runs nothing twice: q3 was claimed; q2 re-queued runs next.
    expect(await a.op({ op: "message.send", id: requeueId("q2"), blocks: text("two") })).toMatchObject({ type: "ack" });
  });

  it("a message over the image budget is refused whole: nothing queued, nothing sent; the queue's byte cap holds one full message", async () => {
    const { daemon, sessionId, a } = await busyRoom(3);
    const over: PromptBlock[] = [{ type: "text", text: "too much" }, image("a"), image("b"), image("c", 8)];
    expect(MAX_PROMPT_IMAGE_CHARS).toBe(2 * MAX_IMAGE_DATA_CHARS);
    expect(await a.op({ op: "message.send", id: "big", blocks: over })).toMatchObject({ type: "error", code: "PROMPT_TOO_LARGE" });
    expect(a.lastQueue()?.entries ?? []).toEqual([]);
    // The largest message that is allowed (text and two full-size images) queues…
    const full: PromptBlock[] = [{ type: "text", text: "€".repeat(60_000) }, image("a"), image("b")];
    await pause(600);
    expect(await a.op({ op: "message.send", id: "full", blocks: full })).toMatchObject({ result: { queued: true } });
    expect(new TextEncoder().encode(JSON.stringify(full)).byteLength).toBeLessThan(MAX_QUEUE_BYTES);
    // …a second one does not fit beside it: refused whole, with the limit said, the first intact.
    await pause(1200);
    const second = await a.op({ op: "message.send", id: "full2", blocks: full });
    expect(second).toMatchObject({ type: "error", code: "QUEUE_FULL", message: expect.stringContaining(`${MAX_QUEUE_BYTES / 1024} KB`) });
    expect(a.lastQueue()!.entries.map((e) => e.id)).toEqual(["full"]);
    await daemon.finishTurn(sessionId);
    await waitFor(() => daemon.prompts(sessionId).length === 2, "flush");
    expect(daemon.prompts(sessionId)[1]!.blocks).toEqual(full);
    expect(daemon.prompts(sessionId).map((p) => p.messageId)).toEqual(["run", "full"]);
  });
});
