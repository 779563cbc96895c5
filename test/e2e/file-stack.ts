/** The local stack (and Chromium) one e2e test file shares: started in its beforeAll, stopped in its afterAll. */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launch } from "./browser";
import { type Stack, startTestStack, type TestStackOptions } from "./support";

export type FileStackOptions = {
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
    if (withBrowser) [stack, browser] = await Promise.all([startTestStack(daemonEnv, opts.stack), launch()]);
    else stack = await startTestStack(daemonEnv, opts.stack);
    await opts.setup?.();
  }, opts.timeout);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await opts.cleanup?.();
  });
  return started;
}
