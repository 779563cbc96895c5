/** The local stack (and Chromium) one e2e test file shares: started in its beforeAll, stopped in its afterAll. */
import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { launch } from "./browser";
import { type SharedStackState, sharedStackState } from "./global-setup";
import { type Stack, startTestStack, type TestStackOptions, waitFor } from "./support";

/**
 * How long a file waits for the shared stack, which starts in the background with the run (a stale client
 * build first): a first file run alone on a loaded 2-core machine can wait for all of it.
 */
const SHARED_STACK_WAIT_MS = 240_000;
/** A shared file's own set-up after that wait (the project's hookTimeout). */
const SHARED_SETUP_MS = 120_000;

export type FileStackOptions = {
  /** Use the project's one stack (test/e2e/global-setup.ts) instead of starting one: for files that only need Baton up. */
  shared?: boolean;
  /** The daemon's environment (startTestStack's default when absent); a function runs first in beforeAll, for an env naming files made then. */
  daemonEnv?: Record<string, string> | (() => Record<string, string>);
  stack?: TestStackOptions;
  /** beforeAll's timeout, where the setup outlasts the project's hookTimeout. */
  timeout?: number;
  /** More setup in the same beforeAll, once everything is up (the returned getters answer by then). */
  setup?: () => void | Promise<void>;
  /** Runs in afterAll once everything started here has stopped. */
  cleanup?: () => void | Promise<void>;
};

export type FileStackAndBrowser = { readonly stack: Stack; readonly browser: Browser };

/** Registers the hooks; the values arrive in beforeAll, so read them through the returned getters (in tests and later hooks). */
export function useStack(opts: FileStackOptions = {}): { readonly stack: Stack } {
  return useFileStack(false, opts);
}

/** useStack plus a Chromium for the file (closed before the stack stops). */
export function useStackAndBrowser(opts: FileStackOptions = {}): FileStackAndBrowser {
  return useFileStack(true, opts);
}

function useFileStack(withBrowser: boolean, opts: FileStackOptions): FileStackAndBrowser {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  const started: FileStackAndBrowser = {
    get stack() {
      if (!stack) throw new Error("the test stack is not up: read it in a test or a hook after beforeAll");
      return stack;
    },
    get browser() {
      if (!browser) throw new Error(withBrowser ? "Chromium is not up: read it in a test or a hook after beforeAll" : "useStack has no browser: useStackAndBrowser");
      return browser;
    },
  };
  beforeAll(async () => {
    const daemonEnv = typeof opts.daemonEnv === "function" ? opts.daemonEnv() : opts.daemonEnv;
    if (opts.shared) {
      if (daemonEnv || opts.stack) throw new Error("a shared stack takes no daemonEnv or stack options: start the file's own");
      [stack, browser] = await Promise.all([sharedStack(), withBrowser ? launch() : undefined]);
    } else if (withBrowser) [stack, browser] = await Promise.all([startTestStack(daemonEnv, opts.stack), launch()]);
    else stack = await startTestStack(daemonEnv, opts.stack);
    await opts.setup?.();
  }, opts.shared ? Math.max(opts.timeout ?? 0, SHARED_STACK_WAIT_MS + SHARED_SETUP_MS) : opts.timeout);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await opts.cleanup?.();
  });
  return started;
}

/** The project's stack as a file sees it, once up: its address and token; it is stopped by the global teardown, not by a file. */
async function sharedStack(): Promise<Stack> {
  const { file } = inject("sharedStack");
  const read = (): SharedStackState | null => {
    try {
      return sharedStackState.parse(JSON.parse(readFileSync(file, "utf8")));
    } catch {
      return null; // not written yet, or half written
    }
  };
  const state = await waitFor(read, "the shared e2e stack (test/e2e/global-setup.ts)", SHARED_STACK_WAIT_MS);
  if ("error" in state) throw new Error(`the shared e2e stack did not start: ${state.error}`);
  const { url, token, demoSessions } = state;
  const own = (what: string) => new Error(`the shared stack cannot ${what}: give the file its own (useStack without shared)`);
  return {
    url,
    token,
    demoSessions,
    stop: async () => {},
    restartDaemon: () => Promise.reject(own("restart its daemon")),
    get daemon(): never {
      throw own("hand out its daemon process");
    },
    serverOutput: () => {
      throw own("show its server log to one file");
    },
    cutTunnel: () => {
      throw own("cut its tunnel");
    },
    liveTunnels: () => {
      throw own("see its tunnel");
    },
  };
}
