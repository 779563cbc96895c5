// The local stack (`npm start`'s) is as strict as a deployment: security headers on pages, assets and API
// answers, no framing by another origin, no CORS for other local origins, a refused tunnel upgrade
// reaches the daemon as a 401 (not a hang-up), and the app runs under its CSP with no violation.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONTENT_SECURITY_POLICY } from "../../worker/security-headers";
import { DESKTOP } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { createSession, freePort, waitFor } from "./support";
import { BATON_BIN } from "../../scripts/baton-bin.mjs";

let foreign: Server;
let foreignUrl: string;

const e2e = useStackAndBrowser({
  shared: true,
  async setup() {
    // Another local origin: a page that frames Baton and reads its API.
    const port = await freePort();
    foreignUrl = `http://127.0.0.1:${port}`;
    foreign = createServer((_req, res) => {
      res.setHeader("content-type", "text/html");
      res.end(`<!doctype html><iframe id="f" src="${e2e.stack.url}/"></iframe>`);
    });
    await new Promise<void>((r) => foreign.listen(port, "127.0.0.1", () => r()));
  },
  cleanup: () => {
    foreign?.close();
  },
});

describe("local stack security", () => {
  it("pages, assets and API answers carry the security headers", async () => {
    const html = await fetch(`${e2e.stack.url}/s/some-session`);
    const script = (await (await fetch(`${e2e.stack.url}/`)).text()).match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeTruthy();
    for (const r of [html, await fetch(`${e2e.stack.url}${script}`), await fetch(`${e2e.stack.url}/api/health`), await fetch(`${e2e.stack.url}/api/machines`), await fetch(`${e2e.stack.url}/api/nope`)]) {
      expect(r.headers.get("content-security-policy"), r.url).toBe(CONTENT_SECURITY_POLICY);
      expect(r.headers.get("x-content-type-options"), r.url).toBe("nosniff");
      expect(r.headers.get("referrer-policy"), r.url).toBe("no-referrer");
      expect(r.headers.get("x-frame-options"), r.url).toBe("DENY");
    }
  });

  it("another local origin gets no CORS grant to read the API", async () => {
    for (const path of ["/api/machines", "/api/sessions"]) {
      const r = await fetch(`${e2e.stack.url}${path}`, { headers: { Origin: "http://localhost:5173" } });
      expect(r.headers.get("access-control-allow-origin"), path).toBeNull();
      const pre = await fetch(`${e2e.stack.url}${path}`, {
        method: "OPTIONS",
        headers: { Origin: "http://localhost:5173", "Access-Control-Request-Method": "GET" },
      });
      expect(pre.headers.get("access-control-allow-origin"), `preflight ${path}`).toBeNull();
    }
  });

  it("a page on another origin cannot frame Baton; the app itself runs under its CSP without violations", async () => {
    const ctx = await e2e.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    await page.goto(foreignUrl);
    await page.waitForTimeout(500);
    const framed = page.frames().find((f) => f !== page.mainFrame());
    // The browser blocks the frame: it never gets Baton's document.
    const title = await framed?.title().catch(() => "");
    expect(title).not.toBe("Baton");
    expect(await framed?.locator("#root").count().catch(() => 0)).toBe(0);

    await page.close();
    violations.length = 0;
    const app = await ctx.newPage();
    app.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    // Chromium's Issues panel (DevTools' Audits domain) reports what the policy blocked even when nothing is
    // logged to the console (e.g. a report-only or an inline-style block).
    const cdp = await ctx.newCDPSession(app);
    const issues: string[] = [];
    cdp.on("Audits.issueAdded", ({ issue }) => {
      if (issue.code === "ContentSecurityPolicyIssue") issues.push(JSON.stringify(issue.details.contentSecurityPolicyIssueDetails));
    });
    await cdp.send("Audits.enable");
    const sessionId = await createSession(e2e.stack.url);
    await app.goto(`${e2e.stack.url}/s/${sessionId}`);
    await app.getByTestId("composer-input").fill("hello");
    await app.getByTestId("send-button").click();
    await app.getByTestId("row-agent").first().waitFor();
    await app.goto(`${e2e.stack.url}/`);
    await app.getByRole("heading", { name: "Sessions" }).waitFor();
    expect(violations).toEqual([]);
    expect(issues).toEqual([]);
    await ctx.close();
  });

  it("robots.txt is a real one that keeps crawlers out of a private deployment, not the app's HTML", async () => {
    const r = await fetch(`${e2e.stack.url}/robots.txt`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/plain/);
    const body = await r.text();
    expect(body).toMatch(/^User-agent: \*$/m);
    expect(body).toMatch(/^Disallow: \/$/m);
    expect(body).not.toContain("<html");
  });

  it("a daemon with a wrong token is told 401 (unauthorized), not left retrying a hang-up", async () => {
    const lines: string[] = [];
    const child = spawn(process.execPath, [BATON_BIN, "daemon", "--server", e2e.stack.url, "--root", tmpdir()], {
      env: { ...process.env, BATON_TOKEN: "bt_not_a_real_token" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (d) => lines.push(String(d)));
    child.stderr.on("data", (d) => lines.push(String(d)));
    try {
      await waitFor(() => /rejected the machine token|401/i.test(lines.join("")), "the daemon reports the refused token", 30_000);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
