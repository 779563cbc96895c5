/**
 * Baton demo agent: a real ACP agent over stdio, scripted by the prompt's first word.
 *
 *   (anything else)  streams a markdown reply (heading, list, code block, echo of the prompt)
 *   sleep N          a long turn: one line per unit for N units (default 5); honours session/cancel
 *   tool             tool_call (pending) → tool_call_update in_progress → completed with text + diff
 *   plan             a plan whose entries advance pending → in_progress → completed
 *   think            agent_thought_chunk stream, then the answer
 *   permission       session/request_permission (allow_once / allow_always / reject_once), reports the choice;
 *                    a cancelled outcome ends the turn with stopReason "cancelled"
 *   terminal         codex-style command output: content [{type:"terminal", terminalId}], the output (ANSI colours)
 *                    in tool_call_update `_meta.terminal_output_delta` chunks, then `_meta.terminal_exit`, completed
 *   warning          claude's first turn: a "**Warning:**" chunk without messageId, the answer's chunks with one,
 *                    then another chunk without
 *   fence            claude-style tool output: the result is a markdown ```console fence
 *   blind            copilot-style permission: the title is a description ("print a greeting"), the command is
 *                    only in rawInput.command
 *   ask              an `elicitation/create` form (string, select, enum, integer, boolean, multi-select) when the
 *                    client advertises `elicitation.form`; reports the answer
 *   error            the session/prompt request fails with a JSON-RPC error
 *   unknown          a session/update with sessionUpdate "_demo_custom" (not in the SDK schema)
 *   config [N]       (after N sleep units) replies with model / mode / thought_level pinned at turn start
 *   burst N          N tiny chunks as fast as possible (default 1000)
 *   write FILE TEXT  writes TEXT to FILE (one plain name) in the session's directory: a real edit tool call with its diff
 *
 * A prompt with images, embedded files or `resource_link` blocks (an @-mention) gets one line each in the markdown
 * reply: "I received a link to <name> (<uri>)." (demo-received.ts).
 * After session/new and session/load it sends `available_commands_update` (five commands with descriptions).
 * While a turn runs, `_session/steering {sessionId, prompt}` answers {outcome:"injected"} and the turn streams
 * "↪ steered: <text>"; when idle it answers {outcome:"promptRequired"}.
 *
 * Env: DEMO_PACE_MS (chunk delay, default 30), DEMO_SLEEP_UNIT_MS (default 1000), DEMO_STATE_DIR (history files,
 * default os.tmpdir()), DEMO_STEERING=0 (no steering), DEMO_LEGACY_MODELS=1 (also advertise legacy `models`),
 * DEMO_LOAD_SESSION=0 (no `session/load`: a restart cannot reattach), DEMO_STEERING_AT=capabilities (advertise steering
 * in `agentCapabilities._meta` instead of the top-level `_meta` claude and codex use), DEMO_AUTH_REQUIRED=1
 * (`authMethods` with a `terminal-auth` hint, `_auth/status_update` "Not logged in", session/new and load fail with
 * auth_required), DEMO_LOAD_DEFAULTS=1 (session/load comes back with the default mode and options, like real agents),
 * DEMO_REFUSE_MODES=a,b (session/set_mode refuses those), DEMO_EXTRA_OPTIONS=1 (also a boolean option `fast` and a
 * one-choice select `variant`), DEMO_LIST_PAGE_SIZE=N (`session/list` page size, default 20), DEMO_NO_DELETE=1 (no
 * `session/delete`). Its sessions live in DEMO_STATE_DIR: `session/list` (cursor), `session/fork` and `session/delete` work on them.
 */
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { buildDemoAgent } from "./demo-app";
import { readDemoSettings } from "./demo-settings";

const stream = acp.ndJsonStream(
  Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
  Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
);
const connection = buildDemoAgent(readDemoSettings()).connect(stream);
process.stdout.on("error", () => process.exit(0)); // the client went away
void connection.closed.then(() => process.exit(0));
