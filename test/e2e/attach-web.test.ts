// `baton attach` (issue 30 #1) with a real ACP client and Chromium against the real stack:
// - acpx (the headless ACP client, pinned, installed on demand outside node_modules) sends a prompt into a
//   session a Chromium viewer watches; both see the same turn;
// - the user sign-in approved in the browser, listed on the Machines page and revoked there; the next attach
//   with it is refused with the reason. Screenshots at 1280 and 390 px.
import { spawn } from "node:child_process";
import type { BrowserContextOptions, Page } from "playwright-core";
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { installClient } from "../../scripts/install-clients.mjs";
import { UserTokenResponse } from "../../shared/attach-api";
import { DeviceCodeResponse } from "../../shared/device-api";
import { TUNNEL_PROTOCOL_VERSION } from "../../shared/protocol-version";
import { attachClient, initialize, signInUser } from "./attach-client";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { idle, openViewer, tid, userRows } from "./session-page";
import { createSession, waitFor } from "./support";
import { BATON_BIN } from "../../scripts/baton-bin.mjs";

const e2e = useStackAndBrowser({ shared: true });
const BIN = BATON_BIN;
/** Whether npm's registry answers at all: only then is a failed install a failure rather than "offline". */
const REGISTRY_PROBE_MS = 5_000;

const snap = (page: Page, name: string) => shot(page, `attach-${name}`, { fullPage: true });

async function registryReachable(): Promise<boolean> {
  try {
    return (await fetch("https://registry.npmjs.org/acpx", { method: "HEAD", signal: AbortSignal.timeout(REGISTRY_PROBE_MS) })).ok;
  } catch {
    return false;
  }
}

/** Runs the client to its exit; resolves with its code and output. */
function runToExit(cmd: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, out }));
  });
}

describe("baton attach from a real ACP client", () => {
  it("acpx sends a prompt into a session a Chromium viewer watches; both see the same turn", async (ctx) => {
    const acpx = await installClient("acpx").catch(async (err: unknown) => {
      if (!(await registryReachable())) return null;
      throw err;
    });
    if (!acpx) return ctx.skip("acpx is not in the cache and npm's registry cannot be reached (offline): nothing to drive");
    const token = await signInUser(e2e.stack.url, "acpx-test");
    const sessionId = await createSession(e2e.stack.url);
    const web = await openViewer(e2e, DESKTOP, sessionId, "idle");
    const attach = [process.execPath, BIN, "attach", `${e2e.stack.url}/s/${sessionId}`].join(" ");
    // acpx needs Node 22 (this run's); the attach agent reads its token from the environment.
    const run = await runToExit(process.execPath, [acpx, "--format", "text", "--approve-all", "--agent", attach, "exec", "hello from acpx"], { BATON_USER_TOKEN: token });
    expect(run.code, run.out).toBe(0);
    // The terminal saw the turn to its end...
    expect(run.out).toContain("It streams markdown so you can check rendering");
    expect(run.out).toContain("hello from acpx");
    expect(run.out.trimEnd()).toMatch(/end_turn$/);
    // ...and the web viewer saw the same turn: the message from acpx, the same answer.
    await waitFor(async () => (await userRows(web.page)).includes("hello from acpx"), "the web shows acpx's message");
    await idle(web.page);
    const answer = await tid(web.page, "row-agent").last().innerText();
    expect(answer).toContain("It streams markdown so you can check rendering");
    expect(answer).toContain("hello from acpx");
    await snap(web.page, "acpx-turn-web-1280");
    await web.ctx.close();
  });

  /** `baton login --user`'s first step (the code), then its link opened in the browser. */
  async function signInFromTheBrowser(page: Page, hostname: string): Promise<DeviceCodeResponse> {
    const post = (path: string, body: unknown) =>
      fetch(`${e2e.stack.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json());
    const code = DeviceCodeResponse.parse(
      await post("/api/device/code", { hostname, os: "Linux 6.1 (x64)", agents: [], daemonVersion: "0.1.0", protocolVersion: TUNNEL_PROTOCOL_VERSION, kind: "user" }),
    );
    await page.goto(code.verificationUriComplete);
    await page.getByRole("heading", { name: "Approve a sign-in" }).waitFor();
    await page.getByText(/join your sessions as\s+you/).waitFor();
    return code;
  }

  async function signInsFlow(profile: BrowserContextOptions, label: "1280" | "390") {
    const ctx = await e2e.browser.newContext(profile);
    const page = await ctx.newPage();
    const hostname = `editor-${label}`;
    const code = await signInFromTheBrowser(page, hostname);
    await snap(page, `approve-sign-in-${label}`);
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByText(/is signed in as you/).waitFor();
    const token = UserTokenResponse.parse(
      await (await fetch(`${e2e.stack.url}/api/device/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ deviceCode: code.deviceCode }) })).json(),
    ).token;

    // The Machines page lists it.
    await page.goto(`${e2e.stack.url}/machines`);
    const card = page.getByRole("region", { name: "Editors and terminals" });
    const row = card.getByRole("listitem").filter({ hasText: hostname });
    await row.waitFor();
    await row.scrollIntoViewIfNeeded();
    await snap(page, `sign-ins-${label}`);

    // It works until revoked from the web...
    const sessionId = await createSession(e2e.stack.url);
    const url = `${e2e.stack.url}/s/${sessionId}`;
    const before = attachClient(url, token);
    await initialize(before);
    await before.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: "/", mcpServers: [] });
    await before.close();

    await card.getByRole("button", { name: `Revoke the sign-in on ${hostname}` }).click();
    await card.getByRole("button", { name: `Confirm revoking the sign-in on ${hostname}` }).click();
    await waitFor(async () => (await row.count()) === 0, "the row goes");
    // ...then the next attach is refused, with what to do.
    const after = attachClient(url, token);
    await initialize(after);
    await expect(after.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: "/", mcpServers: [] })).rejects.toThrow(/revoked or is unknown.*baton login --user/);
    await after.close();
    await ctx.close();
  }

  it("a sign-in approved in the browser is listed on the Machines page and revoked there (1280 px)", () => signInsFlow(DESKTOP, "1280"));
  it("the same on a phone (390 px)", () => signInsFlow(PHONE, "390"));
});
