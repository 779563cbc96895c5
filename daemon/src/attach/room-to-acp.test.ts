import { describe, expect, it } from "vitest";
import type { ConfigState, SessionEvent } from "../../../shared/viewer-protocol";
import { configUpdates, effectsOf, openAsks } from "./room-to-acp";

const author = { id: "u2", name: "Bo" };
const msg = (id: string, text: string): SessionEvent => ({ kind: "user_message", id, blocks: [{ type: "text", text }], author, at: 1 });
const perm = (requestId: string): SessionEvent => ({ kind: "permission_request", requestId, toolCall: { toolCallId: "t" }, options: [{ optionId: "ok", name: "OK", kind: "allow_once" }] });
const resolved = (requestId: string): SessionEvent => ({ kind: "permission_resolved", requestId, outcome: "selected", optionId: "ok", by: author });

describe("room event → ACP", () => {
  it.each<[string, SessionEvent, unknown[]]>([
    ["another viewer's message is a user_message_chunk per block", msg("x", "hello"), [{ t: "update", update: { sessionUpdate: "user_message_chunk", content: { type: "text", text: "hello" } } }]],
    ["this client's own message is not echoed", msg("mine", "hello"), []],
    ["an agent chunk passes as it is", { kind: "acp", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "yo" } } }, [{ t: "update", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "yo" } } }]],
    ["an update kind ACP does not define is left out", { kind: "acp", update: { sessionUpdate: "baton_private" } }, []],
    ["a permission request is an ask", perm("r1"), [{ t: "permission", requestId: "r1", toolCall: { toolCallId: "t" }, options: [{ optionId: "ok", name: "OK", kind: "allow_once" }] }]],
    ["its resolution withdraws the ask", resolved("r1"), [{ t: "withdraw", requestId: "r1" }]],
    ["a form is an ask", { kind: "elicitation_request", requestId: "e1", message: "Name?", requestedSchema: { type: "object" } }, [{ t: "elicitation", requestId: "e1", message: "Name?", requestedSchema: { type: "object" } }]],
    ["a status is not an update", { kind: "session_status", state: "idle", stopReason: "end_turn" }, []],
    ["a notice is not an update", { kind: "notice", level: "info", text: "hi" }, []],
  ])("%s", (_, event, expected) => {
    expect(effectsOf(event, new Set(["mine"]))).toEqual(expected);
  });

  it("asks still open after a replay are the unresolved ones", () => {
    expect(openAsks([perm("a"), perm("b"), resolved("a")]).map((a) => a.t === "permission" && a.requestId)).toEqual(["b"]);
  });

  it("config changes become mode and option updates, once", () => {
    const base: ConfigState = {
      modes: { currentModeId: "ask", availableModes: [{ id: "ask", name: "Ask" }, { id: "code", name: "Code" }] },
      models: null,
      configOptions: [{ id: "model", name: "Model", type: "select", currentValue: "a", options: [] }],
      steering: false,
      images: true,
      queueDepth: 5,
      mergeQueued: false,
    };
    const moved = { ...base, modes: { ...base.modes!, currentModeId: "code" } };
    expect(configUpdates(base, base)).toEqual([]);
    expect(configUpdates(base, moved)).toEqual([{ sessionUpdate: "current_mode_update", currentModeId: "code" }]);
    const opt = { ...base, configOptions: [{ ...base.configOptions[0]!, currentValue: "b" }] };
    expect(configUpdates(base, opt)).toEqual([{ sessionUpdate: "config_option_update", configOptions: opt.configOptions }]);
  });
});
