import { describe, expect, it } from "vitest";
import { PushEventKind, PushPayload } from "../../shared/push-api";
import type { SessionEvent } from "../../shared/viewer-protocol";
import { VIEWER_PING_EVERY_MS } from "../../shared/limits";
import { type FollowerFacts, isWatching, WATCHING_SILENCE_MS, lastAgentText, permissionActions, plainText, type PushEvent, pushPayload, pushRecipients } from "./notify-rules";

/** Not a speed target: the bound of a wedged room. The quadratic patterns took 53 s over this test's input here, the linear ones milliseconds. */
const FREEZE_MS = 5_000;
const allOn = Object.fromEntries(PushEventKind.options.map((k) => [k, true])) as Record<PushEventKind, boolean>;
const follower = (userId: string, role: FollowerFacts["role"], more: Partial<FollowerFacts> = {}): FollowerFacts => ({ userId, role, events: { ...allOn }, muted: false, ...more });
const team = [follower("owner", "owner"), follower("mem", "member"), follower("view", "viewer")];
const base = { sessionId: "s1", sessionTitle: "Fix the login bug", actorId: null };
const OPTIONS = [
  { optionId: "a1", name: "Allow once", kind: "allow_once" },
  { optionId: "a2", name: "Always allow", kind: "allow_always" },
  { optionId: "r1", name: "Reject", kind: "reject_once" },
];
const permission: PushEvent = { ...base, kind: "permission", requestId: "p1", toolTitle: "Run `rm -rf build`", options: OPTIONS };
const ended: PushEvent = { ...base, kind: "turn_ended", stoppedBy: null, preview: "Done." };
const none = new Set<string>();

describe("who gets a push", () => {
  it("a permission request goes to the owner and members, not viewers", () => {
    expect(pushRecipients(permission, team, none)).toEqual(["owner", "mem"]);
  });
  it("turn ended, failed and machine offline go to everyone following, viewers included", () => {
    for (const e of [ended, { ...base, kind: "turn_failed", message: "boom" }, { ...base, kind: "machine_offline" }] as PushEvent[])
      expect(pushRecipients(e, team, none)).toEqual(["owner", "mem", "view"]);
  });
  it("a queued message that started goes to its author only", () => {
    expect(pushRecipients({ ...base, kind: "queued_started", authorId: "view", preview: "hi" }, team, none)).toEqual(["view"]);
    expect(pushRecipients({ ...base, kind: "queued_started", authorId: "stranger", preview: "hi" }, team, none)).toEqual([]);
  });
  it("nobody with a live socket on the session", () => {
    expect(pushRecipients(ended, team, new Set(["mem"]))).toEqual(["owner", "view"]);
    expect(pushRecipients(permission, team, new Set(["owner", "mem"]))).toEqual([]);
  });
  it("never the person whose action caused it", () => {
    expect(pushRecipients({ ...ended, actorId: "owner", stoppedBy: "Owner" }, team, none)).toEqual(["mem", "view"]);
    expect(pushRecipients({ ...base, actorId: "mem", kind: "queued_started", authorId: "mem", preview: "x" }, team, none)).toEqual([]);
  });
  it("respects each user's event choices and session mutes", () => {
    const picky = [follower("a", "member", { events: { ...allOn, turn_ended: false } }), follower("b", "member", { muted: true }), follower("c", "member")];
    expect(pushRecipients(ended, picky, none)).toEqual(["c"]);
    expect(pushRecipients(permission, picky, none)).toEqual(["a", "c"]);
  });
});

describe("who counts as watching (a live socket, not a silent one)", () => {
  const now = 10_000_000;
  it("a socket that pinged lately, or connected lately, is someone watching", () => {
    expect(isWatching({ connectedAt: now - 3_600_000, lastPingAt: now - VIEWER_PING_EVERY_MS }, now)).toBe(true);
    expect(isWatching({ connectedAt: now - 1_000, lastPingAt: null }, now)).toBe(true);
  });
  it("a socket silent for three pings (a phone asleep, a network gone without a close) is not: its user gets the push", () => {
    expect(isWatching({ connectedAt: now - 3_600_000, lastPingAt: now - WATCHING_SILENCE_MS }, now)).toBe(false);
    expect(isWatching({ connectedAt: now - WATCHING_SILENCE_MS - 1, lastPingAt: null }, now)).toBe(false);
    // A long-hidden tab whose timers run once a minute still counts.
    expect(isWatching({ connectedAt: now - 3_600_000, lastPingAt: now - 60_000 }, now)).toBe(true);
  });
});

describe("what a push says", () => {
  it("a question from the agent (a form) reaches members as a permission would, under the same switch, without buttons", () => {
    const q: PushEvent = { ...base, kind: "question", requestId: "e1", message: "Which branch should I use?" };
    expect(pushRecipients(q, team, new Set())).toEqual(["owner", "mem"]);
    expect(pushRecipients(q, [follower("mem", "member", { events: { ...allOn, permission: false } })], new Set())).toEqual([]);
    const p = pushPayload(q);
    expect(p).toMatchObject({ kind: "permission", title: "Your answer needed · Fix the login bug", body: "Which branch should I use?", tag: "s1:question" });
    expect(p.permission).toBeUndefined();
  });

  it("a permission carries Approve / Deny mapped from the agent's options, once preferred", () => {
    const p = pushPayload(permission);
    expect(p.title).toBe("Approval needed · Fix the login bug");
    expect(p.body).toBe("Run rm -rf build");
    expect(p.permission).toEqual({
      requestId: "p1",
      actions: [
        { action: "approve", optionId: "a1", title: "Approve" },
        { action: "deny", optionId: "r1", title: "Deny" },
      ],
    });
    expect(p.url).toBe("/s/s1");
    expect(p.tag).toBe("s1:permission");
  });
  it("falls back to the always kinds, and offers no button for a kind the agent lacks", () => {
    expect(permissionActions([{ optionId: "x", name: "Yes forever", kind: "allow_always" }, { optionId: "n", name: "Never", kind: "reject_always" }])).toEqual([
      { action: "approve", optionId: "x", title: "Always allow" },
      { action: "deny", optionId: "n", title: "Always deny" },
    ]);
    expect(permissionActions([{ optionId: "r", name: "No", kind: "reject_once" }])).toEqual([{ action: "deny", optionId: "r", title: "Deny" }]);
    expect(permissionActions([{ optionId: "q", name: "Maybe", kind: "other" }])).toEqual([]);
  });
  it("stays within the payload limits however long the text", () => {
    const long: PushEvent = { ...base, sessionTitle: "t".repeat(500), kind: "turn_failed", message: "word ".repeat(400) };
    const p = pushPayload(long);
    expect(PushPayload.safeParse(p).success).toBe(true);
    expect(p.title.length).toBeLessThanOrEqual(120);
    expect(p.body.length).toBeLessThanOrEqual(240);
    expect(p.body.endsWith("…")).toBe(true);
  });
  it("a stopped turn names who stopped it; a quiet end says the agent waits", () => {
    expect(pushPayload({ ...ended, stoppedBy: "Ann", preview: "" })).toMatchObject({ title: "Stopped by Ann · Fix the login bug", body: "The agent is done and waiting for you." });
  });
});

describe("plain, safe preview text", () => {
  it("drops markdown, HTML and terminal escapes", () => {
    expect(plainText("# Title\n\n**bold** and _it_ `code` [link](https://x.io) <b>tag</b> <script>alert(1)</script>", 200)).toBe("Title bold and it code link tag alert(1)");
    expect(plainText("\x1b[31mred\x1b[0m \x1b]0;title\x07done", 100)).toBe("red done");
    expect(plainText("```ts\nconst a = 1;\n```", 100)).toBe("const a = 1;");
  });
  it("redacts things that look like secrets", () => {
    const out = plainText(
      "key sk-ant-abcdefghijklmnop1234 token=hunter2 gh ghp_abcdefghijklmnopqrstuvwxyz0123456789 hash 3f786850e387550fdab836ed7e6dc881de23001b PASSWORD: 'x y'",
      300,
    );
    expect(out).not.toMatch(/sk-ant|hunter2|ghp_|3f786850|x y/);
    expect(out).toContain("[redacted]");
  });
  it("an agent's hostile text of 256 Ki chars (unclosed tags, links, brackets, one word of repeated keywords) reads in one pass", () => {
    // Each took seconds of the room's CPU at a turn's end when a pattern scanned to the end from every start.
    const size = 256 * 1024;
    for (const unit of ["<a", "[a](", "[", "![a](", "token"]) expect(plainText(unit.repeat(size / unit.length), 140).length).toBeLessThanOrEqual(140);
    expect(plainText("my_api_key: abc123 then [a link](https://x.io) and <i>it</i>", 200)).toBe("my_api_key: [redacted] then a link and it");
  }, FREEZE_MS);
  it("keeps ordinary paths and words", () => {
    expect(plainText("Edited src/components/LoginForm.tsx and worker/session-room/room-core.ts", 200)).toBe(
      "Edited src/components/LoginForm.tsx and worker/session-room/room-core.ts",
    );
  });
});

describe("the agent's last words in a turn", () => {
  const chunk = (text: string): SessionEvent => ({ kind: "acp", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });
  const user: SessionEvent = { kind: "user_message", id: "m", blocks: [{ type: "text", text: "go" }], author: { id: "u", name: "U" }, at: 1 };
  it("joins the message chunks after the last prompt and the last tool call", () => {
    const events: SessionEvent[] = [chunk("old "), user, chunk("Looking… "), { kind: "acp", update: { sessionUpdate: "tool_call", toolCallId: "t" } }, chunk("All "), chunk("done.")];
    expect(lastAgentText(events)).toBe("All done.");
    expect(lastAgentText([chunk("x"), user])).toBe("");
  });
});
