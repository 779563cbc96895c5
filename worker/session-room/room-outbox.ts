/**
 * Where the room's effects on viewers and followers go: each event is logged (when a logged kind) and fanned
 * out; during a run of daemon events the frames leave as one `batch` message and the pushes are built
 * when the run ends (their preview reads the run's rows).
 */
import { LOGGED_KINDS, type SessionEvent } from "../../shared/viewer-protocol";
import { lastAgentText, type PushEvent } from "../push/notify-rules";
import type { Effect, PushDetail } from "./room-effects";
import type { RoomPort } from "./room-port";
import { NEEDS_YOU_KINDS, needsYou } from "./needs-you";
import type { RoomStore } from "./room-store";
import { sessionTitleOf } from "./session-title";

/** Log rows read back for a turn's last words in its push (enough to reach them; bounded cost per turn end). */
const PUSH_PREVIEW_TAIL_EVENTS = 200;

export class RoomOutbox {
  /** Frames emitted during a run, sent as one message when it ends. */
  private outgoing: string[] | null = null;
  /** Pushes raised during a run, built when it ends. */
  private pushes: (() => PushEvent)[] | null = null;

  constructor(
    private readonly store: RoomStore,
    private readonly port: RoomPort,
  ) {}

  /** Runs an effect that needs no await (room-effects.ts). */
  apply(e: Exclude<Effect, { t: "dispatch" | "flush" | "recover" }>): void {
    const sessionId = this.store.session()?.sessionId ?? "";
    switch (e.t) {
      case "emit":
        return this.emit(e.event);
      case "settle":
        return this.store.settle(e.id, e.fate, e.ack);
      case "request.add":
        return this.store.addRequest(e.request);
      case "request.resolve":
        return void this.store.resolveRequest(e.requestId, e.by);
      case "push":
        return this.notify(() => e.push);
      case "push.turnEnded":
        return this.turnEnded(e.actorId, e.stoppedBy);
      case "directory.status":
        return this.port.directoryStatus(sessionId, e.state);
      case "directory.activity":
        return this.port.directoryActivity(sessionId, e.at);
      case "directory.title":
        return this.port.directoryTitle(sessionId, e.title);
      case "turn.tree":
        return this.store.turnTree(e);
    }
  }

  beginRun(): void {
    this.outgoing = [];
    this.pushes = [];
    this.store.beginRun();
  }

  /** Writes the run's log rows, then sends its frames (one as is, several as one `batch` frame) and pushes. */
  endRun(): void {
    this.store.endRun();
    const frames = this.outgoing;
    const pushes = this.pushes;
    this.outgoing = this.pushes = null;
    if (frames?.length) this.port.broadcast(frames.length === 1 ? frames[0]! : `{"type":"batch","frames":[${frames.join(",")}]}`);
    for (const build of pushes ?? []) this.port.notify(build);
  }

  /** Logs (when a logged kind) and fans out to every viewer — or to the run's frames. */
  emit(event: SessionEvent): void {
    const body = JSON.stringify(event);
    // The event is serialised once: the same text goes to the log and into the frame.
    const text = LOGGED_KINDS.has(event.kind)
      ? `{"type":"event","seq":${this.store.append(event.kind, body)},"event":${body}}`
      : `{"type":"state","event":${body}}`;
    if (this.outgoing) this.outgoing.push(text);
    else this.port.broadcast(text);
    // Session list (issue 26): the "needs you" marker follows the open permission requests and forms.
    const s = NEEDS_YOU_KINDS.has(event.kind) ? this.store.session() : null;
    if (s) this.port.directoryNeedsYou(s.sessionId, needsYou(this.store));
  }

  /** Raises a push now, or at the end of the current run (built then). */
  notify(build: () => PushDetail): void {
    const state = this.store.state();
    if (!state) return;
    const raise = (): PushEvent => {
      const s = this.store.state() ?? state;
      const sessionTitle = sessionTitleOf({ agentTitle: s.agentTitle, firstPrompt: s.firstPrompt, created: s.session.title });
      return { ...build(), sessionId: s.session.sessionId, sessionTitle } as PushEvent;
    };
    if (this.pushes) this.pushes.push(raise);
    else this.port.notify(raise);
  }

  /** A turn's end for its push: stopped (by whom) or finished, with the agent's last words. */
  turnEnded(actorId: string | null, stoppedBy: string | null): void {
    this.notify(() => ({
      kind: "turn_ended",
      actorId,
      stoppedBy,
      preview: lastAgentText(this.store.eventsAfter(Math.max(0, this.store.headSeq() - PUSH_PREVIEW_TAIL_EVENTS)).map((e) => e.event)),
    }));
  }
}
