import { describe, expect, it } from "vitest";
import { SessionFeedFrame, type SessionListItem } from "../../shared/session-list";
import { deliveriesFor } from "./feed-rules";

const item = (over: Partial<SessionListItem> = {}): SessionListItem => ({
  id: "s1",
  title: "Demo · app",
  machineId: "m1",
  machineName: "laptop",
  agentId: "demo",
  agentLabel: "Demo",
  cwd: "/work/app",
  status: "idle",
  createdAt: 1,
  lastActivityAt: 2,
  firstPrompt: null,
  agentTitle: null,
  customTitle: null,
  archivedAt: null,
  needsYou: false,
  unread: false,
  role: "owner",
  version: 3,
  ...over,
});
const parse = (frames: string[]) => frames.map((f) => SessionFeedFrame.parse(JSON.parse(f)));

describe("deliveriesFor", () => {
  it("sends each member its own row, and nobody else anything", () => {
    const d = deliveriesFor([{ kind: "upsert", rows: [{ userId: "alice", item: item() }, { userId: "bob", item: item({ role: "member", unread: true }) }] }]);
    expect(d.map((x) => x.userId).sort()).toEqual(["alice", "bob"]);
    const bob = parse(d.find((x) => x.userId === "bob")!.frames);
    expect(bob).toEqual([{ type: "upsert", item: item({ role: "member", unread: true }) }]);
  });

  it("restricts a per-user change (seen, role) to that user", () => {
    const d = deliveriesFor([{ kind: "upsert", rows: [{ userId: "alice", item: item() }, { userId: "bob", item: item() }], onlyUser: "bob" }]);
    expect(d.map((x) => x.userId)).toEqual(["bob"]);
    expect(deliveriesFor([{ kind: "upsert", rows: [{ userId: "alice", item: item() }], onlyUser: "stranger" }])).toEqual([]);
  });

  it("tells each listed user once that a session left their list, with the reason", () => {
    const d = deliveriesFor([{ kind: "remove", sessionId: "s1", userIds: ["alice", "bob", "alice"], reason: "deleted" }]);
    expect(d).toHaveLength(2);
    for (const x of d) expect(parse(x.frames)).toEqual([{ type: "remove", id: "s1", reason: "deleted" }]);
  });

  it("groups many sessions' changes into one delivery per user (a machine going offline)", () => {
    const d = deliveriesFor([
      { kind: "upsert", rows: [{ userId: "alice", item: item({ id: "s1" }) }] },
      { kind: "upsert", rows: [{ userId: "alice", item: item({ id: "s2" }) }, { userId: "bob", item: item({ id: "s2", role: "viewer" }) }] },
    ]);
    expect(d.find((x) => x.userId === "alice")!.frames).toHaveLength(2);
    expect(d.find((x) => x.userId === "bob")!.frames).toHaveLength(1);
  });
});
