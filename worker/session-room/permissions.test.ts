/** Permission requests: first valid answer wins; the rest hear it resolved; a turn's end cancels what is open. */
import { describe, expect, it } from "vitest";
import { form, permission, running, step } from "../testing/room-fixtures";
import { answerPermission, cancelPendingPermissions, permissionWithdrawn, remoteAnswer } from "./permissions";

const OPTIONS = [{ optionId: "yes", name: "Yes", kind: "allow_once" as const }];
const open = (isOpen: boolean) => ({ requests: [permission("p", isOpen, OPTIONS)] });
const BOB = { id: "u2", name: "Bob" };

describe("permissions", () => {
  it.each([
    ["unknown", {}, "yes", { ok: false, code: "NOT_FOUND", message: "no such permission request" }, []],
    ["a form's id", { requests: [form("p", true)] }, "yes", { ok: false, code: "NOT_FOUND", message: "no such permission request" }, []],
    ["an option not offered", open(true), "no", { ok: false, code: "BAD_FRAME", message: "that option was not offered" }, []],
    ["the first answer", open(true), "yes", { ok: true, ack: { outcome: "accepted" } }, ["request.resolve", "permission_resolved", "dispatch:permission.respond"]],
    ["a deny (no option) wins too", open(true), null, { ok: true, ack: { outcome: "accepted" } }, ["request.resolve", "permission_resolved", "dispatch:permission.respond"]],
    ["a late answer", open(false), "yes", { ok: true, ack: { outcome: "already_resolved" } }, []],
  ])("%s", (_name, world, optionId, reply, kinds) => {
    const r = step(running(), (out) => answerPermission(out, BOB, { requestId: "p", optionId }), world);
    expect(r.result).toEqual(reply);
    expect(r.kinds).toEqual(kinds);
  });

  it("the winner is recorded by name and forwarded for delivery when the machine is back", () => {
    const r = step(running(), (out) => answerPermission(out, BOB, { requestId: "p", optionId: "yes" }), open(true));
    expect(r.effects).toEqual([
      { t: "request.resolve", requestId: "p", by: "Bob" },
      { t: "emit", event: { kind: "permission_resolved", requestId: "p", outcome: "selected", optionId: "yes", by: BOB } },
      { t: "dispatch", command: { t: "permission.respond", sessionId: "s1", requestId: "p", optionId: "yes" }, opts: { deliverWhenOnline: true }, about: { kind: "plain" } },
    ]);
  });

  it("withdrawn or cancelled: only what is open", () => {
    expect(step(running(), (out) => permissionWithdrawn(out, "p"), open(false)).effects).toEqual([]);
    expect(step(running(), (out) => cancelPendingPermissions(out), open(true)).kinds).toEqual(["request.resolve", "permission_resolved"]);
  });

  it("a notification's answer: who answered first, or why not", () => {
    expect(remoteAnswer({ ok: true, ack: { outcome: "already_resolved" } }, () => "Ann")).toEqual({ ok: false, error: "ALREADY_ANSWERED", by: "Ann" });
    expect(remoteAnswer({ ok: false, code: "BAD_FRAME", message: "m" }, () => null)).toEqual({ ok: false, error: "BAD_OPTION", message: "m" });
    expect(remoteAnswer({ ok: true, ack: { outcome: "accepted" } }, () => null)).toEqual({ ok: true });
  });
});
