import { describe, expect, it } from "vitest";
import type { PushPayload } from "../../../shared/push-api";
import { answerOutcome, clickPlan, followUpFor, NOTIFICATION_ICON, notificationFor, windowFor } from "./notification-logic";

const permission: PushPayload = {
  kind: "permission",
  sessionId: "s1",
  title: "Needs your approval",
  body: "Run `rm -rf build`",
  tag: "s1:permission",
  url: "/s/s1",
  permission: {
    requestId: "r1",
    actions: [
      { action: "approve", optionId: "allow_once", title: "Approve" },
      { action: "deny", optionId: "reject_once", title: "Deny" },
    ],
  },
};

describe("notificationFor", () => {
  it("shows a permission with Approve / Deny, kept on screen, the request on its data", () => {
    const n = notificationFor(permission)!;
    expect(n.title).toBe("Needs your approval");
    expect(n.options).toMatchObject({ body: "Run `rm -rf build`", tag: "s1:permission", icon: NOTIFICATION_ICON, requireInteraction: true });
    expect(n.options.actions).toEqual([
      { action: "approve", title: "Approve" },
      { action: "deny", title: "Deny" },
    ]);
    expect(n.options.data).toEqual({ kind: "permission", sessionId: "s1", url: "/s/s1", permission: permission.permission });
  });

  it("a turn that ended has no buttons and goes away on its own", () => {
    const n = notificationFor({ kind: "turn_ended", sessionId: "s1", title: "Turn ended", body: "Done", tag: "s1:turn", url: "/s/s1" })!;
    expect(n.options.actions).toEqual([]);
    expect(n.options.requireInteraction).toBe(false);
  });

  it("ignores a message that is not a Baton payload", () => {
    expect(notificationFor({ hello: 1 })).toBeNull();
    expect(notificationFor(null)).toBeNull();
    expect(notificationFor({ ...permission, title: "x".repeat(500) })).toBeNull();
  });

  it("never opens another site named by a payload", () => {
    expect(notificationFor({ ...permission, url: "https://evil.example/" })!.options.data.url).toBe("/s/s1");
    expect(notificationFor({ ...permission, url: "//evil.example/" })!.options.data.url).toBe("/s/s1");
  });
});

describe("clickPlan", () => {
  const data = notificationFor(permission)!.options.data;
  it("Approve / Deny answer with the agent's option", () => {
    expect(clickPlan("approve", data)).toEqual({ kind: "answer", body: { sessionId: "s1", requestId: "r1", optionId: "allow_once" }, data });
    expect(clickPlan("deny", data)).toMatchObject({ kind: "answer", body: { optionId: "reject_once" } });
  });
  it("the body (no action) opens the session", () => {
    expect(clickPlan("", data)).toEqual({ kind: "open", url: "/s/s1" });
  });
  it("an unknown action or data without a session does nothing harmful", () => {
    expect(clickPlan("explode", data)).toEqual({ kind: "open", url: "/s/s1" });
    expect(clickPlan("approve", { url: "/x" })).toBeNull();
    expect(clickPlan("approve", "junk")).toBeNull();
  });
});

describe("answerOutcome / followUpFor", () => {
  const data = notificationFor(permission)!.options.data;
  it("answered: nothing more to show", () => {
    expect(answerOutcome(200, { ok: true })).toEqual({ kind: "answered" });
    expect(followUpFor({ kind: "answered" }, data)).toBeNull();
  });
  it("409 says who answered first", () => {
    const o = answerOutcome(409, { error: "ALREADY_ANSWERED", by: "Ada" });
    expect(o).toEqual({ kind: "already_answered", by: "Ada" });
    const n = followUpFor(o, data)!;
    expect(n.title).toBe("Already answered by Ada");
    expect(n.options.actions).toEqual([]);
    expect(n.options.data.permission).toBeUndefined();
    expect(followUpFor({ kind: "already_answered", by: null }, data)!.title).toBe("Already answered");
  });
  it("anything else (offline, signed out) says to open the session", () => {
    expect(answerOutcome(0, null)).toEqual({ kind: "failed", status: 0 });
    expect(answerOutcome(409, { something: "else" })).toEqual({ kind: "failed", status: 409 });
    expect(followUpFor({ kind: "failed", status: 401 }, data)!.options.body).toMatch(/signed out/);
    expect(followUpFor({ kind: "failed", status: 0 }, data)!.options.body).toMatch(/open the session/);
  });
});

describe("windowFor", () => {
  it("focuses a tab already on the session, not one elsewhere", () => {
    const wins = [{ url: "http://h/" }, { url: "http://h/s/s1?x=1" }];
    expect(windowFor(wins, "/s/s1", "http://h")).toBe(wins[1]);
    expect(windowFor(wins, "/s/s2", "http://h")).toBeUndefined();
  });
});
