/**
 * `baton attach <session URL>`'s process: the attach agent (attach-agent.ts) on stdin / stdout, logs on
 * stderr; or, with --login, the user sign-in for the URL's server (what an ACP client's terminal sign-in runs).
 */
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { readConfigFile } from "../cli/config-file";
import { deviceCodeRequest } from "../cli/host-info";
import { login } from "../cli/login";
import { makeLogger } from "../log";
import { insecureServerProblem } from "../tunnel/server-url";
import { buildAttachAgent } from "./attach-agent";
import { parseSessionUrl } from "./session-url";

export type AttachCommand = { url: string; configFile: string; login: boolean; token: string | null; debug: boolean; allowInsecureHttp: boolean };

/** Exit code, or null while the agent serves (it exits when the client closes stdin). */
export async function runAttach(cmd: AttachCommand): Promise<number | null> {
  const parsed = parseSessionUrl(cmd.url);
  if (!parsed.ok) {
    process.stderr.write(`baton attach: ${parsed.message}\n`);
    return 2;
  }
  const { target } = parsed;
  const insecure = insecureServerProblem(target.server, cmd.allowInsecureHttp);
  if (insecure) {
    process.stderr.write(`baton attach: ${insecure}\n`);
    return 2;
  }
  const loginCommand = `baton login --user ${target.server}`;
  if (cmd.login) {
    const r = await login(target.server, cmd.configFile, { ...deviceCodeRequest([]), kind: "user" }, { say: (l) => process.stdout.write(`${l}\n`) });
    if (!r.ok) {
      process.stderr.write(`baton attach --login: ${r.message}\n`);
      return 1;
    }
    process.stdout.write(`\nSigned in${"user" in r ? ` as ${r.user.email}` : ""}. The token is stored in ${r.configFile} (readable only by you).\n`);
    return 0;
  }
  // Read on every ask: a sign-in in another terminal is picked up by the client's next `authenticate`.
  const readToken = () => cmd.token ?? readConfigFile(cmd.configFile, false).userTokens?.[target.server] ?? null;
  const log = makeLogger({ debug: cmd.debug, secrets: cmd.token ? [cmd.token] : [] });
  const stream = acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const connection = buildAttachAgent({ target, readToken, loginCommand, log }).connect(stream);
  process.stdout.on("error", () => process.exit(0)); // the client went away
  void connection.closed.then(() => process.exit(0));
  return null;
}
