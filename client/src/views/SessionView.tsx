import { useParams } from "@solidjs/router";
import { createEffect, createResource, createSignal, on, Show } from "solid-js";
import { promptPreview } from "../../../shared/blocks";
import type { QueueEntry } from "../../../shared/viewer-protocol";
import { api } from "../lib/api";
import { toast } from "../lib/toasts";
import { blocksToDraft, draftBlocks, type SelectSpec } from "../session/composer-logic";
import { createSessionStore } from "../session/create-session-store";
import { QueueChips } from "./QueueChips";
import { Sender } from "./Sender";
import { Transcript } from "./Transcript";

const STATUS_LABEL: Record<string, string> = {
  starting: "Starting",
  idle: "Idle",
  active: "Running",
  offline: "Machine offline",
  error: "Error",
  closed: "Closed",
};
const ERROR_TEXT: Record<string, string> = {
  QUEUE_FULL: "A message is already queued — cancel or take it back first. Your draft is kept.",
  MACHINE_BUSY: "This machine is running its maximum number of turns. Your draft is kept.",
  MACHINE_OFFLINE: "The machine is offline. Your draft is kept.",
};

export function SessionView() {
  const params = useParams<{ id: string }>();
  const { state, socket, takeDropped } = createSessionStore(params.id);
  const [info] = createResource(() => api.session(params.id).catch(() => null));
  const [draft, setDraft] = createSignal("");
  const canAct = () => state.viewer !== null && state.viewer.role !== "viewer";
  let scroller!: HTMLDivElement;

  createEffect(
    on(
      () => state.rows.length && state.rows[state.rows.length - 1],
      () => {
        const nearBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 200;
        if (nearBottom) queueMicrotask(() => (scroller.scrollTop = scroller.scrollHeight));
      },
    ),
  );

  const send = async () => {
    const blocks = draftBlocks(draft());
    if (!blocks) return;
    const kept = draft();
    setDraft("");
    const reply = await socket.request({ op: "message.send", id: crypto.randomUUID(), blocks });
    if (reply.type === "error") {
      setDraft((d) => (d ? `${kept}\n${d}` : kept));
      toast(ERROR_TEXT[reply.code] ?? reply.message, "error");
    } else if (reply.result["queued"]) toast("Queued — sends when the agent is idle");
  };

  const takeBack = async (id: string) => {
    const reply = await socket.request({ op: "queue.cancel", id });
    if (reply.type === "ack" && reply.result["entry"]) {
      const text = blocksToDraft((reply.result["entry"] as QueueEntry).blocks);
      setDraft((d) => (d.trim() ? `${d}\n${text}` : text));
    } else if (reply.type === "ack") toast("That message already ran", "error");
  };

  const op = async (frame: Parameters<typeof socket.request>[0]) => {
    const reply = await socket.request(frame);
    if (reply.type === "error") toast(reply.message, "error");
    else if (reply.result["outcome"] === "already_sent") toast("That message already ran", "error");
    return reply;
  };

  const select = async (spec: SelectSpec, value: string) => {
    const w = spec.write;
    const reply = await op(w.op === "config.set" ? { op: "config.set", configId: w.configId, value } : w.op === "mode.set" ? { op: "mode.set", modeId: value } : { op: "model.set", modelId: value });
    if (reply.type === "ack" && reply.result["appliesNextTurn"]) toast(`${spec.label} applies from the next turn`);
  };

  const restore = () => {
    const text = takeDropped().map((e) => blocksToDraft(e.blocks)).join("\n\n");
    setDraft((d) => (d.trim() ? `${d}\n\n${text}` : text));
  };

  return (
    <div class="session">
      <header class="session-head">
        <a class="back" href="/" aria-label="All sessions">
          ←
        </a>
        <div class="title">
          <div class="title-main">{info()?.session.title ?? "Session"}</div>
          <div class="title-sub">
            {info()?.session.agentLabel} · {info()?.session.machineName} · <span class="mono">{info()?.session.cwd}</span>
          </div>
        </div>
        <span class={`pill status-${state.status}`} data-testid="session-status" title={state.statusMessage ?? ""}>
          {STATUS_LABEL[state.status] ?? state.status}
        </span>
        <span class={`pill conn-${state.connection}`} data-testid="connection-state">
          {state.connection === "live" ? "Live" : state.connection === "reconnecting" ? "Reconnecting…" : state.connection === "offline" ? "Offline" : "Connecting…"}
        </span>
      </header>
      <div class="scroll" ref={scroller}>
        <Transcript rows={state.rows} canAct={canAct()} onPermission={(requestId, optionId) => void op({ op: "permission.respond", requestId, optionId })} />
      </div>
      <footer class="dock">
        <Show when={state.dropped.length}>
          <div class="dropped">
            <span>
              Stop dropped {state.dropped.length} queued message{state.dropped.length > 1 ? "s" : ""}: <span class="mono">{promptPreview(state.dropped[0]!.blocks, 60)}</span>
            </span>
            <button class="btn" data-testid="restore-dropped" onClick={restore}>
              Restore to draft
            </button>
          </div>
        </Show>
        <QueueChips
          entries={state.queue}
          canAct={canAct()}
          steering={!!state.config?.steering && state.turnActive}
          onCancel={(id) => void op({ op: "queue.cancel", id })}
          onTakeBack={(id) => void takeBack(id)}
          onSteer={(id) => void op({ op: "queue.steer", id })}
          onMove={(id, before) => void op({ op: "queue.move", id, before })}
        />
        <Sender
          draft={draft()}
          onDraft={setDraft}
          turnActive={state.turnActive}
          canAct={canAct()}
          config={state.config}
          onSend={() => void send()}
          onStop={() => void op({ op: "turn.cancel" })}
          onSelect={(spec, v) => void select(spec, v)}
        />
      </footer>
    </div>
  );
}
