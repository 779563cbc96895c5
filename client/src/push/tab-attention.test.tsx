import { render } from "@solidjs/testing-library";
import { createEffect } from "solid-js";
import { createStore } from "solid-js/store";
import { afterEach, describe, expect, it } from "vitest";
import type { PermissionRow, Row } from "../../../shared/fold";
import { createTabAttention } from "./create-tab-attention";
import { attentionEvents, attentionTitle, FAVICON, FAVICON_ALERT, faviconFor, markOf } from "./tab-attention";

const agent = (id: string): Row => ({ kind: "agent", id, text: "hi", streaming: false });
const permission = (id: string, resolved = false): PermissionRow => ({
  kind: "permission",
  id: `perm:${id}`,
  requestId: id,
  title: "Run tests",
  toolKind: "execute",
  subject: { command: null, paths: [], content: [] },
  options: [],
  resolved: resolved ? { outcome: "selected", optionId: "a", by: null } : null,
});

describe("attention rules", () => {
  it("a turn that ended and each new open permission count; resolved ones and old rows do not", () => {
    const prev = { turnActive: true, rowCount: 1 };
    expect(attentionEvents(prev, { ready: true, turnActive: false, rows: [agent("a")] })).toBe(1);
    expect(attentionEvents(prev, { ready: true, turnActive: true, rows: [agent("a"), permission("r1"), permission("r2", true)] })).toBe(1);
    expect(attentionEvents({ turnActive: false, rowCount: 0 }, { ready: true, turnActive: true, rows: [agent("a")] })).toBe(0);
  });
  it("joining (before the replay's end) and a re-snapshot are not news", () => {
    expect(attentionEvents(null, { ready: true, turnActive: false, rows: [permission("r1")] })).toBe(0);
    expect(markOf({ ready: false, turnActive: true, rows: [] })).toBeNull();
    expect(attentionEvents({ turnActive: false, rowCount: 5 }, { ready: true, turnActive: false, rows: [permission("r1")] })).toBe(0);
  });
  it("title and favicon", () => {
    expect(attentionTitle("Fix bug — Baton", 0)).toBe("Fix bug — Baton");
    expect(attentionTitle("Fix bug — Baton", 3)).toBe("(3) Fix bug — Baton");
    expect(faviconFor(0)).toBe(FAVICON);
    expect(faviconFor(2)).toBe(FAVICON_ALERT);
  });
});

function setVisibility(v: "hidden" | "visible") {
  Object.defineProperty(document, "visibilityState", { value: v, configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}

describe("createTabAttention (in a page)", () => {
  afterEach(() => setVisibility("visible"));

  it("while hidden: the title counts what would have notified and the favicon gets a dot; seeing the page clears both", () => {
    const [s, set] = createStore({ ready: true, turnActive: true, rows: [agent("a")] as Row[] });
    render(() => {
      const count = createTabAttention(() => ({ ready: s.ready, turnActive: s.turnActive, rows: s.rows }));
      createEffect(() => (document.title = attentionTitle("Session — Baton", count())));
      return null;
    });
    const icon = () => document.querySelector('link[rel="icon"]')?.getAttribute("href");
    expect(document.title).toBe("Session — Baton");
    expect(icon()).toBe(FAVICON);
    // Visible: nothing counts (the person sees it happen).
    set("rows", (r) => [...r, permission("r0")]);
    expect(document.title).toBe("Session — Baton");

    setVisibility("hidden");
    set("rows", (r) => [...r, permission("r1")]);
    expect(document.title).toBe("(1) Session — Baton");
    set("turnActive", false);
    expect(document.title).toBe("(2) Session — Baton");
    expect(icon()).toBe(FAVICON_ALERT);

    setVisibility("visible");
    expect(document.title).toBe("Session — Baton");
    expect(icon()).toBe(FAVICON);
  });
});
