import { createRoot } from "solid-js";
import { createStore, unwrap } from "solid-js/store";
import { describe, expect, it } from "vitest";
import { fold, type FoldState, initialSessionState } from "../../../shared/fold";
import type { ServerFrame, SessionEvent } from "../../../shared/viewer-protocol";
import { type FoldView, makeFoldSync, syncFold, viewOf } from "./store-sync";

const A = { id: "a", name: "Ann" };
const echo = (id: string): SessionEvent => ({ kind: "user_message", id, blocks: [{ type: "text", text: id }], author: A, at: 1 });
const chunk = (text: string): SessionEvent => ({ kind: "acp", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });

function harness() {
  return createRoot(() => {
    let current: FoldState = initialSessionState();
    const [store, setStore] = createStore<FoldView>(structuredClone(viewOf(current)));
    let seq = 0;
    const apply = (f: ServerFrame) => {
      const next = fold(current, f);
      syncFold(setStore, current, next);
      current = next;
    };
    const ev = (e: SessionEvent) => apply({ type: "event", seq: ++seq, event: e });
    return { store, apply, ev, current: () => current };
  });
}

describe("syncFold (fold → Solid store)", () => {
  it("mirrors the fold state exactly", () => {
    const h = harness();
    h.ev(echo("m"));
    h.ev(chunk("Hel"));
    h.ev(chunk("lo"));
    h.apply({ type: "state", event: { kind: "queue_state", entries: [{ id: "q", blocks: [{ type: "text", text: "q" }], author: A, createdAt: 1, state: "queued" }], flushed: false } });
    expect(unwrap(h.store)).toEqual(viewOf(h.current()));
    expect(h.store.rows.map((r) => r.kind)).toEqual(["user", "agent"]);
    expect(h.store.queue.map((q) => q.id)).toEqual(["q"]);
  });

  it("a streamed chunk updates one row in place; other row proxies keep their identity", () => {
    const h = harness();
    h.ev(echo("m"));
    h.ev(chunk("a"));
    const user = h.store.rows[0];
    const agent = h.store.rows[1];
    h.ev(chunk("b"));
    expect(h.store.rows[0]).toBe(user);
    expect(h.store.rows[1]).toBe(agent);
    expect(agent && agent.kind === "agent" && agent.text).toBe("ab");
  });

  it("the store never aliases fold objects it later mutates (older fold states stay intact)", () => {
    const h = harness();
    h.ev(echo("m"));
    h.ev(chunk("a"));
    const before = h.current();
    h.ev(chunk("b"));
    h.ev(chunk("c"));
    expect(before.rows[1]).toMatchObject({ text: "a" });
  });

  it("many rows appended at once (a replay) mirror exactly; earlier row proxies keep identity; no aliasing", () => {
    const h = harness();
    h.ev(echo("first"));
    const first = h.store.rows[0];
    const frames = Array.from({ length: 100 }, (_, i) => ({ type: "event" as const, seq: 100 + i, event: echo(`m${i}`) }));
    h.apply({ type: "batch", frames });
    expect(h.store.rows).toHaveLength(101);
    expect(h.store.rows[0]).toBe(first);
    expect(unwrap(h.store)).toEqual(viewOf(h.current()));
    expect(unwrap(h.store).rows[50]).not.toBe(h.current().rows[50]);
    // Streaming into the last appended row afterwards updates it in place.
    h.apply({ type: "event", seq: 300, event: chunk("tail") });
    h.apply({ type: "event", seq: 301, event: chunk("!") });
    expect(h.store.rows.at(-1)).toMatchObject({ kind: "agent", text: "tail!" });
    expect(unwrap(h.store)).toEqual(viewOf(h.current()));
  });

  it("a snapshot reset replaces the rows wholesale", () => {
    const h = harness();
    h.ev(echo("old1"));
    h.ev(echo("old2"));
    h.apply({ type: "snapshot", seq: 10, events: [echo("new")] });
    expect(h.store.rows.map((r) => r.id)).toEqual(["user:new"]);
    expect(unwrap(h.store)).toEqual(viewOf(h.current()));
  });
});

describe("makeFoldSync (a replay reaches the store once, at ready)", () => {
  const viewer = { id: "a", name: "Ann", role: "owner" as const };
  function gated() {
    return createRoot(() => {
      const initial = initialSessionState();
      const [store, setStore] = createStore<FoldView>(structuredClone(viewOf(initial)));
      let writes = 0;
      const counted = ((...args: unknown[]) => {
        writes++;
        (setStore as unknown as (...a: unknown[]) => void)(...args);
      }) as typeof setStore;
      return { store, sync: makeFoldSync(counted, initial), writes: () => writes };
    });
  }

  it("snapshot pages are folded but not shown until ready; then the store equals the fold", () => {
    const { store, sync, writes } = gated();
    sync.apply({ type: "welcome", sessionId: "s", viewer, headSeq: 3 });
    sync.apply({ type: "snapshot", seq: 0, events: [echo("m1"), chunk("Hel")] });
    sync.apply({ type: "snapshot", seq: 3, append: true, events: [chunk("lo"), echo("m2")] });
    expect(sync.replaying).toBe(true);
    expect(writes()).toBe(0);
    expect(store.rows).toHaveLength(0);
    expect(sync.current.rows.map((r) => r.kind)).toEqual(["user", "agent", "user"]);
    sync.apply({ type: "ready", seq: 3 });
    expect(sync.replaying).toBe(false);
    expect(unwrap(store)).toEqual(viewOf(sync.current));
    expect(store.ready).toBe(true);
    // Live frames after ready show at once.
    sync.apply({ type: "event", seq: 4, event: chunk("!") });
    expect(store.rows.at(-1)).toMatchObject({ kind: "agent", text: "!" });
    expect(unwrap(store)).toEqual(viewOf(sync.current));
  });

  it("a reconnect's replay keeps showing the old state until its ready (no flash of an empty session)", () => {
    const { store, sync } = gated();
    sync.apply({ type: "welcome", sessionId: "s", viewer, headSeq: 1 });
    sync.apply({ type: "snapshot", seq: 1, events: [echo("m1")] });
    sync.apply({ type: "ready", seq: 1 });
    sync.apply({ type: "welcome", sessionId: "s", viewer, headSeq: 2 });
    expect(store.ready).toBe(true);
    expect(store.rows.map((r) => r.id)).toEqual(["user:m1"]);
    sync.apply({ type: "event", seq: 2, event: echo("m2") });
    expect(store.rows).toHaveLength(1);
    sync.apply({ type: "ready", seq: 2 });
    expect(store.rows.map((r) => r.id)).toEqual(["user:m1", "user:m2"]);
  });

  it("a replay cut off before ready is shown on settle; local updates wait for the replay", () => {
    const { store, sync } = gated();
    sync.apply({ type: "welcome", sessionId: "s", viewer, headSeq: 2 });
    sync.apply({ type: "snapshot", seq: 0, events: [echo("m1")] });
    sync.update((s) => ({ ...s, dropped: [] }));
    expect(store.rows).toHaveLength(0);
    sync.settle();
    expect(sync.replaying).toBe(false);
    expect(unwrap(store)).toEqual(viewOf(sync.current));
    expect(store.rows.map((r) => r.id)).toEqual(["user:m1"]);
    sync.settle(); // nothing pending: a no-op
    expect(unwrap(store)).toEqual(viewOf(sync.current));
  });
});
