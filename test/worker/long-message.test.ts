/**
 * One agent message of several megabytes (text chunks the room compacts into one row) in a real room:
 * compaction stores it in bounded parts, so a fresh viewer still joins and reads the whole text back,
 * a search finds words past the first part, and the export holds it all. (Before: the row's body was
 * one SQLite value and the join died with SQLITE_TOOBIG.)
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fold, initialSessionState } from "../../shared/fold";
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import { ORIGIN, setupSession, TestViewer, text, waitFor } from "./harness";

/** Chunk text per event: 256 of them in a batch frame stay under the tunnel's 1 MiB frame limit. */
const CHUNK_CHARS = 2000;
/** Over the largest SQLite value: 2 MB in a deployed Durable Object, between 8.4 and 9 MB in local workerd. */
const MESSAGE_CHARS = 9_500_000;

describe("a message over the compacted row bound (workerd)", () => {
  it("a fresh viewer joins and reads the full text; search finds its tail; the export holds it", async () => {
    const { daemon, sessionId } = await setupSession();
    const owner = await TestViewer.open(sessionId, 0);
    await owner.op({ op: "message.send", id: "ask", blocks: text("write a long answer") });
    await waitFor(() => daemon.prompts(sessionId).length === 1, "the prompt reaches the daemon");
    const turnId = daemon.prompts(sessionId)[0]!.turnId;

    const pieces: string[] = [];
    for (let i = 0; pieces.length * CHUNK_CHARS < MESSAGE_CHARS; i++) pieces.push(`${String(i).padStart(6, "0")} ${"lorem ipsum ".repeat(200)}`.slice(0, CHUNK_CHARS));
    pieces.push(" the closing zebrafish words.");
    const full = pieces.join("");
    const events: DaemonEvent[] = pieces.map((t) => ({
      t: "session.update",
      sessionId,
      update: { sessionUpdate: "agent_message_chunk", messageId: "long", content: { type: "text", text: t } },
    }));
    daemon.emitBatch(events);
    daemon.emit({ t: "turn.ended", sessionId, turnId, stopReason: "end_turn" });
    await daemon.settle();
    await waitFor(() => owner.lastStatus()?.state === "idle", "the turn ends", 30_000);
    owner.close();

    const fresh = await TestViewer.open(sessionId, 0);
    const s = fresh.frames.reduce(fold, initialSessionState());
    const answers = s.rows.filter((r) => r.kind === "agent");
    expect(answers).toHaveLength(1);
    expect(answers[0]!.kind === "agent" && answers[0]!.text.length).toBe(full.length);
    expect(answers[0]!.kind === "agent" && answers[0]!.text === full).toBe(true);

    const found = await fresh.op({ op: "history.search", query: "zebrafish" }, 30_000);
    expect(found).toMatchObject({ type: "ack", result: { hits: [{ kind: "agent", rowId: "agent:long" }] } });
    fresh.close();

    const md = await (await exports.default.fetch(`${ORIGIN}/api/sessions/${sessionId}/export.md`)).text();
    expect(md).toContain(pieces[0]!);
    expect(md).toContain(pieces[pieces.length - 2]! + pieces[pieces.length - 1]!);
    // The answer is one block in the export, not cut where a stored part ends.
    expect(md.split("lorem ipsum").length - 1).toBe(full.split("lorem ipsum").length - 1);
  }, 120_000);
});
