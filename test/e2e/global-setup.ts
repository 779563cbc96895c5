/**
 * One local stack for the e2e files that only need a working Baton (`useStackAndBrowser({ shared: true })`):
 * each such file used to start and stop its own (wrangler, D1 migrations, the daemon), ~10–15 s apiece.
 * Files that change the stack (its daemon's env, restarts, tunnel cuts, push subscriptions, its log) keep their own.
 */
import type { TestProject } from "vitest/node";
import { startTestStack } from "./support";

export type SharedStackInfo = { url: string; token: string };

declare module "vitest" {
  export interface ProvidedContext {
    sharedStack: SharedStackInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stack = await startTestStack();
  project.provide("sharedStack", { url: stack.url, token: stack.token });
  return () => stack.stop();
}
