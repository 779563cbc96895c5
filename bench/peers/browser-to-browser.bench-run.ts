/**
 * Issue 31 #2 — browser to browser, Baton and HAPI 0.30.7 side by side in one run: a person types a message
 * into the product's real composer in a desktop Chromium and clicks Send; a phone-profile Chromium (a second
 * browser process: 390 px iPhone 13 profile, touch, CDP CPU throttling 4×) watches the same session. Per
 * message, on the phone: send click → the message's row in the DOM and in the next animation frame (the frame
 * that paints it), and send click → the agent's first visible token.
 * - Baton: the built app on the local stack (scripts/dev-stack.mjs: wrangler dev / workerd, the real daemon
 *   and the demo agent over ACP stdio): click → socket → room → Machine → tunnel → daemon → agent, and the
 *   user row and the agent's first chunk back through room → the phone's socket → fold → Transcript.
 * - HAPI: its hub binary (bench/peers/hapi-hub.ts) and the web app it serves, signed in with
 *   `/?token=<CLI_API_TOKEN>`; the session's CLI side is the bench's Socket.IO client, which marks each user
 *   message consumed and answers it at once with one agent message (HAPI buffers an ACP segment into one
 *   message: its first visible token is that message). Its path: click → REST → hub → SSE → the phone, and
 *   hub → CLI socket → the answer → hub → SSE → the phone.
 * Clock: the click is stamped in the desktop page and the rows in the phone page, each as
 * `performance.timeOrigin + t` — both wall-clock based on one machine; the bench checks each page's offset from
 * `Date.now()` (the one system clock both read) and prints how far the two pages' clocks agree.
 * Rounds interleaved (Baton ×5, HAPI ×5, …) after warm-up messages. Prints BENCH_ROW lines; asserts no time.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, it } from "vitest";
import { DESKTOP, launch, PHONE, asPeopleHaveIt } from "../../test/e2e/browser";
import { createSession, FAST_DEMO, type Stack, startTestStack } from "../../test/e2e/support";
import { HapiHub, type HapiSession } from "./hapi-hub";

type Row = { figure: string; measured: string; ratio?: number; target?: string; ok?: boolean; data?: Record<string, unknown> };
const row = (r: Row) => console.log(`BENCH_ROW ${JSON.stringify(r)}`);

/** Phone-class CPU, as the other phone figures (issue 20): CDP slows the phone page's renderer this many times. */
const PHONE_THROTTLE = 4;
/** Measured messages per product (the issue asks for ≥ 20; BENCH_B2B_MESSAGES for a quick look), sent in interleaved rounds of ROUND. */
const MESSAGES = Number(process.env.BENCH_B2B_MESSAGES) || 20;
const ROUND = 5;
/** Messages per product before measuring: the first turn loads chunks (markdown) and warms both servers. */
const WARM_UP = 2;
/** Pause between messages: the phone finishes painting the last answer before the next click. */
const GAP_MS = 500;
/** A message's rows must reach the phone within this (liveness, not a speed target). */
const ARRIVAL_TIMEOUT_MS = 30_000;
/** Target: Baton's p50 at most this share of HAPI's. */
const TARGET_RATIO = 0.2;
/** Set to a folder to save both screens of both products at the moment of measuring (the message below). */
const SHOTS_TO = process.env.BENCH_SHOTS;
const SHOT_AT = Math.min(10, MESSAGES);
/** What the bench's HAPI CLI answers, in front of the message's marker. */
const HAPI_REPLY = "Answer to ";

/** How the phone page tells the agent's first token of message `marker` (runs in the page). */
type AgentRule = (
  /** The first agent row after the message's user row with text in it (Baton: the agent's first chunk). */
  | { kind: "after-user"; userRow: string; agentRow: string }
  /** A text naming the marker (HAPI: its CLI's one answer message). */
  | { kind: "reply-text"; prefix: string }
) & {
  /** What the first frame / SSE event of the answer carries after the message arrived (for the hops; a marker's text is appended for reply-text). */
  agentOnWire: string;
};

type Arrival = { user: number; userFrame: number; agent: number; agentFrame: number; userWire?: number; agentWire?: number };
type ProbeWindow = { __b2b: { arm(marker: string): void; results: Record<string, Partial<Arrival>> }; __b2bClicks: number[]; __b2bSent: number[] };
/** What every message starts with (then the product, its number and a random tail). */
const MARKER = "b2b-";

/**
 * The phone's recorder (an init script): a MutationObserver over the whole document; once armed with a marker
 * it stamps the first DOM change that carries the marker's text (the message's row) and the first that shows
 * the agent's answer to it, each also at the next animation frame (the frame that paints it).
 */
function installProbe(rule: AgentRule): void {
  const w = window as unknown as ProbeWindow;
  const now = () => performance.timeOrigin + performance.now();
  type Pending = { marker: string; at: Partial<Arrival>; userEl: Element | null };
  let pending: Pending | null = null;
  const results: Record<string, Partial<Arrival>> = {};
  const changed = (records: MutationRecord[]) => records.flatMap((r) => (r.type === "characterData" ? [r.target] : Array.from(r.addedNodes)));
  const has = (n: Node, s: string) => (n.textContent ?? "").includes(s);
  const frame = (at: Partial<Arrival>, key: "userFrame" | "agentFrame") => requestAnimationFrame(() => (at[key] = now()));
  const agentShown = (p: Pending, nodes: Node[]): boolean => {
    if (rule.kind === "reply-text") return nodes.some((n) => has(n, rule.prefix + p.marker));
    if (!p.userEl?.isConnected) p.userEl = Array.from(document.querySelectorAll(rule.userRow)).findLast((e) => has(e, p.marker)) ?? null;
    const user = p.userEl;
    if (!user) return false;
    const agents = document.querySelectorAll(rule.agentRow);
    for (let i = agents.length - 1; i >= 0; i--) {
      const a = agents[i]!;
      if (!(user.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING)) break;
      if (a.textContent?.trim()) return true;
    }
    return false;
  };
  new MutationObserver((records) => {
    const p = pending;
    if (!p) return;
    const t = now();
    const nodes = changed(records);
    if (p.at.user === undefined) {
      const hit = nodes.find((n) => has(n, p.marker));
      if (!hit) return;
      p.at.user = t;
      frame(p.at, "userFrame");
      if (rule.kind === "after-user") p.userEl = (hit instanceof Element ? hit : hit.parentElement)?.closest(rule.userRow) ?? null;
    }
    if (p.at.agent === undefined && agentShown(p, nodes)) {
      p.at.agent = t;
      frame(p.at, "agentFrame");
      pending = null;
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
  // Where the time goes: when the message first reaches the page on the wire (a WebSocket frame or an SSE event carrying its text).
  const stampWire = (data: unknown) => {
    const p = pending;
    if (!p || typeof data !== "string") return;
    if (p.at.userWire === undefined) {
      if (data.includes(p.marker)) p.at.userWire = now();
    }
    if (p.at.userWire !== undefined && p.at.agentWire === undefined && data.includes(rule.kind === "reply-text" ? rule.agentOnWire + p.marker : rule.agentOnWire)) p.at.agentWire = now();
  };
  for (const name of ["WebSocket", "EventSource"] as const) {
    const Native = window[name] as unknown as new (...args: unknown[]) => EventTarget;
    if (!Native) continue;
    (window as unknown as Record<string, unknown>)[name] = class extends Native {
      constructor(...args: unknown[]) {
        super(...args);
        this.addEventListener("message", (e) => stampWire((e as MessageEvent).data));
      }
    };
  }
  w.__b2b = {
    arm(marker) {
      pending = { marker, at: {}, userEl: null };
      results[marker] = pending.at;
    },
    results,
  };
}

/**
 * The desktop's recorder (an init script): when each click on the Send button was dispatched, and when the page
 * put a message carrying `marker` on the wire (a WebSocket frame or a fetch body).
 */
function installClickClock({ sendLabel, marker }: { sendLabel: string; marker: string }): void {
  const w = window as unknown as ProbeWindow;
  w.__b2bClicks = [];
  w.__b2bSent = [];
  const sent = (data: unknown) => {
    if (typeof data === "string" && data.includes(marker)) w.__b2bSent.push(performance.timeOrigin + performance.now());
  };
  const wsSend = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket, data) {
    sent(data);
    return wsSend.call(this, data);
  };
  const nativeFetch = window.fetch;
  window.fetch = (input, init) => {
    sent(init?.body);
    return nativeFetch(input, init);
  };
  document.addEventListener(
    "click",
    (e) => {
      const button = e.target instanceof Element ? e.target.closest("button") : null;
      if (button?.getAttribute("aria-label") === sendLabel) w.__b2bClicks.push(performance.timeOrigin + e.timeStamp);
    },
    true,
  );
}

/** This page's `performance.timeOrigin + now()` minus `Date.now()`, median of a few reads (ms). */
const clockOffset = (page: Page) =>
  page.evaluate(() => {
    const xs: number[] = [];
    for (let i = 0; i < 21; i++) xs.push(performance.timeOrigin + performance.now() - Date.now());
    return xs.sort((a, b) => a - b)[10]!;
  });

type Product = {
  name: "Baton" | "HAPI";
  desktop: Page;
  phone: Page;
  /** The composer's accessible name on the desktop. */
  composer: string;
  /** Resolves when the product can take the next message as a plain send (not a queued one). */
  settle(): Promise<void>;
  agentSideAt(marker: string): number | undefined;
};

/** `agentSide`: when the agent's side got the message (HAPI: its CLI socket, on this machine's clock), where the bench sees it. */
type Sample = { click: number; out: number; agentSide: number | undefined } & Arrival;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One message: typed into the real composer, Send clicked, its arrival on the phone read from the page. */
async function measure(p: Product, n: number): Promise<Sample> {
  await p.settle();
  await sleep(GAP_MS);
  const marker = `${MARKER}${p.name.toLowerCase()}-${n}-${randomBytes(3).toString("hex")}`;
  await p.phone.evaluate((m) => (window as unknown as ProbeWindow).__b2b.arm(m), marker);
  const box = p.desktop.getByRole("textbox", { name: p.composer });
  await box.click();
  await box.pressSequentially(`${marker} what changed since the last build?`);
  const send = p.desktop.getByRole("button", { name: "Send", exact: true });
  await send.click();
  const arrived = await p.phone.waitForFunction(
    (m) => {
      const r = (window as unknown as ProbeWindow).__b2b.results[m];
      return r?.userFrame !== undefined && r.agentFrame !== undefined ? r : null;
    },
    marker,
    { polling: 100, timeout: ARRIVAL_TIMEOUT_MS },
  );
  const at = (await arrived.jsonValue()) as Arrival;
  if (SHOTS_TO && n === SHOT_AT) {
    mkdirSync(SHOTS_TO, { recursive: true });
    const name = p.name.toLowerCase();
    await Promise.all([p.desktop.screenshot({ path: join(SHOTS_TO, `${name}-desktop-1280.png`) }), p.phone.screenshot({ path: join(SHOTS_TO, `${name}-phone-390.png`) })]);
  }
  const { click, out } = await p.desktop.evaluate(() => {
    const w = window as unknown as ProbeWindow;
    const click = w.__b2bClicks.at(-1) ?? NaN;
    return { click, out: w.__b2bSent.find((t) => t >= click) ?? NaN };
  });
  return { click, out, ...at, agentSide: p.agentSideAt(marker) };
}

let desktopBrowser: Browser;
let phoneBrowser: Browser;
let stack: Stack | null = null;
const hub = new HapiHub();
let hapi: HapiSession | null = null;
let keepAlive: ReturnType<typeof setInterval> | undefined;
const contexts: BrowserContext[] = [];
/** When the bench's HAPI CLI got each message (Date.now(): the pages' clocks are checked against it). */
const hapiCliAt = new Map<string, number>();

beforeAll(async () => {
  // The stack first: a stale client build runs synchronously (execFileSync) and would starve the hub's start-up wait.
  stack = await startTestStack(FAST_DEMO);
  [desktopBrowser, phoneBrowser] = await Promise.all([launch(), launch(), hub.start()]);
  hapi = await hub.openSession();
  hapi.alive();
  // As its CLI: a keep-alive every few seconds, or the hub marks the session inactive.
  keepAlive = setInterval(() => hapi?.alive(), 5_000);
  hapi.answerUserMessages((text) => {
    const marker = text.split(" ")[0]!;
    hapiCliAt.set(marker, Date.now());
    return `${HAPI_REPLY}${marker}: the build is green and nothing else changed.`;
  });
}, 300_000);

afterAll(async () => {
  clearInterval(keepAlive);
  for (const c of contexts) await c.close().catch(() => {});
  await desktopBrowser?.close();
  await phoneBrowser?.close();
  hapi?.close();
  await hub.stop();
  await stack?.stop();
});

/** A desktop page and a throttled phone page, both with their recorders, in their own browsers. */
async function screens(rule: AgentRule): Promise<{ desktop: Page; phone: Page }> {
  const d = await desktopBrowser.newContext(asPeopleHaveIt(DESKTOP));
  const ph = await phoneBrowser.newContext(asPeopleHaveIt(PHONE));
  contexts.push(d, ph);
  await d.addInitScript(installClickClock, { sendLabel: "Send", marker: MARKER });
  await ph.addInitScript(installProbe, rule);
  const desktop = await d.newPage();
  const phone = await ph.newPage();
  await (await ph.newCDPSession(phone)).send("Emulation.setCPUThrottlingRate", { rate: PHONE_THROTTLE });
  return { desktop, phone };
}

async function baton(): Promise<Product> {
  const url = stack!.url;
  const sessionId = await createSession(url);
  const { desktop, phone } = await screens({ kind: "after-user", userRow: "[data-testid=row-user]", agentRow: "[data-testid=row-agent]", agentOnWire: "agent_message_chunk" });
  const idle = (page: Page) => page.getByTestId("session-status").filter({ hasText: /idle/i }).waitFor({ timeout: 60_000 });
  for (const page of [desktop, phone]) {
    await page.goto(`${url}/s/${sessionId}`);
    await page.getByTestId("connection-state").filter({ hasText: /live/i }).waitFor({ timeout: 60_000 });
  }
  return {
    name: "Baton",
    desktop,
    phone,
    composer: "Message",
    // Both screens idle: the demo agent's answer has ended and the phone has folded it.
    settle: async () => void (await Promise.all([idle(desktop), idle(phone)])),
    // The daemon and the agent are child processes of the stack: not seen from here.
    agentSideAt: () => undefined,
  };
}

async function hapiProduct(): Promise<Product> {
  const { desktop, phone } = await screens({ kind: "reply-text", prefix: HAPI_REPLY, agentOnWire: HAPI_REPLY });
  const composer = "Type what you want the agent to do, or @mention another session for context or handoff";
  for (const page of [desktop, phone]) {
    // Its web app signs in with the CLI token in the address, then keeps the session it gets.
    await page.goto(`${hub.base}/?token=${hub.token}`);
    await page.getByRole("textbox", { name: composer }).or(page.getByText("work", { exact: true }).first()).first().waitFor({ timeout: 60_000 });
    await page.goto(`${hub.base}/sessions/${hapi!.id}`);
    await page.getByRole("textbox", { name: composer }).waitFor({ timeout: 60_000 });
    // Its first-run explainer and install banner cover the newest rows: a person dismisses them once.
    for (const name of ["Got it", "Dismiss"]) {
      const button = page.getByRole("button", { name, exact: true });
      await button.waitFor({ timeout: 5_000 }).then(() => button.click(), () => {});
    }
  }
  return { name: "HAPI", desktop, phone, composer, settle: async () => {}, agentSideAt: (m) => hapiCliAt.get(m) };
}

it("browser to browser: a message typed on a desktop → a watching phone (4× CPU), Baton vs HAPI 0.30.7", async () => {
  const products = [await baton(), await hapiProduct()];
  const offsets = await Promise.all(products.flatMap((p) => [clockOffset(p.desktop), clockOffset(p.phone)]));
  const clockSpread = Math.max(...offsets) - Math.min(...offsets);
  const samples = new Map<Product, Sample[]>(products.map((p) => [p, []]));
  let n = 0;
  for (const p of products) for (let i = 0; i < WARM_UP; i++) await measure(p, -1 - i);
  while (n < MESSAGES) {
    for (const p of products) for (let i = 0; i < ROUND && n + i < MESSAGES; i++) samples.get(p)!.push(await measure(p, n + i + 1));
    n += ROUND;
  }
  const fig = (p: Product) => {
    const s = samples.get(p)!;
    const of = (k: "user" | "userFrame" | "agent" | "agentFrame") => s.map((x) => x[k] - x.click);
    return {
      dom: { p50: pct(of("user"), 50), p90: pct(of("user"), 90) },
      shown: { p50: pct(of("userFrame"), 50), p90: pct(of("userFrame"), 90) },
      agentDom: { p50: pct(of("agent"), 50), p90: pct(of("agent"), 90) },
      agentShown: { p50: pct(of("agentFrame"), 50), p90: pct(of("agentFrame"), 90) },
      n: s.length,
      // Where the time goes (p50 of each hop): click → the page's socket / SSE, → the DOM, → the frame; click → the agent's side.
      hops: {
        out: pct(s.map((x) => x.out - x.click).filter(Number.isFinite), 50),
        wire: pct(s.map((x) => (x.userWire ?? NaN) - x.click).filter(Number.isFinite), 50),
        dom: pct(s.map((x) => x.user - (x.userWire ?? NaN)).filter(Number.isFinite), 50),
        frame: pct(s.map((x) => x.userFrame - x.user), 50),
        agentSide: pct(s.map((x) => (x.agentSide ?? NaN) - x.click).filter(Number.isFinite), 50),
        agentWire: pct(s.map((x) => (x.agentWire ?? NaN) - x.click).filter(Number.isFinite), 50),
        agentDom: pct(s.map((x) => x.agent - (x.agentWire ?? NaN)).filter(Number.isFinite), 50),
      },
    };
  };
  const [b, h] = products.map(fig) as [ReturnType<typeof fig>, ReturnType<typeof fig>];
  const ms = (x: number) => `${x.toFixed(0)}`;
  const how =
    `desktop Chromium (1280 px) → phone-profile Chromium (390 px, ${PHONE_THROTTLE}× CPU), ${b.n} messages each in interleaved rounds of ${ROUND} after ${WARM_UP} warm-up; ` +
    `send click → the frame that paints it, on one machine's clock (the pages agree within ${clockSpread.toFixed(1)} ms)`;
  const ratio = (x: number, y: number) => +(x / y).toFixed(2);
  row({
    figure: "browser to browser: a message typed on a desktop → on a watching phone's screen (4× CPU), Baton vs HAPI 0.30.7 (p50)",
    measured:
      `Baton p50 ${ms(b.shown.p50)} / p90 ${ms(b.shown.p90)} ms vs HAPI p50 ${ms(h.shown.p50)} / p90 ${ms(h.shown.p90)} ms ` +
      `(in the phone's DOM: Baton ${ms(b.dom.p50)} / ${ms(b.dom.p90)}, HAPI ${ms(h.dom.p50)} / ${ms(h.dom.p90)} ms); ${how}; ` +
      `hops, p50 each: Baton click → the desktop's frame out ${ms(b.hops.out)}, click → the phone's socket ${ms(b.hops.wire)}, → DOM ${ms(b.hops.dom)}, → frame ${ms(b.hops.frame)} ms; ` +
      `HAPI click → the desktop's request out ${ms(h.hops.out)}, click → its CLI ${ms(h.hops.agentSide)}, click → the phone's SSE ${ms(h.hops.wire)}, → DOM ${ms(h.hops.dom)}, → frame ${ms(h.hops.frame)} ms`,
    ratio: ratio(b.shown.p50, h.shown.p50),
    target: "≤ 1/5 of HAPI",
    ok: b.shown.p50 <= TARGET_RATIO * h.shown.p50,
    data: { kind: "b2b-message", baton: b, hapi: h, clockSpread },
  });
  row({
    figure: "browser to browser: a message typed on a desktop → the agent's first visible token on the watching phone (4× CPU), Baton vs HAPI 0.30.7 (p50)",
    measured:
      `Baton p50 ${ms(b.agentShown.p50)} / p90 ${ms(b.agentShown.p90)} ms vs HAPI p50 ${ms(h.agentShown.p50)} / p90 ${ms(h.agentShown.p90)} ms ` +
      `(in the phone's DOM: Baton ${ms(b.agentDom.p50)} / ${ms(b.agentDom.p90)}, HAPI ${ms(h.agentDom.p50)} / ${ms(h.agentDom.p90)} ms); ` +
      `Baton: the demo agent's first chunk over ACP; HAPI: its CLI's one answer message, sent as soon as the hub hands over the message; ` +
      `hops, p50 each: click → the answer on the phone's socket / SSE Baton ${ms(b.hops.agentWire)}, HAPI ${ms(h.hops.agentWire)} ms, → DOM Baton ${ms(b.hops.agentDom)}, HAPI ${ms(h.hops.agentDom)} ms`,
    ratio: ratio(b.agentShown.p50, h.agentShown.p50),
    target: "≤ 1/5 of HAPI",
    ok: b.agentShown.p50 <= TARGET_RATIO * h.agentShown.p50,
    data: { kind: "b2b-agent" },
  });
}, 900_000);
