/**
 * Baton's bench worker (bench/bench-worker.ts: the product Worker, its DOs and the bare relay) plus
 * Cloudflare's `AIChatAgent` (@cloudflare/ai-chat on `agents`, from the peers cache) in the same
 * workerd, for the side-by-side fan-out and mid-stream join figures (bench/peers/ai-chat/ai-chat.bench-run.ts).
 *
 * `BenchChat`'s model is a scripted UI message stream (no network): `chunks` text deltas, TICK at a time
 * per macrotask like Baton's bench producer, optionally holding after `holdAt` of them (mid-stream join).
 */
import { AIChatAgent } from "@cloudflare/ai-chat";
import { routeAgentRequest } from "agents";
import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import benchWorker from "../../bench-worker";
import { fanOutChunk } from "./chunk";

export { BareMachine, BareRoom, Machine, SessionFeed, SessionRoom } from "../../bench-worker";

/** Chunks written per macrotask (bench/room.bench-run.ts TICK_EVENTS: the same producer pace). */
const TICK = 20;

export class BenchChat extends AIChatAgent {
  private plan = { chunks: 0, holdAt: -1 };
  private releaseHold: (() => void) | null = null;
  private heldAt = -1;
  private turns = 0;

  /** Starts a turn whose answer streams `chunks` deltas (held after `holdAt` of them until `resume`). */
  async startTurn(chunks: number, holdAt = -1): Promise<void> {
    this.plan = { chunks, holdAt };
    this.heldAt = -1;
    const id = `u${++this.turns}`;
    this.ctx.waitUntil(this.saveMessages((messages) => [...messages, { id, role: "user", parts: [{ type: "text", text: `stream ${chunks}` }] }]));
  }

  async held(): Promise<boolean> {
    return this.heldAt >= 0;
  }

  async resume(): Promise<void> {
    this.releaseHold?.();
  }

  override async onChatMessage(): Promise<Response> {
    const { chunks, holdAt } = this.plan;
    const stream = createUIMessageStream({
      execute: async ({ writer }) => {
        writer.write({ type: "text-start", id: "answer" });
        for (let i = 0; i < chunks; i++) {
          if (i === holdAt) {
            this.heldAt = i;
            await new Promise<void>((r) => (this.releaseHold = r));
          }
          writer.write({ type: "text-delta", id: "answer", delta: fanOutChunk(i) });
          if (i % TICK === TICK - 1) await new Promise((r) => setTimeout(r, 0));
        }
        writer.write({ type: "text-end", id: "answer" });
      },
    });
    return createUIMessageStreamResponse({ stream });
  }
}

export default {
  async fetch(request: Request, env: Parameters<typeof benchWorker.fetch>[1], ctx: ExecutionContext): Promise<Response> {
    return (await routeAgentRequest(request, env)) ?? benchWorker.fetch(request, env, ctx);
  },
};
