/**
 * `baton login <server>`: device authorization. The daemon asks the server for a code, prints the short
 * user code and the link, and polls until someone signed in approves it in the browser; the machine
 * token it then receives goes into the config file (0600). The device code itself never leaves this
 * process: the user code shown in the browser cannot fetch the token.
 */
import { UserTokenResponse } from "../../../shared/attach-api";
import { DeviceCodeResponse, DeviceTokenError, DeviceTokenResponse, type DeviceCodeRequest } from "../../../shared/device-api";
import { readConfigFile } from "./config-file";
import { updateConfigFile } from "./config-write";
import { errorMessage } from "../log";
import { withoutTrailingSlashes } from "../../../shared/paths";

/** One HTTP request's limit: a server that accepts and never answers must not hang the login. */
const REQUEST_TIMEOUT_MS = 15_000;
/** Network errors while polling are retried this many times in a row before giving up. */
const MAX_POLL_NETWORK_ERRORS = 5;

export type LoginDeps = {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Where the instructions go (stdout for the CLI). */
  say: (line: string) => void;
};

export type LoginResult =
  | { ok: true; machine: { id: string; name: string }; configFile: string }
  | { ok: true; user: { id: string; name: string; email: string }; configFile: string }
  | { ok: false; message: string };

/** `https://baton.example.com/` → `https://baton.example.com`; a bare host gets https. */
export function serverBase(input: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `https://${input}`;
  const url = new URL(withScheme);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`the server URL must be http(s)://…, not ${url.protocol}`);
  url.search = url.hash = "";
  return withoutTrailingSlashes(url.href);
}

type ApiError = { code: string; message: string; interval?: number };

function apiErrorOf(body: unknown): ApiError | null {
  if (typeof body !== "object" || body === null || !("error" in body)) return null;
  const e = (body as { error: unknown }).error;
  if (typeof e !== "object" || e === null) return null;
  const { code, message, interval } = e as Record<string, unknown>;
  return typeof code === "string" ? { code, message: typeof message === "string" ? message : code, interval: typeof interval === "number" ? interval : undefined } : null;
}

export async function login(server: string, configFile: string, request: DeviceCodeRequest, deps: LoginDeps): Promise<LoginResult> {
  const doFetch = deps.fetch ?? fetch;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let base: string;
  try {
    base = serverBase(server);
  } catch (err) {
    return { ok: false, message: `not a server URL: ${server} (${errorMessage(err)})` };
  }
  const post = async (path: string, body: unknown) => {
    const r = await doFetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: r.status, body: (await r.json().catch(() => null)) as unknown };
  };

  let start;
  try {
    start = await post("/api/device/code", request);
  } catch (err) {
    return { ok: false, message: `cannot reach ${base}: ${errorMessage(err)}` };
  }
  if (start.status !== 201) {
    const e = apiErrorOf(start.body);
    if (start.status === 404) return { ok: false, message: `${base} does not offer \`baton login\` (HTTP 404): is it a Baton server, and up to date? Pair from its Machines page instead.` };
    return { ok: false, message: `the server refused the login (HTTP ${start.status}${e ? `: ${e.message}` : ""})` };
  }
  const code = DeviceCodeResponse.safeParse(start.body);
  if (!code.success) return { ok: false, message: `unexpected answer from ${base}/api/device/code` };
  const { deviceCode, userCode, verificationUriComplete, expiresIn } = code.data;
  const asUser = request.kind === "user";
  deps.say(
    asUser
      ? `To sign in to ${base} as yourself (for \`baton attach\`), open this link in a browser where you are signed in:`
      : `To pair this machine (${request.hostname}) with ${base}, open this link in a browser where you are signed in:`,
  );
  deps.say("");
  deps.say(`  ${verificationUriComplete}`);
  deps.say("");
  deps.say(`and approve it if the page shows the code ${userCode}. The code expires in ${Math.round(expiresIn / 60)} minutes.`);
  deps.say("Waiting for approval… (Ctrl+C to give up)");

  const again = `baton login${asUser ? " --user" : ""} ${base}`;
  let intervalMs = code.data.interval * 1000;
  let networkErrors = 0;
  for (;;) {
    await sleep(intervalMs);
    let poll;
    try {
      poll = await post("/api/device/token", { deviceCode });
      networkErrors = 0;
    } catch (err) {
      if (++networkErrors >= MAX_POLL_NETWORK_ERRORS) return { ok: false, message: `lost contact with ${base}: ${errorMessage(err)}` };
      continue;
    }
    if (poll.status === 200 && asUser) {
      const got = UserTokenResponse.safeParse(poll.body);
      if (!got.success) return { ok: false, message: `unexpected answer from ${base}/api/device/token` };
      // One sign-in per server: a new one replaces the old (revoke that one from the Machines page).
      const userTokens = { ...readConfigFile(configFile, false).userTokens, [base]: got.data.token };
      updateConfigFile(configFile, { userTokens });
      return { ok: true, user: got.data.user, configFile };
    }
    if (poll.status === 200) {
      const got = DeviceTokenResponse.safeParse(poll.body);
      if (!got.success) return { ok: false, message: `unexpected answer from ${base}/api/device/token` };
      updateConfigFile(configFile, { server: base, token: got.data.token });
      return { ok: true, machine: got.data.machine, configFile };
    }
    const e = apiErrorOf(poll.body);
    switch (e?.code) {
      case DeviceTokenError.pending:
        continue;
      case DeviceTokenError.slowDown:
        intervalMs = (e.interval ?? intervalMs / 1000 + 5) * 1000;
        continue;
      case DeviceTokenError.denied:
        return { ok: false, message: "the login was denied in the browser; nothing was stored" };
      case DeviceTokenError.expired:
        return { ok: false, message: `the code ${userCode} expired before it was approved; run \`${again}\` again` };
      default:
        return { ok: false, message: `the server refused the code (HTTP ${poll.status}${e ? `: ${e.message}` : ""}); run \`${again}\` again` };
    }
  }
}
