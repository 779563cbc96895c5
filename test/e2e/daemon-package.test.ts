// The daemon as a user gets it: `npm pack` of daemon/, installed into an empty temporary prefix (no
// repository in reach, offline: every dependency is bundled), `baton login` against the local stack,
// approved in Chromium on the "Approve a machine" view, then `baton daemon` from that install runs a
// demo-agent session end to end. It runs under the machine's system Node 20 when there is one.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain .mjs module without types
import { startStack } from "../../scripts/dev-stack.mjs";
import WebSocket from "ws";
import { CLOSE_UPGRADE_REQUIRED, TUNNEL_PROTOCOL_VERSION } from "../../shared/protocol-version";
import { TUNNEL_TOKEN_HEADER } from "../../shared/tunnel-protocol";
import { DESKTOP, launch, PHONE, shot } from "./browser";
import { onFreePort } from "./port-retry";
import { FAST_DEMO, freePort, waitFor } from "./support";

const ROOT = join(import.meta.dirname, "..", "..");

/** The oldest Node the package claims (engines >=20): the system's Node 20 if installed, else this one. */
function oldestNode(): string {
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node"]) {
    if (!existsSync(candidate)) continue;
    const v = execFileSync(candidate, ["--version"], { encoding: "utf8" }).trim();
    if (/^v20\./.test(v)) return candidate;
  }
  return process.execPath;
}

/** Like a user's shell: no node_modules/.bin of this repository (its pinned Gemini CLI is not "installed"). */
const cleanPath = (process.env.PATH ?? "").split(delimiter).filter((d) => d && !/[\\/]node_modules[\\/]\.bin$/.test(d)).join(delimiter);

let stack: { url: string; stop(): Promise<void> };
let browser: Browser;
let work: string;
let node: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "baton-pkg-"));
  node = oldestNode();
  [stack, browser] = await Promise.all([
    // No auto-paired daemon: the one under test pairs itself.
    onFreePort<typeof stack>((port) => startStack({ port, stateDir: join(work, "state"), quiet: !process.env.E2E_VERBOSE, daemon: false }), freePort),
    launch(),
  ]);
}, 180_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGTERM");
  await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once("exit", r)) : null)));
  await browser?.close();
  await stack?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Collects a child's output; `until` waits for a pattern in it. */
function run(args: string[], env: Record<string, string>) {
  const child = spawn(node, args, { cwd: work, env: { PATH: cleanPath, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { child, exited, output: () => out, until: (re: RegExp, what: string, ms = 30_000) => waitFor(() => re.exec(out), `${what}; output so far:\n${out}`, ms) };
}

describe("the daemon package", () => {
  it("packs, installs into an empty prefix offline, pairs with baton login approved in the browser, and runs a session", async () => {
    // npm pack runs the package's prepack (the esbuild bundle).
    const packDir = join(work, "pack");
    mkdirSync(packDir);
    const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", packDir], { cwd: join(ROOT, "daemon"), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed[0]!.files.map((f) => f.path).sort();
    expect(files).toEqual(["README.md", "dist/THIRD_PARTY_LICENSES.md", "dist/baton.mjs", "dist/demo-agent.mjs", "package.json"]);
    const tarball = join(packDir, packed[0]!.filename);

    const prefix = join(work, "prefix");
    mkdirSync(prefix);
    execFileSync("npm", ["install", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", tarball], { cwd: prefix, stdio: ["ignore", "pipe", "pipe"] });
    const installed = join(prefix, "node_modules", "baton-acp");
    const bin = realpathSync(join(prefix, "node_modules", ".bin", "baton"));
    expect(bin).toBe(join(installed, "dist", "baton.mjs"));
    // Nothing else came with it: every run-time dependency is in the bundle.
    expect(existsSync(join(prefix, "node_modules", "ws"))).toBe(false);

    const home = join(work, "home");
    mkdirSync(home);
    const env = { HOME: home, ...FAST_DEMO };
    const version = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).version as string;
    expect(execFileSync(node, [bin, "--version"], { env: { PATH: cleanPath, HOME: home }, encoding: "utf8" }).trim()).toBe(version);
    console.log(`FIGURE daemon package: ${packed[0]!.filename}, run with ${node} (${execFileSync(node, ["--version"], { encoding: "utf8" }).trim()})`);

    // baton login: prints the link with the code, waits for approval.
    const login = run([bin, "login", stack.url], env);
    const [link, code] = (await login.until(/(http:\/\/\S+\/machines\/approve\?code=([A-Z0-9]{4}-[A-Z0-9]{4}))/, "the approval link")).slice(1) as [string, string];
    expect(login.output()).toContain(`the code ${code}`);

    // Phone first (look only), then desktop, where it is approved.
    const phone = await browser.newContext(PHONE);
    const pp = await phone.newPage();
    await pp.goto(link);
    await pp.getByTestId("approve-hostname").waitFor({ timeout: 20_000 });
    await shot(pp, "approve-machine-390");
    await phone.close();

    const desktop = await browser.newContext(DESKTOP);
    const page = await desktop.newPage();
    await page.goto(link);
    await page.getByTestId("approve-hostname").waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("approve-code").textContent()).toBe(code);
    expect(await page.getByTestId("approve-agents").textContent()).toContain("Demo agent");
    await shot(page, "approve-machine-1280");
    await page.getByTestId("approve-name").fill("Packaged daemon");
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByTestId("approve-result").waitFor();
    expect(await page.getByTestId("approve-result").textContent()).toContain("Approved");

    expect(await login.exited).toBe(0);
    const configFile = join(home, ".config", "baton", "config.json");
    expect(login.output()).toContain(`Paired as "Packaged daemon". The machine token is stored in ${configFile}`);
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    const config = JSON.parse(readFileSync(configFile, "utf8")) as { server: string; token: string };
    expect(config.server).toBe(stack.url);
    expect(config.token).toMatch(/^bt_/);
    expect(login.output()).not.toContain(config.token);

    // The installed daemon, configured by login alone.
    const daemon = run([bin, "daemon", "--root", tmpdir()], env);
    const machine = await waitFor(async () => {
      const { machines } = (await (await fetch(`${stack.url}/api/machines`)).json()) as {
        machines: { id: string; name: string; online: boolean; daemonVersion: string | null; protocolVersion: number | null }[];
      };
      // The version is recorded just after the welcome: wait for both.
      return machines.find((m) => m.name === "Packaged daemon" && m.online && m.daemonVersion);
    }, "the packaged daemon online, its version recorded", 30_000);
    expect(machine).toMatchObject({ daemonVersion: version, protocolVersion: TUNNEL_PROTOCOL_VERSION });
    expect(daemon.output()).not.toContain(config.token);

    // A demo-agent session driven from the browser: the agent is the package's built JS, under the same Node.
    const r = await fetch(`${stack.url}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ machineId: machine.id, agentId: "demo", cwd: tmpdir() }),
    });
    expect(r.status).toBe(201);
    const sessionId = ((await r.json()) as { session: { id: string } }).session.id;
    await page.goto(`${stack.url}/s/${sessionId}`);
    await page.getByTestId("composer-input").fill("hello from the package");
    await page.getByTestId("send-button").click();
    // The demo agent's markdown reply: a "Demo reply" heading and an echo of the prompt.
    await page.getByRole("heading", { name: "Demo reply" }).waitFor({ timeout: 30_000 });

    // A daemon from before protocol versioning (its hello has no protocolVersion) is refused, and says so.
    const pair = (await (await fetch(`${stack.url}/api/dev/pair`, { method: "POST", body: JSON.stringify({ name: "Old laptop" }) })).json()) as { token: string };
    const old = new WebSocket(`${stack.url.replace("http", "ws")}/api/tunnel`, { headers: { [TUNNEL_TOKEN_HEADER]: pair.token } });
    const refusal = new Promise<{ code: number; reason: string; error: string }>((resolve) => {
      let error = "";
      old.on("message", (d) => (error = String(d)));
      old.on("close", (code, reason) => resolve({ code, reason: String(reason), error }));
    });
    old.on("open", () =>
      old.send(JSON.stringify({ type: "hello", epoch: "old-1", version: "0.0.9", hostname: "old-laptop", agents: [], roots: [tmpdir()], sessions: [], lastSeenDown: 0 })),
    );
    const refused = await refusal;
    expect(refused.code).toBe(CLOSE_UPGRADE_REQUIRED);
    expect(refused.reason).toContain("npm i -g baton-acp");
    expect(JSON.parse(refused.error)).toMatchObject({ type: "error", code: "UPGRADE_REQUIRED" });

    // The Machines page: install commands for this server, each daemon's version, the old one flagged.
    await page.goto(`${stack.url}/machines`);
    await page.getByTestId("daemon-outdated").waitFor();
    expect(await page.getByTestId("login-command").textContent()).toBe(`baton login ${stack.url}`);
    const rows = page.getByTestId("machine-row");
    expect(await rows.filter({ hasText: "Packaged daemon" }).textContent()).toContain(`daemon ${version}`);
    expect(await rows.filter({ hasText: "Old laptop" }).getByTestId("daemon-outdated").textContent()).toContain("daemon 0.0.9 is too old for this server");
    await shot(page, "machines-1280", { fullPage: true });
    await desktop.close();
    const phone2 = await browser.newContext(PHONE);
    const mp = await phone2.newPage();
    await mp.goto(`${stack.url}/machines`);
    await mp.getByTestId("daemon-outdated").waitFor();
    await shot(mp, "machines-390", { fullPage: true });
    await phone2.close();

    // doctor, from the same install: server, token and the demo agent all fine.
    const doctor = run([bin, "doctor", "--root", tmpdir()], env);
    await doctor.exited;
    expect(doctor.output()).toMatch(/✓ server/);
    expect(doctor.output()).toMatch(/✓ token .*valid: machine "Packaged daemon"/);
    expect(doctor.output()).toMatch(/✓ agent demo .*Demo agent/);

    // service --dry-run shows the unit that would run this very install.
    const service = run([bin, "service", "install", "--dry-run", "--root", tmpdir()], env);
    await service.exited;
    expect(service.output()).toContain(`ExecStart="${node}" "${bin}" "daemon" "--config" "${configFile}"`);
  }, 240_000);
});
