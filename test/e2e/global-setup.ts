/**
 * What the e2e files share (`useStackAndBrowser({ shared: true })`):
 * - one local stack for the files that only need a working Baton: each such file used to start and stop its
 *   own (wrangler, D1 migrations, the daemon), ~10–15 s apiece. Files that change the stack (its daemon's env,
 *   restarts, tunnel cuts, push subscriptions, its log) keep their own. It starts in the background (the
 *   client build first, when stale): the files that need no shared stack run meanwhile, and a file that does
 *   waits for it (file-stack.ts);
 * - one Chromium, which each file connects to (its contexts are its own and close with the file) instead of
 *   launching its own (a persistent profile, pwa-push's, still launches one).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { z } from "zod";
import { chromiumProblem } from "../../scripts/chromium-check.mjs";
import { launchServer } from "./browser";
import { startTestStack } from "./support";

/** Where the shared stack's address and token (or why it did not start) are written once it is up. */
export type SharedStackInfo = { file: string };
/** What that file holds. */
export const sharedStackState = z.union([z.object({ url: z.string(), token: z.string(), demoSessions: z.string() }), z.object({ error: z.string() })]);
export type SharedStackState = z.infer<typeof sharedStackState>;

declare module "vitest" {
  export interface ProvidedContext {
    sharedStack: SharedStackInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Before the stack starts: a run without Chromium stops here with one line, nothing left running.
  const missing = chromiumProblem();
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(join(tmpdir(), "baton-e2e-shared-"));
  const file = join(dir, "stack.json");
  const write = (state: SharedStackState) => writeFileSync(file, JSON.stringify(state));
  const starting = startTestStack().then(
    (stack) => {
      write({ url: stack.url, token: stack.token, demoSessions: stack.demoSessions });
      return stack;
    },
    (err: unknown) => {
      write({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      return null;
    },
  );
  const browser = await launchServer();
  project.provide("sharedStack", { file });
  project.provide("sharedBrowser", browser.wsEndpoint());
  return async () => {
    await browser.close();
    await (await starting)?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
