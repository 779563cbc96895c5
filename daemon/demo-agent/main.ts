/**
 * Baton demo agent: a real ACP agent over stdio, scripted by the prompt's first word.
 *
 *   (anything else)  streams a markdown reply (heading, list, code block, echo of the prompt)
 *   sleep N          a long turn: one line per unit for N units (default 5); honours session/cancel
 *   tool             tool_call (pending) → tool_call_update in_progress → completed with text + diff
 *   plan             a plan whose entries advance pending → in_progress → completed
 *   think            agent_thought_chunk stream, then the answer
 *   permission | ask session/request_permission (allow_once / allow_always / reject_once), reports the choice;
 *                    a cancelled outcome ends the turn with stopReason "cancelled"
 *   error            the session/prompt request fails with a JSON-RPC error
 *   unknown          a session/update with sessionUpdate "_demo_custom" (not in the SDK schema)
 *   config [N]       (after N sleep units) replies with model / mode / thought_level pinned at turn start
 *   burst N          N tiny chunks as fast as possible (default 1000)
 *
 * While a turn runs, `_session/steering {sessionId, prompt}` answers {outcome:"injected"} and the turn streams
 * "↪ steered: <text>"; when idle it answers {outcome:"promptRequired"}.
 *
 * Env: DEMO_PACE_MS (chunk delay, default 30), DEMO_SLEEP_UNIT_MS (default 1000), DEMO_STATE_DIR (history files,
 * default os.tmpdir()), DEMO_STEERING=0 (no steering), DEMO_LEGACY_MODELS=1 (also advertise legacy `models`),
 * DEMO_LOAD_SESSION=0 (no `session/load`: a restart cannot reattach).
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
