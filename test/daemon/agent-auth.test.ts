/** An agent that needs a login: the failure says how, and a logged-out report becomes a notice. */
import { afterEach, describe, expect, it } from "vitest";
import { makeHostFixture, type HostFixture } from "./host-harness";

describe("auth (demo agent with DEMO_AUTH_REQUIRED=1)", () => {
  let f: HostFixture;
  afterEach(async () => {
    await f.close();
  });

  it("session.failed carries the advertised authMethods with the agent's terminal-auth command", async () => {
    f = makeHostFixture({ env: { DEMO_AUTH_REQUIRED: "1" } });
    f.send({ t: "session.open", sessionId: "a1", agentId: "demo", cwd: f.root });
    const failed = await f.rec.waitFor((e) => e.t === "session.failed" && e.sessionId === "a1");
    if (failed.t !== "session.failed") throw new Error("unreachable");
    expect(failed.message).toMatch(/auth/i);
    expect(failed.authMethods).toEqual([
      { id: "demo-login", name: "Log in to the demo agent", description: "Run the demo agent's login in a terminal on this machine", command: "baton-demo-agent login" },
    ]);
  });

  it("_auth/status_update 'Not logged in' becomes a warn notice naming what to run", async () => {
    f = makeHostFixture({ env: { DEMO_AUTH_REQUIRED: "1" } });
    f.send({ t: "session.open", sessionId: "a2", agentId: "demo", cwd: f.root });
    const notice = await f.rec.waitFor((e) => e.t === "session.notice" && e.sessionId === "a2");
    expect(notice).toMatchObject({
      level: "warn",
      text: "The agent reports it is not logged in on this machine (Not logged in). To log in, run there: baton-demo-agent login",
    });
  });

  it("an agent that needs no login reports no authMethods", async () => {
    f = makeHostFixture();
    const ready = await f.open("a3");
    expect(ready.config.authMethods).toEqual([]);
  });
});
