// What the transcript's live region (role="log") hands a screen reader while an answer streams (issue 32
// #4): each answer once, when complete, not the growing paragraph on every update. A MutationObserver on
// the log records what changed; a change counts as announced the way browsers decide it: the node's
// nearest aria-live (itself or an ancestor) is not "off" and nothing above it is aria-busy.
import { render, screen } from "@solidjs/testing-library";
import { createStore } from "solid-js/store";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fold, type FoldState, initialSessionState } from "../../../shared/fold";
import type { SessionEvent } from "../../../shared/viewer-protocol";
import { syncFold, viewOf } from "../session/store-sync";
import { isGrowing, Transcript } from "./Transcript";

const bo = { id: "b", name: "Bo" };
/** Past the markdown's re-render throttle (create-markdown.ts): each step lands in the DOM as a stream's would. */
const BETWEEN_CHUNKS_MS = 100;

function isLive(node: Node, root: Element): boolean {
  for (let el = node instanceof Element ? node : node.parentElement; el; el = el.parentElement) {
    if (el.getAttribute("aria-busy") === "true") return false;
    const live = el.getAttribute("aria-live");
    if (live !== null) return live !== "off";
    if (el === root) return false;
  }
  return false;
}

/** The texts the log would announce for these records (additions and text changes in live parts). */
function announced(records: MutationRecord[], root: Element): string[] {
  const out: string[] = [];
  for (const r of records) {
    const nodes = r.type === "childList" ? [...r.addedNodes] : r.type === "characterData" ? [r.target] : [];
    for (const n of nodes) {
      const text = n.textContent?.trim();
      if (text && isLive(n, root)) out.push(text);
    }
  }
  return out;
}

/** The session as the app holds it: the real fold mirrored into a Solid store, one event at a time. */
function session() {
  let state: FoldState = initialSessionState();
  const [store, setStore] = createStore(structuredClone(viewOf(state)));
  let seq = 0;
  const apply = (event: SessionEvent) => {
    const next = fold(state, { type: "event", seq: ++seq, event });
    syncFold(setStore, state, next);
    state = next;
  };
  return { store, apply };
}

const chunk = (text: string): SessionEvent => ({ kind: "acp", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });

describe("the transcript's live region while an answer streams", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const words = "The build is green. Two tests were flaky: both wait on a timer that the slow machine misses, so I made them wait on the event instead.".split(" ");

  function streamInto() {
    const s = session();
    s.apply({ kind: "user_message", id: "m1", blocks: [{ type: "text", text: "why is CI red?" }], author: bo, at: 1 });
    s.apply({ kind: "session_status", state: "active", turnId: "t1" });
    render(() => <Transcript rows={s.store.rows} canAct working={s.store.status === "active"} onPermission={() => {}} />);
    const log = screen.getByRole("log");
    const heard: string[] = [];
    const observer = new MutationObserver(() => {});
    observer.observe(log, { childList: true, subtree: true, characterData: true, attributes: true });
    /** Each update's records, judged in the DOM as that update left it. */
    const step = (event: SessionEvent) => {
      s.apply(event);
      vi.advanceTimersByTime(BETWEEN_CHUNKS_MS);
      heard.push(...announced(observer.takeRecords(), log));
    };
    return { step, heard, stop: () => observer.disconnect() };
  }

  it("says nothing while the answer grows, then the whole answer once when the turn ends", () => {
    const { step, heard, stop } = streamInto();
    for (const w of words) step(chunk(`${w} `));
    expect(heard).toEqual([]);
    step({ kind: "session_status", state: "idle" });
    stop();
    expect(heard).toHaveLength(1);
    expect(heard[0]).toBe(words.join(" "));
  });

  it("an answer followed by a tool call is announced when the tool call arrives, and not again at the turn's end", () => {
    const { step, heard, stop } = streamInto();
    for (const w of words.slice(0, 5)) step(chunk(`${w} `));
    expect(heard).toEqual([]);
    step({ kind: "acp", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "npm test", kind: "execute", status: "in_progress" } });
    expect(heard.filter((t) => t === words.slice(0, 5).join(" "))).toHaveLength(1);
    const before = heard.length;
    step({ kind: "session_status", state: "idle" });
    stop();
    expect(heard.slice(before).filter((t) => t.includes("The build is green"))).toEqual([]);
  });
});

describe("isGrowing", () => {
  it("only streaming text at the end of the transcript grows", () => {
    expect(isGrowing({ kind: "agent", id: "a", text: "x", streaming: true }, true)).toBe(true);
    expect(isGrowing({ kind: "thought", id: "t", text: "x", streaming: true }, true)).toBe(true);
    expect(isGrowing({ kind: "agent", id: "a", text: "x", streaming: true }, false)).toBe(false);
    expect(isGrowing({ kind: "agent", id: "a", text: "x", streaming: false }, true)).toBe(false);
  });
});
