/**
 * The Machine's open asks (shared/tunnel-ask.ts): each waits for its one reply, by id. Held in memory only:
 * an ask lives inside the RPC call that made it, so a Machine evicted meanwhile has no caller left to answer.
 */
import { AskErrorCode, type AskKind, type AskOutcome, type AskReplyFrame, type AskRequest, readReply } from "../../shared/tunnel-ask";
import type { AskWireOutcome } from "./machine-rpc";
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

  /**
   * Sends `request` (by `send`, with its new id) and waits for its reply; no answer within `timeoutMs` →
   * ASK_TIMEOUT. The one bounded wait in a DO: it lives inside the RPC call that asks (the Machine is busy
   * answering it, never idle), so hibernation is not held up. The outcome as JSON: the caller checks it
   * again for its kind (outcomeOf); nothing typed rides the RPC.
   */
  async ask(request: AskRequest, send: (id: string) => void, timeoutMs: number): Promise<AskWireOutcome> {
    const id = crypto.randomUUID();
    const answer = this.add(id, request.kind);
    send(id);
    const wait = new AbortController();
    scheduler.wait(timeoutMs, { signal: wait.signal }).then(
      () => this.fail(id, AskErrorCode.TIMEOUT, `the machine did not answer within ${Math.round(timeoutMs / 1000)} s`),
      () => {}, // answered first: the wait was aborted
    );
    const outcome = await answer;
    wait.abort();
    return outcome.ok ? { ok: true, result: JSON.stringify(outcome.result) } : outcome;
  }

  get size(): number {
    return this.open.size;
  }
}
