/**
 * What the Sender, the queue chips and the transcript's buttons do, as plain functions over the op
 * client and the draft. No optimistic rows: the room's `user_message` echo paints user rows.
 */
import type { ElicitationAction, ElicitationContent, QueueEntry } from "../../../shared/viewer-protocol";
import { ackOf, type OpInput, type OpReply } from "../connection/op-client";
import { sentence } from "../lib/format";
import { blocksToDraft, type Draft, draftBlocks, EMPTY_DRAFT, mergeDraft, type ConfigWrite } from "./composer-logic";
import { editedBlocks, requeueId } from "./queue-logic";

export type Notify = (text: string, kind?: "info" | "error") => void;

const STEERING_TEXT = "That message is being delivered into the running turn — wait for the outcome.";

const ERROR_TEXT: Record<string, string> = {
  QUEUE_FULL: "The queue is full — cancel or take back a queued message first. Your draft is kept.",
  MACHINE_BUSY: "The machine is running as many turns as it allows. Your draft is kept — try again shortly.",
  MACHINE_OFFLINE: "The machine is offline. Your draft is kept.",
  PROMPT_TOO_LARGE: "That message is too large to send. Your draft is kept.",
  EMPTY_PROMPT: "Nothing to send.",
  FORBIDDEN: "You can follow this session but not act in it.",
  RATE_LIMITED: "Slow down a little — too many actions at once.",
  NOT_SUPPORTED: "The agent does not support that.",
};

export function errorText(reply: Extract<OpReply, { type: "error" }>): string {
  const fixed = ERROR_TEXT[reply.code];
  if (fixed) return fixed;
  // The room's own words (e.g. why the agent session failed), with the draft reassurance.
  if (reply.code === "SESSION_NOT_READY") return `${sentence(reply.message)} Your draft is kept.`;
  return reply.message.charAt(0).toUpperCase() + reply.message.slice(1);
}

/** What a queue op answered (cancel / edit / move / steer), or null when it was not one. */
function queueOutcome(reply: OpReply) {
  return (ackOf(reply, "queue.cancel") ?? ackOf(reply, "queue.edit") ?? ackOf(reply, "queue.move") ?? ackOf(reply, "queue.steer"))?.outcome ?? null;
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

  const restoreDraft = (entries: readonly Pick<QueueEntry, "blocks">[]): void => {
    let d: Draft = EMPTY_DRAFT;
    for (const e of entries) d = mergeDraft(d, blocksToDraft(e.blocks));
    refill(d);
  };

  /** Claims dropped entries and puts the ones this viewer got into its draft; returns how many. */
  const claimToDraft = async (entries: readonly Pick<QueueEntry, "id" | "blocks">[]): Promise<number> => {
    if (!entries.length) return 0;
    const reply = await deps.request({ op: "queue.claimDropped", ids: entries.map((e) => e.id) });
    const ack = ackOf(reply, "queue.claimDropped");
    if (!ack) {
      restoreDraft(entries);
      return entries.length;
    }
    const claimed = new Set(ack.claimed);
    const got = entries.filter((e) => claimed.has(e.id));
    restoreDraft(got);
    return got.length;
  };

  const op = async (input: OpInput): Promise<OpReply> => {
    const reply = await deps.request(input);
    if (reply.type === "error") deps.notify(errorText(reply), "error");
    else if (queueOutcome(reply) === "already_sent") deps.notify("That message already ran.", "error");
    else if (ackOf(reply, "queue.cancel")?.outcome === "steering") deps.notify(STEERING_TEXT, "error");
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
      // A park needs no toast: the queue chip is the confirmation (and Stop may drop it next).
      if (reply.type === "error") {
        deps.setDraft(mergeDraft(sent, deps.draft()));
        deps.notify(errorText(reply), "error");
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
      const ack = ackOf(reply, "queue.cancel");
      if (ack?.outcome === "cancelled" && ack.entry) refill(blocksToDraft(ack.entry.blocks));
      else if (ack?.outcome === "already_sent") deps.notify("Too late — that message already ran.", "error");
      else if (ack?.outcome === "steering") deps.notify(STEERING_TEXT, "error");
      return reply;
    },

    steer: (id: string) => op({ op: "queue.steer", id }),

    /** Explicit retry of an unconfirmed entry: steers again mid-turn; when idle it runs as the next turn. */
    async retry(id: string): Promise<OpReply> {
      const reply = await op({ op: "queue.steer", id });
      if (ackOf(reply, "queue.steer")?.outcome === "requeued") deps.notify("It runs as the next turn.");
      return reply;
    },

    /**
     * Edit in place (`queue.edit`: id and position kept). True when the editor may close. If the
     * entry already ran or left the queue, the edited text goes to the draft so nothing typed is lost.
     */
    async edit(entry: Pick<QueueEntry, "id" | "blocks">, text: string): Promise<boolean> {
      const blocks = editedBlocks(entry.blocks, text);
      if (!blocks) return false;
      const reply = await deps.request({ op: "queue.edit", id: entry.id, blocks });
      if (reply.type === "error") {
        deps.notify(errorText(reply), "error");
        return false;
      }
      const outcome = ackOf(reply, "queue.edit")?.outcome;
      if (outcome === "edited") return true;
      refill(blocksToDraft(blocks));
      deps.notify(
        outcome === "already_sent" ? "Too late — that message already ran. Your edit is in the draft." : "That message left the queue. Your edit is in the draft.",
        "error",
      );
      return true;
    },

    /** The entry being edited left the queue (ran, cancelled, Stop): keep the unsaved edit in the draft. */
    editLost(entry: Pick<QueueEntry, "blocks">, text: string): void {
      const blocks = editedBlocks(entry.blocks, text);
      if (!blocks) return;
      refill(blocksToDraft(blocks));
      deps.notify("That message left the queue while you edited it. Your edit is in the draft.", "error");
    },
    move: (id: string, before: string | null) => op({ op: "queue.move", id, before }),
    stop: () => op({ op: "turn.cancel" }),
    settings: (s: { queueDepth?: number; mergeQueued?: boolean }) => op({ op: "settings.set", ...s }),

    /**
     * "Re-queue" for the entries a Stop dropped, in order: each is sent again (so when idle the first
     * runs and the rest queue behind it). Ids derive from the dropped ids, so a second viewer doing the
     * same runs nothing twice, and an entry someone restored to a draft answers `taken` (not run).
     * What the queue cannot take (QUEUE_FULL, offline…) goes to this viewer's draft.
     */
    async requeue(
      entries: readonly Pick<QueueEntry, "id" | "blocks">[],
    ): Promise<{ sent: number; queued: number; duplicate: number; taken: number; kept: number }> {
      const n = { sent: 0, queued: 0, duplicate: 0, taken: 0, kept: 0 };
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i]!;
        const reply = await deps.request({ op: "message.send", id: requeueId(e.id), blocks: e.blocks });
        if (reply.type === "error") {
          const rest = entries.slice(i);
          n.kept = await claimToDraft(rest);
          const what = n.kept === 1 ? "1 message" : `${n.kept} messages`;
          if (n.kept)
            deps.notify(
              reply.code === "QUEUE_FULL" ? `The queue is full — ${what} went back to your draft.` : `${errorText(reply)} (${what} went back to your draft.)`,
              "error",
            );
          else deps.notify(errorText(reply), "error");
          return n;
        }
        const ack = ackOf(reply, "message.send");
        if (ack?.taken) n.taken++;
        else if (ack?.duplicate) n.duplicate++;
        else if (ack?.queued) n.queued++;
        else n.sent++;
      }
      // Only what is not visible elsewhere: a re-queued entry shows as a chip or a transcript row.
      if (n.taken) deps.notify(n.taken === entries.length ? "Someone already took that back to their draft — nothing ran." : "Some of those were already taken back to a draft — they did not run.", "error");
      else if (n.duplicate === entries.length) deps.notify("Those messages were already re-queued.");
      return n;
    },

    /**
     * "Restore to draft" for the entries a Stop dropped: claimed in the room first, so the offer goes
     * for every viewer and nobody re-queues what is now in this draft. Only what this viewer got is
     * restored; when the room cannot answer (offline), everything is restored here (nothing typed is lost).
     */
    async restoreDropped(entries: readonly Pick<QueueEntry, "id" | "blocks">[]): Promise<void> {
      const got = await claimToDraft(entries);
      if (got < entries.length) deps.notify(got ? "Some of those were already re-queued or taken by someone else." : "Someone else already re-queued or took that back.", "error");
    },

    /** Puts blocks back into this viewer's draft (e.g. a send restored from a previous page load failed). */
    restore: restoreDraft,

    async setConfig(spec: ConfigWrite, value: string | boolean): Promise<OpReply> {
      const w = spec.write;
      const input: OpInput =
        w.op === "config.set"
          ? { op: "config.set", configId: w.configId, value }
          : w.op === "mode.set"
            ? { op: "mode.set", modeId: String(value) }
            : { op: "model.set", modelId: String(value) };
      // Mid-turn, the Sender says "applies from the next turn" beside the control (not a toast).
      return op(input);
    },

    async respond(requestId: string, optionId: string | null): Promise<OpReply> {
      const reply = await op({ op: "permission.respond", requestId, optionId });
      if (ackOf(reply, "permission.respond")?.outcome === "already_resolved") deps.notify("Someone else already answered that request.");
      return reply;
    },

    async respondElicitation(requestId: string, action: ElicitationAction, content?: ElicitationContent): Promise<OpReply> {
      const reply = await op({ op: "elicitation.respond", requestId, action, ...(content ? { content } : {}) });
      if (ackOf(reply, "elicitation.respond")?.outcome === "already_resolved") deps.notify("Someone else already answered that question.");
      return reply;
    },
  };
}
export type SessionActions = ReturnType<typeof makeSessionActions>;
