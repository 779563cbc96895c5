/**
 * What the Sender, the queue chips and the transcript's buttons do, as plain functions over the op
 * client and the draft. No optimistic rows: the room's `user_message` echo paints user rows.
 */
import type { QueueEntry, QueueOpAck, SendAck } from "../../../shared/viewer-protocol";
import type { OpInput, OpReply } from "../connection/op-client";
import { blocksToDraft, type Draft, draftBlocks, EMPTY_DRAFT, mergeDraft, type SelectSpec } from "./composer-logic";

export type Notify = (text: string, kind?: "info" | "error") => void;

export const QUEUED_TOAST = "Queued — sends when the agent is idle";

const ERROR_TEXT: Record<string, string> = {
  QUEUE_FULL: "The queue is full — cancel or take back a queued message first. Your draft is kept.",
  MACHINE_BUSY: "The machine is running as many turns as it allows. Your draft is kept — try again shortly.",
  MACHINE_OFFLINE: "The machine is offline. Your draft is kept.",
  SESSION_NOT_READY: "The agent is still starting. Your draft is kept.",
  PROMPT_TOO_LARGE: "That message is too large to send. Your draft is kept.",
  EMPTY_PROMPT: "Nothing to send.",
  FORBIDDEN: "You can follow this session but not act in it.",
  RATE_LIMITED: "Slow down a little — too many actions at once.",
  NOT_SUPPORTED: "The agent does not support that.",
};

export function errorText(reply: Extract<OpReply, { type: "error" }>): string {
  return ERROR_TEXT[reply.code] ?? reply.message;
}

export type SessionActionDeps = {
  request: (op: OpInput) => Promise<OpReply>;
  draft: () => Draft;
  setDraft: (d: Draft) => void;
  notify: Notify;
  mintId?: () => string;
};

export function makeSessionActions(deps: SessionActionDeps) {
  const mint = deps.mintId ?? (() => crypto.randomUUID());
  /** Puts content back into the composer, after whatever was typed meanwhile. */
  const refill = (d: Draft) => deps.setDraft(mergeDraft(deps.draft(), d));

  const op = async (input: OpInput): Promise<OpReply> => {
    const reply = await deps.request(input);
    if (reply.type === "error") deps.notify(errorText(reply), "error");
    else if (reply.result["outcome"] === "already_sent") deps.notify("That message already ran.", "error");
    return reply;
  };

  return {
    /**
     * Sends the draft. The composer clears at once (the outbox keeps the op across drops); a refusal
     * puts the draft back (before anything typed since) and says why; a park mid-turn says "Queued".
     */
    async send(): Promise<OpReply | null> {
      const sent = deps.draft();
      const blocks = draftBlocks(sent);
      if (!blocks) return null;
      deps.setDraft(EMPTY_DRAFT);
      const reply = await deps.request({ op: "message.send", id: mint(), blocks });
      if (reply.type === "error") {
        deps.setDraft(mergeDraft(sent, deps.draft()));
        deps.notify(errorText(reply), "error");
      } else {
        const ack = reply.result as SendAck;
        if (ack.queued && !ack.duplicate) deps.notify(QUEUED_TOAST);
      }
      return reply;
    },

    cancel: (id: string) => op({ op: "queue.cancel", id }),

    /** Take back to draft: cancel the entry, then refill the composer with the returned blocks. */
    async takeBack(id: string): Promise<OpReply> {
      const reply = await deps.request({ op: "queue.cancel", id });
      if (reply.type === "error") {
        deps.notify(errorText(reply), "error");
        return reply;
      }
      const ack = reply.result as QueueOpAck;
      if (ack.outcome === "cancelled" && ack.entry) refill(blocksToDraft(ack.entry.blocks));
      else if (ack.outcome === "already_sent") deps.notify("Too late — that message already ran.", "error");
      return reply;
    },

    steer: (id: string) => op({ op: "queue.steer", id }),
    move: (id: string, before: string | null) => op({ op: "queue.move", id, before }),
    stop: () => op({ op: "turn.cancel" }),
    settings: (s: { queueDepth?: number; mergeQueued?: boolean }) => op({ op: "settings.set", ...s }),

    /** "Restore to draft" for the entries a Stop dropped. */
    restore(entries: readonly Pick<QueueEntry, "blocks">[]): void {
      let d: Draft = EMPTY_DRAFT;
      for (const e of entries) d = mergeDraft(d, blocksToDraft(e.blocks));
      refill(d);
    },

    async setConfig(spec: SelectSpec, value: string): Promise<OpReply> {
      const w = spec.write;
      const input: OpInput =
        w.op === "config.set"
          ? { op: "config.set", configId: w.configId, value }
          : w.op === "mode.set"
            ? { op: "mode.set", modeId: value }
            : { op: "model.set", modelId: value };
      const reply = await op(input);
      if (reply.type === "ack" && reply.result["appliesNextTurn"]) deps.notify(`${spec.label} applies from the next turn`);
      return reply;
    },

    async respond(requestId: string, optionId: string | null): Promise<OpReply> {
      const reply = await op({ op: "permission.respond", requestId, optionId });
      if (reply.type === "ack" && reply.result["outcome"] === "already_resolved") deps.notify("Someone else already answered that request.");
      return reply;
    },
  };
}
export type SessionActions = ReturnType<typeof makeSessionActions>;
