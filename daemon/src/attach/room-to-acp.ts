/**
 * `baton attach` (issue 30 #1): what one room event means to the attached ACP client. Pure; the agent side
 * (attach-agent.ts) sends what this returns.
 * - the agent's relayed `session/update`s pass as they are (kinds the ACP schema does not define are left out:
 *   the client would refuse the whole notification);
 * - a message from another viewer (or one replayed) is a `user_message_chunk` per block, so the editor's
 *   transcript matches the web's; this client's own messages are not echoed (the client shows its prompt);
 * - a permission request / form is an ask for the client; its resolution withdraws the ask (answered by
 *   someone, anywhere: the first answer wins in the room);
 * - config changes become `current_mode_update` / `config_option_update`.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { ACP_UPDATE_KINDS } from "../../../shared/acp-update-kinds";
import type { PromptBlock } from "../../../shared/blocks";
import type { ConfigState, EventOf, SessionEvent } from "../../../shared/viewer-protocol";

/** A relayed update of a kind ACP v1 defines (its fields were the agent's, checked by the daemon's SDK on the way in). */
function isAcpUpdate(update: { sessionUpdate: string }): update is acp.SessionUpdate {
  return ACP_UPDATE_KINDS.has(update.sessionUpdate);
}

export type AttachEffect =
  | { t: "update"; update: acp.SessionUpdate }
  | { t: "permission"; requestId: string; toolCall: Record<string, unknown>; options: EventOf<"permission_request">["options"] }
  | { t: "elicitation"; requestId: string; message: string; requestedSchema: Record<string, unknown> }
  /** Answered (by anyone) or cancelled by the turn's end: an ask still open in the client is cancelled. */
  | { t: "withdraw"; requestId: string };

/** A prompt block as ACP content (the room's blocks are a subset of ACP's). */
export function contentOf(block: PromptBlock): acp.ContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", mimeType: block.mimeType, data: block.data };
    case "resource_link":
      return { type: "resource_link", uri: block.uri, name: block.name };
    case "resource":
      return { type: "resource", resource: { uri: block.resource.uri, text: block.resource.text, ...(block.resource.mimeType ? { mimeType: block.resource.mimeType } : {}) } };
  }
}

/** `own`: ids of messages this client sent (not echoed back to it). */
export function effectsOf(event: SessionEvent, own: ReadonlySet<string>): AttachEffect[] {
  switch (event.kind) {
    case "user_message":
      if (own.has(event.id)) return [];
      return event.blocks.map((b) => ({ t: "update", update: { sessionUpdate: "user_message_chunk", content: contentOf(b) } }));
    case "acp":
      // Relayed as the agent sent it; the schema's own kinds only (see ACP_UPDATE_KINDS).
      return isAcpUpdate(event.update) ? [{ t: "update", update: event.update }] : [];
    case "permission_request":
      return [{ t: "permission", requestId: event.requestId, toolCall: event.toolCall, options: event.options }];
    case "elicitation_request":
      return [{ t: "elicitation", requestId: event.requestId, message: event.message, requestedSchema: event.requestedSchema }];
    case "permission_resolved":
    case "elicitation_resolved":
      return [{ t: "withdraw", requestId: event.requestId }];
    case "session_status":
    case "queue_state":
    case "dropped_offer":
    case "config_state":
    case "turn_error":
    case "steer_result":
    case "notice":
      // Turn ends and queue changes answer prompts (prompt-waits.ts); config is configUpdates below.
      return [];
  }
}

/** What changed between two config states, as the ACP updates that say so. */
export function configUpdates(prev: ConfigState | null, next: ConfigState): acp.SessionUpdate[] {
  const out: acp.SessionUpdate[] = [];
  if (next.modes && next.modes.currentModeId !== prev?.modes?.currentModeId)
    out.push({ sessionUpdate: "current_mode_update", currentModeId: next.modes.currentModeId });
  if (next.configOptions.length && JSON.stringify(next.configOptions) !== JSON.stringify(prev?.configOptions ?? []))
    out.push({ sessionUpdate: "config_option_update", configOptions: configOptionsOf(next) });
  return out;
}

/** The agent's config options as the room relays them (the agent's own ACP shapes, passed through). */
export function configOptionsOf(config: ConfigState): acp.SessionConfigOption[] {
  return config.configOptions.filter(isConfigOption);
}
function isConfigOption(o: Record<string, unknown>): o is acp.SessionConfigOption & Record<string, unknown> {
  return typeof o.id === "string" && typeof o.name === "string" && typeof o.type === "string";
}

/**
 * The asks still open after a replay: requests without a resolution in the window (the attached client is
 * offered those when it loads the session).
 */
export function openAsks(events: readonly SessionEvent[]): AttachEffect[] {
  const open = new Map<string, AttachEffect>();
  for (const e of events)
    for (const fx of effectsOf(e, new Set()))
      if (fx.t === "permission" || fx.t === "elicitation") open.set(fx.requestId, fx);
      else if (fx.t === "withdraw") open.delete(fx.requestId);
  return [...open.values()];
}
