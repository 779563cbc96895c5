import { describe, expect, it } from "vitest";
import type { DaemonEvent } from "../../../shared/tunnel-protocol";
import { AgentRequests } from "./agent-requests";

function make() {
  const events: DaemonEvent[] = [];
  const r = new AgentRequests("s1", (e) => events.push(e), () => "agent-1");
  const asked = () => events.filter((e): e is Extract<DaemonEvent, { t: "permission.request" }> => e.t === "permission.request");
  return { r, events, asked };
}
const options = [
  { optionId: "allow", name: "Allow", kind: "allow_once" },
  { optionId: "deny", name: "Deny", kind: "reject_once" },
  { bogus: true },
];

describe("agent requests (permission / form relay)", () => {
  it("a permission request is announced with its valid options; the first answer wins, even before the SDK handler runs", async () => {
    const { r, events, asked } = make();
    r.registerPermission(7, { toolCall: { title: "ls" }, options });
    expect(asked()[0]).toMatchObject({ sessionId: "s1", toolCall: { title: "ls" }, options: options.slice(0, 2) });
    const requestId = asked()[0]!.requestId;
    r.respondPermission(requestId, "allow"); // a fast viewer: answered before the handler takes it
    r.respondPermission(requestId, "deny"); // too late: ignored
    await expect(r.answerPermission(7, new AbortController().signal)).resolves.toEqual({ outcome: "selected", optionId: "allow" });
    expect(events.filter((e) => e.t === "command.failed" || e.t === "permission.cancelled")).toEqual([]);
  });

  it("an unknown option is refused and the request stays open; an abort cancels it and says so once", async () => {
    const { r, events, asked } = make();
    r.registerPermission("x", { options });
    const requestId = asked()[0]!.requestId;
    r.respondPermission(requestId, "nope");
    expect(events.at(-1)).toMatchObject({ t: "command.failed", command: "permission.respond", message: "unknown option nope" });
    const abort = new AbortController();
    const answer = r.answerPermission("x", abort.signal);
    abort.abort();
    await expect(answer).resolves.toEqual({ outcome: "cancelled" });
    r.cancelAll();
    expect(events.filter((e) => e.t === "permission.cancelled")).toHaveLength(1);
  });

  it("a request the tap never saw is answered cancelled; at turn end what is open is cancelled", async () => {
    const { r, events } = make();
    await expect(r.answerPermission(99, new AbortController().signal)).resolves.toEqual({ outcome: "cancelled" });
    r.registerPermission(1, { options });
    r.registerElicitation(2, { mode: "form", sessionId: "agent-1", message: "Pick", requestedSchema: { type: "object", properties: {} } });
    r.turnEnded();
    expect(events.filter((e) => e.t === "permission.cancelled" || e.t === "elicitation.cancelled").map((e) => e.t)).toEqual(["permission.cancelled", "elicitation.cancelled"]);
    await expect(r.answerPermission(1, new AbortController().signal)).resolves.toEqual({ outcome: "cancelled" });
  });

  it("forms: only session-scoped forms for this agent session are offered; accept carries the content", async () => {
    const { r, events } = make();
    r.registerElicitation(1, { mode: "url", sessionId: "agent-1", url: "https://x" });
    r.registerElicitation(2, { mode: "form", sessionId: "another", requestedSchema: {} });
    expect(events).toEqual([]);
    await expect(r.answerElicitation(1, new AbortController().signal)).resolves.toEqual({ action: "cancel" });
    r.registerElicitation(3, { mode: "form", sessionId: "agent-1", message: "Name?", requestedSchema: { type: "object" } });
    const req = events.find((e): e is Extract<DaemonEvent, { t: "elicitation.request" }> => e.t === "elicitation.request")!;
    expect(req).toMatchObject({ message: "Name?", toolCallId: null });
    const answer = r.answerElicitation(3, new AbortController().signal);
    r.respondElicitation(req.requestId, "accept", { name: "Ann" });
    await expect(answer).resolves.toEqual({ action: "accept", content: { name: "Ann" } });
  });
});
