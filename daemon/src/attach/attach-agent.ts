/**
 * `baton attach <session URL>` (issue 30 #1): an ACP agent over stdio that is really one more viewer of the
 * hosted room. The client (an editor, a terminal) sees the session's agent as the room knows it; what it sends
 * goes through the room like a web viewer's ops (queue, Stop, steering, config, answers). The rules are
 * room-to-acp.ts (frames → updates / asks), prompt-waits.ts (when a prompt is answered) and acp-to-room.ts;
 * this module wires them to the socket (room-link.ts) and the ACP connection.
 */
import { randomUUID } from "node:crypto";
import * as acp from "@agentclientprotocol/sdk";
import { z } from "zod";
import { type ConfigState, ElicitationAction, ElicitationContent, type ServerFrame, type SessionEvent, type Viewer } from "../../../shared/viewer-protocol";
import { errorMessage, type Logger } from "../log";
import { DAEMON_VERSION } from "../version";
import { promptBlocksOf } from "./acp-to-room";
import { noWaits, type PromptOutcome, sent, waitStep } from "./prompt-waits";
import { type AttachEffect, configOptionsOf, configUpdates, effectsOf, openAsks } from "./room-to-acp";
import { openRoomLink, type Refusal, type RoomLink, type RoomLinkOptions } from "./room-link";
import type { SessionTarget } from "./session-url";

/** How long `initialize` / `session/load` wait for the room's first answer before saying why not. */
const JOIN_WAIT_MS = 20_000;
/** How long a steer waits for the agent's answer (the room relays it; the agent may be slow to take it). */
const STEER_WAIT_MS = 30_000;

const STEERING_METHOD = "_session/steering";
const SET_MODEL_METHOD = "session/set_model";
const SteeringParams = z.object({ sessionId: z.string(), prompt: z.array(z.object({ type: z.string() }).passthrough()) });
const SetModelParams = z.object({ sessionId: z.string(), modelId: z.string() });
/** The client's answers, checked before they go to the room. */
const PermissionReply = z.object({
  outcome: z.discriminatedUnion("outcome", [z.object({ outcome: z.literal("selected"), optionId: z.string() }), z.object({ outcome: z.literal("cancelled") })]),
});
const FormReply = z.object({ action: ElicitationAction, content: ElicitationContent.optional() });
/** The ACP id of the sign-in this agent offers (a terminal runs `baton attach <URL> --login`). */
export const LOGIN_METHOD_ID = "baton-login";

/** What the agent serves, for the error an unknown method gets. */
const SERVED = "initialize, authenticate, session/new, session/load, session/prompt, session/cancel, session/set_mode, session/set_config_option, session/set_model, _session/steering";

export type AttachOptions = {
  target: SessionTarget;
  /** The user token for the target's server (null: not signed in). Read again on `authenticate`. */
  readToken: () => string | null;
  /** What to run to sign in, for the messages that say so. */
  loginCommand: string;
  log: Logger;
  openLink?: (o: RoomLinkOptions) => RoomLink;
};

/** JSON-RPC server-error codes for refusals ACP has no name for. */
const ERR_NOT_ALLOWED = -32001;
const ERR_ROOM = -32002;

/** A refusal by the room / Worker as the ACP error the client shows. */
function refusalError(r: Refusal, loginCommand: string): acp.RequestError {
  switch (r.code) {
    case "NO_TOKEN":
    case "BAD_TOKEN":
      return acp.RequestError.authRequired({ code: r.code }, `${r.message} (${loginCommand})`);
    case "NOT_FOUND":
    case "SESSION_DELETED":
      return new acp.RequestError(ERR_ROOM, `Baton: ${r.message}`, { code: r.code });
    default:
      return new acp.RequestError(ERR_NOT_ALLOWED, `Baton: ${r.message}`, { code: r.code });
  }
}

type Waiter<T> = { resolve: (v: T) => void; reject: (e: unknown) => void };

export function buildAttachAgent(o: AttachOptions): acp.AgentApp {
  const openLink = o.openLink ?? openRoomLink;
  const { sessionId } = o.target;
  let link: RoomLink | null = null;
  let refusal: Refusal | null = null;
  let viewer: Viewer | null = null;
  let config: ConfigState | null = null;
  let ready = false;
  /** Room events before the client loaded the session: replayed to it then. */
  let backlog: SessionEvent[] = [];
  /** The connected client once it loaded / created the session. */
  let client: acp.AgentContext | null = null;
  let clientCaps: acp.ClientCapabilities = {};
  let waits = noWaits;
  const own = new Set<string>();
  const answers = new Map<string, Waiter<acp.PromptResponse>>();
  const steers = new Map<string, Waiter<string>>();
  const asks = new Map<string, AbortController>();
  const joinWaiters = new Set<() => void>();
  /** Notifications and asks go out in the room's order. */
  let outbox: Promise<unknown> = Promise.resolve();

  const settleJoin = () => {
    for (const w of joinWaiters) w();
    joinWaiters.clear();
  };

  const send = (fx: AttachEffect) => {
    const c = client;
    if (!c) return;
    switch (fx.t) {
      case "update":
        outbox = outbox.then(() => c.notify(acp.methods.client.session.update, { sessionId, update: fx.update })).catch((err: unknown) => o.log.debug(`update not delivered: ${errorMessage(err)}`));
        return;
      case "permission":
        return ask(fx.requestId, () => askPermission(c, fx));
      case "elicitation":
        if (!clientCaps.elicitation?.form) return;
        return ask(fx.requestId, () => askForm(c, fx));
      case "withdraw":
        asks.get(fx.requestId)?.abort();
        asks.delete(fx.requestId);
        return;
    }
  };

  /** A question for the client: only a member who may answer gets one; the first answer anywhere wins. */
  const ask = (requestId: string, run: () => Promise<void>) => {
    if (viewer?.role === "viewer" || asks.has(requestId)) return;
    outbox = outbox.then(() => {
      void run().catch((err: unknown) => o.log.debug(`ask ${requestId}: ${errorMessage(err)}`));
    });
  };

  const askPermission = async (c: acp.AgentContext, fx: Extract<AttachEffect, { t: "permission" }>) => {
    const toolCallId = typeof fx.toolCall.toolCallId === "string" ? fx.toolCall.toolCallId : fx.requestId;
    const options = fx.options.flatMap((op) => (isOptionKind(op.kind) ? [{ optionId: op.optionId, name: op.name, kind: op.kind }] : []));
    const ac = new AbortController();
    asks.set(fx.requestId, ac);
    const reply = await c.request(acp.methods.client.session.requestPermission, { sessionId, toolCall: { ...fx.toolCall, toolCallId }, options }, { cancellationSignal: ac.signal });
    if (ac.signal.aborted) return;
    asks.delete(fx.requestId);
    const answer = PermissionReply.safeParse(reply);
    if (!answer.success) return o.log.warn("the client's answer to a permission request did not parse; it was not sent");
    const outcome = answer.data.outcome;
    if (outcome.outcome !== "selected") return; // the client gave up on it (its turn was cancelled): Stop says the rest
    const r = await link?.op({ op: "permission.respond", requestId: fx.requestId, optionId: outcome.optionId });
    if (r?.type === "error") o.log.warn(`your answer was not taken: ${r.message}`);
  };

  const askForm = async (c: acp.AgentContext, fx: Extract<AttachEffect, { t: "elicitation" }>) => {
    const ac = new AbortController();
    asks.set(fx.requestId, ac);
    const reply = await c.request(
      acp.methods.client.elicitation.create,
      { mode: "form", sessionId, message: fx.message, requestedSchema: fx.requestedSchema },
      { cancellationSignal: ac.signal },
    );
    if (ac.signal.aborted) return;
    asks.delete(fx.requestId);
    const answer = FormReply.safeParse(reply);
    if (!answer.success) return o.log.warn("the client's answer to a form did not parse; it was not sent");
    const { action, content } = answer.data;
    const r = await link?.op({ op: "elicitation.respond", requestId: fx.requestId, action, ...(action === "accept" && content ? { content } : {}) });
    if (r?.type === "error") o.log.warn(`your answer was not taken: ${r.message}`);
  };

  const finish = (outcome: PromptOutcome) => {
    const w = answers.get(outcome.id);
    if (!w) return;
    answers.delete(outcome.id);
    // After the turn's updates: a client ends its transcript at the answer.
    void outbox.then(() => {
      if ("error" in outcome) w.reject(new acp.RequestError(-32603, `the turn failed: ${outcome.error}`));
      else w.resolve({ stopReason: outcome.stopReason });
    });
  };

  /** One room event; `replaying`: part of a window the client already has (a reconnect's reset), not news. */
  const onEvent = (e: SessionEvent, replaying: boolean) => {
    const step = waitStep(waits, e);
    waits = step.state;
    step.done.forEach(finish);
    if (e.kind === "config_state") {
      if (client) for (const update of configUpdates(config, e.config)) send({ t: "update", update });
      config = e.config;
      return;
    }
    if (e.kind === "steer_result") {
      steers.get(e.id)?.resolve(e.outcome);
      steers.delete(e.id);
    }
    if (!client) backlog.push(e);
    else if (!replaying) for (const fx of effectsOf(e, own)) send(fx);
  };

  const onFrame = (f: Exclude<ServerFrame, { type: "batch" }>) => {
    switch (f.type) {
      case "welcome":
        viewer = f.viewer;
        return;
      case "snapshot":
        if (!f.append && !client) backlog = [];
        for (const e of f.events) onEvent(e, !f.append && client !== null);
        return;
      case "event":
      case "state":
        return onEvent(f.event, false);
      case "ready":
        ready = true;
        return settleJoin();
      case "ack":
      case "error":
      case "review":
        return;
    }
  };

  const connect = () => {
    const token = o.readToken();
    if (link || !token) return;
    refusal = null;
    link = openLink({
      server: o.target.server,
      sessionId,
      token,
      onFrame,
      onRefused: (r) => {
        refusal = r;
        link = null;
        ready = false;
        o.log.warn(r.message);
        for (const [id, w] of answers) w.reject(refusalError(r, o.loginCommand)), answers.delete(id);
        settleJoin();
      },
      log: o.log,
    });
  };

  /** Connected and replayed once, or why not (as the ACP error to answer with). */
  const joined = async (): Promise<acp.RequestError | null> => {
    connect();
    if (!link && !refusal) return acp.RequestError.authRequired(undefined, `not signed in to ${o.target.server}: run \`${o.loginCommand}\``);
    if (!ready && !refusal) {
      const done = new Promise<void>((r) => joinWaiters.add(r));
      const t = setTimeout(settleJoin, JOIN_WAIT_MS);
      await done;
      clearTimeout(t);
    }
    if (refusal) return refusalError(refusal, o.loginCommand);
    if (!ready) return new acp.RequestError(ERR_ROOM, `Baton did not answer within ${JOIN_WAIT_MS / 1000} s: is ${o.target.server} reachable?`);
    return null;
  };

  /** The client has the session: the window so far, then live. */
  const attachClient = (c: acp.AgentContext) => {
    client = c;
    const replay = backlog;
    backlog = [];
    for (const e of replay) for (const fx of effectsOf(e, own)) if (fx.t === "update") send(fx);
    for (const fx of openAsks(replay)) send(fx);
  };

  const sessionState = () => ({
    modes: config?.modes
      ? { currentModeId: config.modes.currentModeId, availableModes: config.modes.availableModes.map((m) => ({ id: m.id, name: m.name, description: m.description ?? null })) }
      : null,
    configOptions: config ? configOptionsOf(config) : null,
  });

  const mustBeOurs = (id: string) => {
    if (id !== sessionId) throw new acp.RequestError(ERR_ROOM, `this attach serves Baton session ${sessionId} only; for another, run \`baton attach <its URL>\``, { sessionId: id });
    if (!client) throw new acp.RequestError(ERR_ROOM, "load the session first (session/load or session/new)");
  };
  const mayDrive = () => {
    if (viewer?.role === "viewer") throw new acp.RequestError(ERR_NOT_ALLOWED, "you are a viewer of this Baton session: you can watch it, not send, stop or change it");
  };
  const roomOp = async (op: Parameters<RoomLink["op"]>[0]) => {
    if (!link) throw refusal ? refusalError(refusal, o.loginCommand) : new acp.RequestError(ERR_ROOM, "not connected to Baton");
    const r = await link.op(op);
    if (r.type === "error") throw new acp.RequestError(r.code === "FORBIDDEN" ? ERR_NOT_ALLOWED : ERR_ROOM, `Baton: ${r.message}`, { code: r.code });
    return r;
  };

  /** Sends a message into the room (queued when a turn runs) and waits for its turn's end. */
  const sendMessage = async (blocks: Parameters<typeof promptBlocksOf>[0]): Promise<string> => {
    mayDrive();
    const checked = promptBlocksOf(blocks);
    if (!checked.ok) throw acp.RequestError.invalidParams(undefined, checked.message);
    const id = randomUUID();
    own.add(id);
    // Before the op: the room may echo the message before it acks it.
    waits = sent(waits, id);
    try {
      await roomOp({ op: "message.send", id, blocks: checked.blocks });
    } catch (err) {
      waits = { ...waits, waits: new Map([...waits.waits].filter(([k]) => k !== id)) };
      throw err;
    }
    return id;
  };

  const app = acp
    .agent({ name: "baton-attach" })
    .onRequest(acp.methods.agent.initialize, async ({ params }) => {
      clientCaps = params.clientCapabilities ?? {};
      if (o.readToken()) await joined();
      const signedIn = o.readToken() !== null && !(refusal && (refusal.code === "BAD_TOKEN" || refusal.code === "NO_TOKEN"));
      const login = `Run \`${o.loginCommand}\` in a terminal, approve it in the browser, then try again.`;
      const authMethods: acp.AuthMethod[] = signedIn
        ? []
        : clientCaps.auth?.terminal
          ? [{ type: "terminal", id: LOGIN_METHOD_ID, name: "Sign in to Baton", description: "Approve the sign-in in your browser", args: ["--login"] }]
          : [{ id: LOGIN_METHOD_ID, name: "Sign in to Baton", description: login }];
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentInfo: { name: "baton-attach", title: "Baton", version: DAEMON_VERSION },
        authMethods,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: config?.images ?? false, audio: false, embeddedContext: true },
          mcpCapabilities: { http: false, sse: false },
          _meta: config?.steering ? { steering: { supported: true } } : {},
        },
      };
    })
    .onRequest(acp.methods.agent.authenticate, async () => {
      const err = await joined();
      if (err) throw err;
      return {};
    })
    .onRequest(acp.methods.agent.session.new, async ({ client: c }) => {
      const err = await joined();
      if (err) throw err;
      // Attaching is joining the session named on the command line; its window follows the answer.
      const state = sessionState();
      setImmediate(() => attachClient(c));
      return { sessionId, ...state };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client: c }) => {
      if (params.sessionId !== sessionId)
        throw acp.RequestError.invalidParams({ sessionId: params.sessionId }, `this attach serves Baton session ${sessionId} only; for another, run \`baton attach <its URL>\``);
      const err = await joined();
      if (err) throw err;
      attachClient(c);
      await outbox;
      return sessionState();
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params }) => {
      mustBeOurs(params.sessionId);
      const id = await sendMessage(params.prompt);
      return new Promise<acp.PromptResponse>((resolve, reject) => answers.set(id, { resolve, reject }));
    })
    .onNotification(acp.methods.agent.session.cancel, async ({ params }) => {
      if (params.sessionId !== sessionId || viewer?.role === "viewer") return;
      const r = await link?.op({ op: "turn.cancel" });
      if (r?.type === "error") o.log.warn(`Stop was not taken: ${r.message}`);
    })
    .onRequest(acp.methods.agent.session.setMode, async ({ params }) => {
      mustBeOurs(params.sessionId);
      mayDrive();
      await roomOp({ op: "mode.set", modeId: params.modeId });
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, async ({ params }) => {
      mustBeOurs(params.sessionId);
      mayDrive();
      await roomOp({ op: "config.set", configId: params.configId, value: params.value });
      // The room forwarded it; the agent's answer arrives as a config_option_update (the room's config_state).
      return { configOptions: config ? configOptionsOf(config) : [] };
    })
    .onRequest(SET_MODEL_METHOD, SetModelParams, async ({ params }) => {
      mustBeOurs(params.sessionId);
      mayDrive();
      await roomOp({ op: "model.set", modelId: params.modelId });
      return {};
    })
    .onRequest(STEERING_METHOD, SteeringParams, async ({ params }) => {
      mustBeOurs(params.sessionId);
      const blocks = params.prompt.filter(isContentBlock);
      const id = await sendMessage(blocks);
      const outcome = new Promise<string>((resolve, reject) => steers.set(id, { resolve, reject }));
      await roomOp({ op: "queue.steer", id });
      const t = setTimeout(() => steers.get(id)?.resolve("indeterminate"), STEER_WAIT_MS);
      try {
        return { outcome: await outcome };
      } finally {
        clearTimeout(t);
      }
    })
    .onRequest("*", ({ method }) => {
      throw new acp.RequestError(-32601, `baton attach does not offer ${method}; it serves ${SERVED}`, { method });
    });
  return app;
}

const OPTION_KINDS = ["allow_once", "allow_always", "reject_once", "reject_always"] as const satisfies readonly acp.PermissionOptionKind[];
const isOptionKind = (k: string): k is acp.PermissionOptionKind => (OPTION_KINDS as readonly string[]).includes(k);
const CONTENT_TYPES = new Set(["text", "image", "audio", "resource_link", "resource"]);
function isContentBlock(b: { type: string }): b is acp.ContentBlock & { type: string } {
  return CONTENT_TYPES.has(b.type);
}
