/**
 * The daemon's sending discipline for benchmarks running inside workerd: events numbered, coalesced
 * into `batch` frames, at most MAX_FRAMES_IN_FLIGHT frames awaiting an ack (daemon/src/tunnel/send-window.ts,
 * the same module the real tunnel client uses). Works on any tunnel socket (the real Machine or the
 * bench's bare relay), so both sides of a ratio see the same producer.
 */
import { MAX_BATCH_EVENTS } from "../shared/limits";
import type { DaemonEvent } from "../shared/tunnel-protocol";
import { MAX_FRAMES_IN_FLIGHT, makeSendWindow } from "../daemon/src/tunnel/send-window";

export class PacedDaemon {
  private readonly window = makeSendWindow<{ n: number; event: DaemonEvent }>(MAX_FRAMES_IN_FLIGHT);
  acked = 0;
  frames = 0;

  constructor(
    private readonly ws: WebSocket,
    private n: number,
  ) {
    ws.addEventListener("message", (e) => {
      const f = JSON.parse(e.data as string) as { type: string; n?: number };
      if (f.type !== "ack" || f.n === undefined) return;
      this.acked = Math.max(this.acked, f.n);
      this.window.ack(f.n);
      this.pump();
    });
  }

  get lastN(): number {
    return this.n;
  }

  /** Queues events (one agent tick) and sends what the window allows. */
  send(events: DaemonEvent[]): void {
    for (const event of events) this.window.push({ n: ++this.n, event });
    this.pump();
  }

  private pump(): void {
    const items = this.window.take();
    for (let i = 0; i < items.length; i += MAX_BATCH_EVENTS) {
      const group = items.slice(i, i + MAX_BATCH_EVENTS);
      this.ws.send(JSON.stringify(group.length === 1 ? { type: "event", ...group[0] } : { type: "batch", events: group }));
      this.window.sent(group[group.length - 1]!.n);
      this.frames++;
    }
  }
}
