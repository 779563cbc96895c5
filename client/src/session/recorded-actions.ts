/** Test support: session actions whose ops are recorded and answered by the test, with the draft in a signal. */
import { createSignal } from "solid-js";
import { vi } from "vitest";
import type { OpInput, OpReply } from "../connection/op-client";
import { type Draft, EMPTY_DRAFT } from "./composer-logic";
import { makeSessionActions, type SessionActionDeps } from "./session-actions";

/** Every op goes to `sent` and is answered by `reply` (given its index in `sent`); `notify` is a mock. */
export function recordedActions(reply: (op: OpInput, i: number) => OpReply, opts: { initial?: string; mintId?: SessionActionDeps["mintId"] } = {}) {
  const sent: OpInput[] = [];
  const notify = vi.fn();
  const [draft, setDraft] = createSignal<Draft>({ ...EMPTY_DRAFT, text: opts.initial ?? "" });
  const actions = makeSessionActions({
    request: async (op) => {
      sent.push(op);
      return reply(op, sent.length - 1);
    },
    draft,
    setDraft,
    notify,
    mintId: opts.mintId,
  });
  return { actions, sent, notify, draft, setDraft };
}
