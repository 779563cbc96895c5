/**
 * `baton attach` (issue 30 #1) against the real stack: the attach agent spawned as the CLI, driven by the SDK's
 * ACP client over stdio, beside a Node viewer of the same room (the web's socket and ops).
 */
import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { useStack } from "./file-stack";
import { type AttachedClient, attachClient, initialize, signInUser } from "./attach-client";
import { openIdleSession, text, waitFor, type NodeViewer } from "./support";

const started = useStack({
  shared: true,
  setup: async () => {
    token = await signInUser(started.stack.url);
  },
});
const stack = { get url() { return started.stack.url; } };
let token = "";
const open: (AttachedClient | NodeViewer)[] = [];
afterEach(async () => {
  for (const x of open.splice(0)) await ("conn" in x ? x.close() : x.closed());
});

async function session() {
  const { sessionId, v } = await openIdleSession(stack.url);
  open.push(v);
  return { sessionId, v, url: `${stack.url}/s/${sessionId}` };
}
function attach(url: string, t: string | null = token) {
  const c = attachClient(url, t);
  open.push(c);
  return c;
}
async function loaded(url: string, sessionId: string, forms = false) {
  const c = attach(url);
  const init = await initialize(c, { forms });
  await c.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: "/", mcpServers: [] });
  return { c, init };
}
const lastStatus = (v: NodeViewer) => v.ofKind("session_status").at(-1);

describe("baton attach", () => {
  it("initialize reports the session's agent; load replays the window, then streams live", async () => {
    const { sessionId, v, url } = await session();
    expect((await v.op({ op: "message.send", id: "m-before", blocks: text("hello from the web") })).type).toBe("ack");
    await waitFor(() => lastStatus(v)?.stopReason, "the web's turn ends");
    const { c, init } = await loaded(url, sessionId);
    expect(init.authMethods).toEqual([]);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true);
    // The window: the web's message as a user chunk, the agent's answer as it streamed.
    expect(c.userText()).toContain("hello from the web");
    expect(c.agentText().length).toBeGreaterThan(20);
    expect(c.agentText()).toBe(v.agentText());
    // Live: another viewer's message shows up as a user_message_chunk.
    await v.op({ op: "message.send", id: "m-live", blocks: text("and again") });
    await waitFor(() => c.userText().includes("and again"), "the live message in the editor");
    await waitFor(() => c.agentText() === v.agentText() && lastStatus(v)?.state === "idle", "the live turn in both");
  });

  it("a prompt while another viewer's turn runs is queued (every viewer sees the chip) and answered when it ran", async () => {
    const { sessionId, v, url } = await session();
    const { c } = await loaded(url, sessionId);
    await v.op({ op: "message.send", id: "m-long", blocks: text("sleep 4") });
    await waitFor(() => lastStatus(v)?.state === "active", "the web's turn runs");
    let answered: acp.PromptResponse | null = null;
    const prompt = c.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "from the editor" }] }).then((r) => (answered = r));
    const chip = await waitFor(() => v.ofKind("queue_state").at(-1)?.entries.find((e) => e.blocks.some((b) => b.type === "text" && b.text === "from the editor")), "the queued chip on the web");
    expect(answered).toBeNull();
    const r = await prompt;
    expect(r.stopReason).toBe("end_turn");
    // Answered only after its own turn ran: the web saw it start and end.
    const started = v.ofKind("user_message").findIndex((m) => m.id === chip.id);
    expect(started).toBeGreaterThanOrEqual(0);
    expect(c.userText()).not.toContain("from the editor"); // its own prompt is not echoed back
    expect(c.userText()).toContain("sleep 4");
  });

  it("session/cancel is Stop: the running turn ends cancelled for everyone", async () => {
    const { sessionId, v, url } = await session();
    const { c } = await loaded(url, sessionId);
    const prompt = c.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "sleep 40" }] });
    await waitFor(() => lastStatus(v)?.state === "active", "the editor's turn runs");
    await c.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    await waitFor(() => lastStatus(v)?.state === "idle", "the web sees it stopped");
  });

  it("a permission answered by another viewer cancels the attached client's request", async () => {
    const { sessionId, v, url } = await session();
    const { c } = await loaded(url, sessionId);
    const prompt = c.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "permission" }] });
    const ask = await waitFor(() => c.asks[0], "the editor is asked");
    expect(ask.params.options.map((o) => o.optionId)).toContain("allow_once");
    const request = await waitFor(() => v.ofKind("permission_request").at(-1), "the web is asked too");
    expect((await v.op({ op: "permission.respond", requestId: request.requestId, optionId: "reject_once" })).type).toBe("ack");
    await waitFor(() => ask.signal.aborted, "the editor's request is cancelled");
    expect((await prompt).stopReason).toBe("end_turn");
    expect(c.agentText()).toContain("reject_once");
  });

  it("the attached client's answer is the room's answer", async () => {
    const { sessionId, v, url } = await session();
    const { c } = await loaded(url, sessionId);
    const prompt = c.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "permission" }] });
    const ask = await waitFor(() => c.asks[0], "the editor is asked");
    ask.answer({ outcome: { outcome: "selected", optionId: "allow_once" } });
    const resolved = await waitFor(() => v.ofKind("permission_resolved").at(-1), "the web sees it answered");
    expect(resolved.optionId).toBe("allow_once");
    expect((await prompt).stopReason).toBe("end_turn");
  });

  it("the agent's form is offered to a client that takes forms; its answer is the room's, and a form answered elsewhere is withdrawn", async () => {
    const { sessionId, v, url } = await session();
    const { c } = await loaded(url, sessionId, true);
    const first = c.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "ask" }] });
    const form = await waitFor(() => c.forms[0], "the editor gets the form");
    expect(form.params.mode === "form" && form.params.message).toContain("A few questions");
    form.answer({ action: "accept", content: { name: "demo", language: "ts" } });
    const answered = await waitFor(() => v.ofKind("elicitation_resolved").at(-1), "the web sees it answered");
    expect(answered).toMatchObject({ action: "accept", content: { name: "demo", language: "ts" } });
    expect((await first).stopReason).toBe("end_turn");
    expect(c.agentText()).toContain('"name":"demo"');

    const second = c.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "ask" }] });
    const again = await waitFor(() => c.forms[1], "the editor gets the second form");
    // The second form's request, not the first's (the editor may have it before the web does).
    const request = await waitFor(() => v.ofKind("elicitation_request")[1], "the web gets it too");
    expect((await v.op({ op: "elicitation.respond", requestId: request.requestId, action: "decline" })).type).toBe("ack");
    await waitFor(() => again.signal.aborted, "the editor's form is cancelled");
    expect((await second).stopReason).toBe("end_turn");
  });

  it("mode and config writes go through the room", async () => {
    const { sessionId, v, url } = await session();
    const { c } = await loaded(url, sessionId);
    await c.conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "architect" });
    await waitFor(() => v.ofKind("config_state").at(-1)?.config.modes?.currentModeId === "architect", "the web sees the mode");
    await c.conn.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value: "demo-smart" });
    await waitFor(
      () => v.ofKind("config_state").at(-1)?.config.configOptions.some((o) => o.id === "model" && o.currentValue === "demo-smart"),
      "the web sees the model",
    );
    await waitFor(() => c.updates.some((n) => n.update.sessionUpdate === "current_mode_update" && n.update.currentModeId === "architect"), "the editor hears the mode");
  });

  it("bad input gets errors a person can act on, and changes nothing", async () => {
    const { sessionId, v, url } = await session();
    // Not signed in: initialize offers the sign-in, load says how.
    const anon = attach(url, null);
    expect((await initialize(anon)).authMethods?.[0]?.description).toContain("baton login --user");
    await expect(anon.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: "/", mcpServers: [] })).rejects.toThrow(/baton login --user/);
    // A wrong token.
    const wrong = attach(url, "bu_not-a-token");
    await initialize(wrong);
    await expect(wrong.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: "/", mcpServers: [] })).rejects.toThrow(/revoked or is unknown/);
    // A session that does not exist.
    const gone = attach(`${stack.url}/s/no-such-session`);
    await initialize(gone);
    await expect(gone.conn.agent.request(acp.methods.agent.session.new, { cwd: "/", mcpServers: [] })).rejects.toThrow(/no such session/);
    // Another session's id, and a method ACP clients may send but this agent does not offer.
    const { c } = await loaded(url, sessionId);
    await expect(c.conn.agent.request(acp.methods.agent.session.load, { sessionId: "other", cwd: "/", mcpServers: [] })).rejects.toThrow(/serves Baton session/);
    await expect(c.conn.agent.request("session/list", {})).rejects.toThrow(/does not offer session\/list/);
    expect(v.ofKind("user_message")).toEqual([]);
  });
});
