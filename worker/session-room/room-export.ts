/**
 * The transcript as a Markdown download, streamed: the title block, then the compacted rows a step at a
 * time (each step folded alone, as a history page is, and rendered by shared/transcript-markdown.ts).
 * Memory is one step's rows whatever the session's length; the stream pulls the next step when the
 * reader wants more.
 */
import { fold, initialSessionState } from "../../shared/fold";
import { exportFileName, markdownHeader, rowsMarkdown } from "../../shared/transcript-markdown";
import type { RoomStore } from "./room-store";
import { toolCommand } from "./search-text";
import { sessionTitleOf } from "./session-title";

/** Compacted items rendered per pull: bounds the memory of an export (each item is one row). */
const EXPORT_STEP_ITEMS = 256;

export function exportMarkdown(store: RoomStore, now: number): Response | null {
  const state = store.state();
  if (!state) return null;
  const title = sessionTitleOf({ agentTitle: state.agentTitle, firstPrompt: state.firstPrompt, created: state.session.title });
  store.compact();
  const encoder = new TextEncoder();
  let after = 0;
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(markdownHeader({ title, agent: state.session.agentId, cwd: state.session.cwd, exportedAt: now })));
        return;
      }
      // A step may render nothing (thoughts only): go on until something is enqueued or the end.
      for (;;) {
        const items = store.compactedAfter(after, EXPORT_STEP_ITEMS);
        if (!items.length) return controller.close();
        after = items[items.length - 1]!.pos;
        const events = items.flatMap((it) => it.events);
        const at = items.flatMap((it) => it.events.map(() => it.pos));
        const state = fold(initialSessionState(), { type: "snapshot", seq: 0, events, at });
        const byTool = new Map(items.flatMap((it) => (it.key?.startsWith("tool:") ? [[it.key.slice(5), it.events] as const] : [])));
        const md = rowsMarkdown(state.rows, (row) => toolCommand(byTool.get(row.toolCallId) ?? []));
        if (md) return controller.enqueue(encoder.encode(md));
      }
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/markdown; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(title)}"`,
      "Cache-Control": "no-store",
    },
  });
}
