import "@testing-library/jest-dom/vitest";
import { cleanup } from "@solidjs/testing-library";
import { afterEach } from "vitest";
import { loadMarkdown } from "./src/lib/create-markdown";
import { loadTerminalColours } from "./src/lib/create-terminal-runs";
import { dismissToast, holdToasts, toasts } from "./src/lib/toasts";

// In the app the markdown renderer and the terminal colour parser load after the first paint; views render
// against loaded ones here (create-markdown.test.ts, terminal-text.test.ts cover the plain text before).
await Promise.all([loadMarkdown(), loadTerminalColours()]);

// The client project shares one module graph and one jsdom across its files (`isolate: false`, vitest.config.ts):
// what a test leaves in the page's globals is put back here, so no file sees another's address, storage or toasts.
afterEach(() => {
  cleanup();
  holdToasts("hover", false);
  holdToasts("focus", false);
  for (const t of toasts()) dismissToast(t.id);
  window.history.replaceState(null, "", "/");
  localStorage.clear();
  sessionStorage.clear();
  document.title = "";
});

// jsdom has no popover API (the e2e tests drive Chromium's real one: Escape, light dismiss, focus return).
// Enough of it for the views' component tests: a popovertarget button toggles its panel, which fires
// beforetoggle and toggle as a browser does (here at once; a browser queues toggle), and shows while open.
if (!("togglePopover" in HTMLElement.prototype)) {
  const shown = new WeakSet<HTMLElement>();
  const set = (el: HTMLElement, open: boolean) => {
    if (shown.has(el) === open) return;
    const states = { oldState: open ? "closed" : "open", newState: open ? "open" : "closed" };
    el.dispatchEvent(Object.assign(new Event("beforetoggle"), states));
    if (open) shown.add(el);
    else shown.delete(el);
    // jsdom's UA sheet hides [popover]:not(:popover-open), and its selectors never match :popover-open.
    el.style.display = open ? "block" : "";
    el.dispatchEvent(Object.assign(new Event("toggle"), states));
  };
  Object.defineProperties(HTMLElement.prototype, {
    showPopover: { value(this: HTMLElement) { set(this, true); } },
    hidePopover: { value(this: HTMLElement) { set(this, false); } },
    togglePopover: { value(this: HTMLElement) { set(this, !shown.has(this)); return shown.has(this); } },
  });
  document.addEventListener("click", (e) => {
    const button = e.target instanceof Element ? e.target.closest("[popovertarget]") : null;
    const panel = button ? document.getElementById(button.getAttribute("popovertarget") ?? "") : null;
    if (panel) set(panel, !shown.has(panel));
  });
}
