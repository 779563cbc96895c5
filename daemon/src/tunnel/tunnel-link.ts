/**
 * The tunnel's protocol, without the socket: what the daemon says and answers over one connection to
 * its Machine. The owner (tunnel-client.ts) holds the socket and the timers and feeds this.
 *
 * - hello → welcome: nothing numbered is sent before `welcome`; the welcome's `lastSeenUp` acks what
 *   the Machine already processed, and the unacked rest is resent, in order.
 * - Every event is numbered into an outbox and kept until acked (across reconnects).
 * - Events pushed in one tick leave as one frame (`batch`, bounded by count and bytes); at most
 *   MAX_FRAMES_IN_FLIGHT frames wait for an ack (send-window.ts), the rest pile up and leave together.
 * - Commands are handed over once each (by `n`) and every one is acked, duplicates and unreadable ones too.
 */
import { assertNever } from "../../../shared/assert-never";
import { MAX_ASK_REPLY_BYTES, MAX_BATCH_EVENTS, MAX_TUNNEL_FRAME_BYTES } from "../../../shared/limits";
import { AskErrorCode } from "../../../shared/tunnel-ask";
import { TUNNEL_PROTOCOL_VERSION } from "../../../shared/protocol-version";
import { type DaemonEvent, type DaemonFrame, MachineCommand, MachineFrame } from "../../../shared/tunnel-protocol";
import { fitEvent } from "./frame-fit";
import type { Logger } from "../log";
import { makeInbox, makeOutbox } from "./reliable-outbox";
import { MAX_FRAMES_IN_FLIGHT, makeSendWindow } from "./send-window";

type Hello = Extract<DaemonFrame, { type: "hello" }>;
export type HelloInfo = Omit<Hello, "type" | "epoch" | "lastSeenDown" | "protocolVersion">;

/** A batch frame stays well under the server's frame limit (each event is already fitted to it). */
const BATCH_BYTES = Math.floor(MAX_TUNNEL_FRAME_BYTES * 0.75);
/** How much of a malformed frame goes into the log line. */
const LOG_SNIPPET_CHARS = 120;

export type LinkEffects = {
  /** Writes one frame to the socket; false when it is not open (what was not written is resent later). */
  transmit(frame: DaemonFrame): boolean;
  /** Called once per new command, in order. */
  onCommand(cmd: MachineCommand): void;
  /** A numbered command the daemon could not parse (acked anyway so it is not resent forever). */
  onInvalidCommand?(raw: unknown, reason: string): void;
  log: Logger;
};

/** What a frame from the Machine meant for the owner. */
export type LinkEvent =
  /** The Machine accepted the hello: connected (call `resend` next). */
  | { type: "welcome"; machineId: string; resend: number }
  /** An ack: `waiting` when events wait on the send window (flush them). */
  | { type: "ack"; waiting: boolean }
  /** A question to answer now with `reply(id, …)` (shared/tunnel-ask.ts); `request` is not yet checked. */
  | { type: "ask"; id: string; request: unknown }
  | null;

export function snippet(text: string): string {
  return text.length > LOG_SNIPPET_CHARS ? `${text.slice(0, LOG_SNIPPET_CHARS)}…` : text;
}

export function makeTunnelLink(epoch: string, fx: LinkEffects) {
  const outbox = makeOutbox<DaemonEvent>();
  const inbox = makeInbox();
  const window = makeSendWindow<{ n: number; payload: DaemonEvent }>(MAX_FRAMES_IN_FLIGHT);
  let welcomed = false;

  /** Sends numbered events coalesced into `batch` frames (bounded by count and bytes), in order. */
  function sendNumbered(items: readonly { n: number; payload: DaemonEvent }[]): void {
    let group: { n: number; event: DaemonEvent }[] = [];
    let bytes = 0;
    const flush = (): boolean => {
      if (!group.length) return true;
      const frame: DaemonFrame = group.length === 1 ? { type: "event", ...group[0]! } : { type: "batch", events: group };
      const lastN = group[group.length - 1]!.n;
      group = [];
      bytes = 0;
      if (!fx.transmit(frame)) return false;
      window.sent(lastN);
      return true;
    };
    for (const item of items) {
      const size = JSON.stringify(item.payload).length + 32;
      if (group.length && (group.length >= MAX_BATCH_EVENTS || bytes + size > BATCH_BYTES)) if (!flush()) return;
      group.push({ n: item.n, event: item.payload });
      bytes += size;
    }
    flush();
  }

  function onCommandFrame(n: number, rawCommand: unknown): void {
    if (inbox.accept(n)) {
      const parsed = MachineCommand.safeParse(rawCommand);
      if (parsed.success) fx.onCommand(parsed.data);
      else {
        const reason = parsed.error.issues[0]?.message ?? "invalid command";
        fx.log.warn(`ignored invalid command #${n}: ${reason}`);
        fx.onInvalidCommand?.(rawCommand, reason);
      }
    }
    fx.transmit({ type: "ack", n }); // duplicates are acked too, so the machine stops resending
  }

  return {
    /** A socket opened: the hello to send (nothing numbered goes out until its welcome). */
    hello(info: HelloInfo): DaemonFrame {
      welcomed = false;
      return { type: "hello", epoch, lastSeenDown: inbox.lastSeen, protocolVersion: TUNNEL_PROTOCOL_VERSION, ...info };
    },

    /** The socket is gone: events wait for the next welcome. */
    disconnected(): void {
      welcomed = false;
    },

    /** Numbers and keeps an event; true when it waits for this tick's `flush` (welcomed), false when for the next welcome. */
    push(event: DaemonEvent): boolean {
      const item = outbox.push(fitEvent(event));
      if (!welcomed) return false;
      window.push(item);
      return true;
    },

    /** End of a tick: sends what the window allows; true when events still wait on a full window. */
    flush(): boolean {
      if (!welcomed) {
        window.reset(); // the outbox resends them after the next welcome
        return false;
      }
      const items = window.take();
      if (items.length) sendNumbered(items);
      return window.queued > 0;
    },

    /** No ack came for a while (a frame the server refused is never acked): free the window and flush. */
    stalled(): boolean {
      window.release();
      return this.flush();
    },

    /** After a welcome: the unacked events again, in order. */
    resend(): void {
      window.reset();
      sendNumbered(outbox.unacked());
    },

    /** A text frame from the Machine. */
    receive(text: string): LinkEvent {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        fx.log.warn(`ignored a non-JSON frame from the server: ${snippet(text)}`);
        return null;
      }
      const parsed = MachineFrame.safeParse(json);
      if (!parsed.success) {
        const j = json as { type?: unknown; n?: unknown; command?: unknown } | null;
        // A numbered command we cannot read still has to be acked, or it comes back after every reconnect.
        if (j && j.type === "command" && typeof j.n === "number" && Number.isInteger(j.n) && j.n >= 1 && welcomed) onCommandFrame(j.n, j.command);
        else fx.log.warn(`ignored a malformed frame from the server: ${snippet(text)}`);
        return null;
      }
      const frame = parsed.data;
      switch (frame.type) {
        case "welcome":
          welcomed = true;
          outbox.ack(frame.lastSeenUp);
          return { type: "welcome", machineId: frame.machineId, resend: outbox.size };
        case "ack":
          outbox.ack(frame.n);
          window.ack(frame.n);
          return { type: "ack", waiting: window.queued > 0 };
        case "command":
          if (!welcomed) fx.log.warn(`ignored command #${frame.n} before welcome`);
          else onCommandFrame(frame.n, frame.command);
          return null;
        case "error":
          fx.log.warn(`server error ${frame.code}: ${frame.message}`);
          return null;
        case "ask":
          return { type: "ask", id: frame.id, request: frame.request };
        default:
          return assertNever(frame);
      }
    },

    /** The answer to an ask (not numbered): one over MAX_ASK_REPLY_BYTES goes as REPLY_TOO_LARGE instead. */
    reply(id: string, answer: { ok: true; result: unknown } | { ok: false; code: string; message: string }): boolean {
      const frame: DaemonFrame = answer.ok ? { type: "reply", id, ok: true, result: answer.result } : { type: "reply", id, ok: false, code: answer.code, message: answer.message.slice(0, 2000) };
      if (JSON.stringify(frame).length <= MAX_ASK_REPLY_BYTES) return fx.transmit(frame);
      return fx.transmit({ type: "reply", id, ok: false, code: AskErrorCode.REPLY_TOO_LARGE, message: `the answer exceeds ${MAX_ASK_REPLY_BYTES} bytes` });
    },

    get welcomed(): boolean {
      return welcomed;
    },
    /** Events not yet acked by the machine. */
    get pending(): number {
      return outbox.size;
    },
    get lastSeenDown(): number {
      return inbox.lastSeen;
    },
  };
}
export type TunnelLink = ReturnType<typeof makeTunnelLink>;
