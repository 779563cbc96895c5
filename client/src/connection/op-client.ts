/**
 * Request/response over the viewer socket, without the socket: every op gets a `rid`, its promise
 * resolves on the room's `ack` / `error` (or a timeout), and `message.send` ops live in the outbox
 * until answered — resent after each `ready`. Plain (`make*`); the socket wrapper feeds it.
 */
import type { AckFrame, AckFrameOf, AckOf, ClientOp, ClientOpName, ErrorFrame, ServerFrame } from "../../../shared/viewer-protocol";
import { makeOutbox, type Outbox, type SendOp } from "./outbox";

/**
 * An ack whose result does not have its op's shape (a server of another version): the op was answered,
 * not refused, but what it said is unknown — so nobody reads a guess (ack-check.ts makes these).
 */
export type UnreadAck = { type: "unread_ack"; rid: string; op: string };

/**
 * The room's answer to an op: an ack whose result is typed by its op (`AckResults`; the session socket
 * checks it against the schema before anyone reads it), an unread ack, or an error.
 */
export type OpReply = AckFrame | UnreadAck | ErrorFrame;

const isAckOf = <K extends ClientOpName>(reply: AckFrame, op: K): reply is AckFrameOf<K> & AckFrame => reply.op === op;

/** The result when `reply` is an ack of `op`; null for an error, an unread ack or another op's ack. */
export function ackOf<K extends ClientOpName>(reply: OpReply, op: K): AckOf<K> | null {
  return reply.type === "ack" && isAckOf(reply, op) ? reply.result : null;
}

/** A client op without its rid (the client mints it). */
export type OpInput = ClientOp extends infer T ? (T extends ClientOp ? Omit<T, "rid"> : never) : never;

export const OP_TIMEOUT_MS = 15_000;

type Timers = { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };
const realTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

export type OpClientOptions = {
  /** Writes one frame to the socket; returns false when it is not open. */
  transmit: (frame: ClientOp) => boolean;
  outbox?: Outbox;
  timeoutMs?: number;
  /** A send went unanswered for `timeoutMs` on a live socket: it is probably half-open — reconnect. */
  onStall?: () => void;
  /** Answer to a send with no caller waiting (restored from storage after a reload). */
  onOrphanReply?: (op: SendOp, reply: OpReply) => void;
  /** The number of unanswered sends changed. */
  onOutboxChange?: (size: number) => void;
  mintId?: () => string;
  timers?: Timers;
};

export function makeOpClient(opts: OpClientOptions) {
  const outbox = opts.outbox ?? makeOutbox();
  const timeoutMs = opts.timeoutMs ?? OP_TIMEOUT_MS;
  const timers = opts.timers ?? realTimers;
  const mint = opts.mintId ?? (() => crypto.randomUUID());
  const waiting = new Map<string, { resolve: (r: OpReply) => void; timer: unknown; send: boolean }>();
  let live = false;

  const fail = (rid: string, code: string, message: string): ErrorFrame => ({ type: "error", rid, code, message });

  const finish = (rid: string, reply: OpReply) => {
    const w = waiting.get(rid);
    if (!w) return false;
    waiting.delete(rid);
    timers.clear(w.timer);
    w.resolve(reply);
    return true;
  };

  const arm = (rid: string) => {
    const w = waiting.get(rid);
    if (!w) return;
    timers.clear(w.timer);
    w.timer = timers.set(() => {
      if (!waiting.has(rid)) return;
      if (w.send) {
        // The outbox keeps it: a reconnect resends it and the room answers (idempotent by id).
        w.timer = null;
        opts.onStall?.();
      } else finish(rid, fail(rid, "TIMEOUT", "No answer from the server — try again."));
    }, timeoutMs);
  };

  const transmitSend = (op: SendOp) => {
    if (live && opts.transmit(op)) arm(op.rid);
  };

  return {
    /** Sends an op; resolves with its ack / error. A message.send survives reconnects. */
    request(input: OpInput): Promise<OpReply> {
      const rid = mint();
      const frame = { ...input, rid } as ClientOp;
      if (frame.op === "message.send") {
        const op = frame;
        return new Promise<OpReply>((resolve) => {
          waiting.set(rid, { resolve, timer: null, send: true });
          outbox.add(op);
          opts.onOutboxChange?.(outbox.size);
          transmitSend(op);
        });
      }
      if (!live || !opts.transmit(frame)) return Promise.resolve(fail(rid, "NOT_CONNECTED", "Not connected — try again in a moment."));
      return new Promise<OpReply>((resolve) => {
        waiting.set(rid, { resolve, timer: null, send: false });
        arm(rid);
      });
    },

    /** Feeds an inbound frame; true when it answered one of our ops. */
    handle(frame: ServerFrame): boolean {
      if ((frame.type !== "ack" && frame.type !== "error") || !frame.rid) return false;
      const sent = outbox.settle(frame.rid);
      if (sent) opts.onOutboxChange?.(outbox.size);
      const answered = finish(frame.rid, frame);
      if (sent && !answered) opts.onOrphanReply?.(sent, frame);
      return answered || sent !== undefined;
    },

    /** `ready` arrived (true) or the socket closed (false). Ready resends the outbox, oldest first. */
    setLive(next: boolean): void {
      live = next;
      if (next) {
        for (const op of outbox.list()) transmitSend(op);
        return;
      }
      // In-flight non-send ops may or may not have applied: report, do not guess.
      for (const [rid, w] of [...waiting]) {
        if (w.send) {
          timers.clear(w.timer);
          w.timer = null;
        } else finish(rid, fail(rid, "DISCONNECTED", "Connection lost before the server answered — check and retry."));
      }
    },

    get live() {
      return live;
    },
    pendingSends(): SendOp[] {
      return outbox.list();
    },
  };
}
export type OpClient = ReturnType<typeof makeOpClient>;
