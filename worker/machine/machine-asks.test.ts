import { describe, expect, it } from "vitest";
import { MAX_ASK_REPLY_BYTES } from "../../shared/limits";
import { AskTable } from "./machine-asks";

const page = { sessions: [{ agentSessionId: "a1", title: "t", updatedAt: null, cwd: "/w" }], nextCursor: null };

describe("AskTable", () => {
  it("settles an ask with its reply's result, checked against the kind's schema", async () => {
    const t = new AskTable();
    const p = t.add("1", "agent.sessions.list");
    expect(t.reply({ type: "reply", id: "1", ok: true, result: page }, 100)).toBe(true);
    await expect(p).resolves.toEqual({ ok: true, result: page });
    expect(t.size).toBe(0);
  });

  it("a reply that does not fit the kind is BAD_REPLY; an oversized one REPLY_TOO_LARGE; an error reply keeps its code", async () => {
    const t = new AskTable();
    const bad = t.add("1", "agent.sessions.list");
    const big = t.add("2", "agent.sessions.list");
    const err = t.add("3", "agent.sessions.delete");
    t.reply({ type: "reply", id: "1", ok: true, result: { sessions: "no" } }, 10);
    t.reply({ type: "reply", id: "2", ok: true, result: page }, MAX_ASK_REPLY_BYTES + 1);
    t.reply({ type: "reply", id: "3", ok: false, code: "AGENT_REFUSED", message: "no delete" }, 10);
    expect(await bad).toMatchObject({ ok: false, code: "BAD_REPLY" });
    expect(await big).toMatchObject({ ok: false, code: "REPLY_TOO_LARGE" });
    expect(await err).toEqual({ ok: false, code: "AGENT_REFUSED", message: "no delete" });
  });

  it("a reply nobody waits for (late, duplicate, made up) is ignored; fail / failAll end open asks once", async () => {
    const t = new AskTable();
    expect(t.reply({ type: "reply", id: "nope", ok: true, result: page }, 10)).toBe(false);
    const a = t.add("a", "agent.sessions.fork");
    const b = t.add("b", "agent.sessions.fork");
    t.fail("a", "ASK_TIMEOUT", "no answer");
    t.fail("a", "OTHER", "again");
    t.failAll("MACHINE_OFFLINE", "gone");
    expect(await a).toEqual({ ok: false, code: "ASK_TIMEOUT", message: "no answer" });
    expect(await b).toEqual({ ok: false, code: "MACHINE_OFFLINE", message: "gone" });
    expect(t.reply({ type: "reply", id: "a", ok: true, result: { agentSessionId: "x" } }, 10)).toBe(false);
  });
});
