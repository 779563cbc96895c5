/**
 * The Machine's open asks (shared/tunnel-ask.ts): each waits for its one reply, by id. Held in memory only:
 * an ask lives inside the RPC call that made it, so a Machine evicted meanwhile has no caller left to answer.
 */
import { AskErrorCode, type AskKind, type AskOutcome, type AskReplyFrame, readReply } from "../../shared/tunnel-ask";
import { MAX_ASK_REPLY_BYTES } from "../../shared/limits";

type Open = { kind: AskKind; settle(outcome: AskOutcome<AskKind>): void };

export class AskTable {
  private readonly open = new Map<string, Open>();

  /** A new ask's id and the promise of its outcome. */
  add<K extends AskKind>(id: string, kind: K): Promise<AskOutcome<K>> {
    return new Promise<AskOutcome<K>>((resolve) => {
      this.open.set(id, { kind, settle: (o) => resolve(o as AskOutcome<K>) });
    });
  }

  /** A reply frame (already parsed) of `bytes` characters: settles its ask; false when none waits for it. */
  reply(frame: AskReplyFrame, bytes: number): boolean {
    const ask = this.open.get(frame.id);
    if (!ask) return false;
    this.open.delete(frame.id);
    ask.settle(
      bytes > MAX_ASK_REPLY_BYTES
        ? { ok: false, code: AskErrorCode.REPLY_TOO_LARGE, message: `the daemon's answer exceeds ${MAX_ASK_REPLY_BYTES} bytes` }
        : readReply(ask.kind, frame),
    );
    return true;
  }

  /** Ends one ask with an error (timeout); no-op when it was answered. */
  fail(id: string, code: string, message: string): void {
    const ask = this.open.get(id);
    if (!ask) return;
    this.open.delete(id);
    ask.settle({ ok: false, code, message });
  }

  /** The tunnel went away: every open ask fails now rather than at its timeout. */
  failAll(code: string, message: string): void {
    for (const id of [...this.open.keys()]) this.fail(id, code, message);
  }

  get size(): number {
    return this.open.size;
  }
}
