/**
 * The `session/update` kinds ACP v1's schema defines, in two groups: the conversation an agent streams
 * (and replays in full on `session/load`), and session-wide state where the latest of a kind counts.
 * Anything else is Baton's own or an unstable kind an ACP client may refuse.
 */
export const TRANSCRIPT_UPDATE_KINDS: ReadonlySet<string> = new Set([
  "user_message_chunk",
  "agent_message_chunk",
  "agent_thought_chunk",
  "tool_call",
  "tool_call_update",
  "plan",
]);

export const SESSION_STATE_UPDATE_KINDS: ReadonlySet<string> = new Set([
  "available_commands_update",
  "current_mode_update",
  "config_option_update",
  "session_info_update",
  "usage_update",
]);

export const ACP_UPDATE_KINDS: ReadonlySet<string> = new Set([...TRANSCRIPT_UPDATE_KINDS, ...SESSION_STATE_UPDATE_KINDS]);
