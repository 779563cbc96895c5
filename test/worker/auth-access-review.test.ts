/**
 * Issue 28 #3 in workerd: a session's review comments (worker/review-routes.ts) — owner and members add and
 * remove them, a viewer reads only, a stranger sees no session; a review holds at most MAX_REVIEW_COMMENTS; a
 * comment belongs to its session (another session's route neither lists nor deletes it); bad input changes nothing;
 * every viewer's socket hears each change (a `review` frame with the next version), and a late joiner the current one.
 */
import { afterAll, describe, expect, it } from "vitest";
import { MAX_REVIEW_COMMENTS, type ReviewComment } from "../../shared/review-message";
import { settleTracked, track } from "./access-settle";
import { asUser, AuthedViewer, call } from "./auth-harness";
import { TestDaemon, waitFor } from "./harness";

afterAll(settleTracked, 60_000);

const OWNER = "review-owner@example.com";
const MEMBER = "review-member@example.com";
const VIEWER = "review-viewer@example.com";
const STRANGER = "review-stranger@example.com";

async function start() {
  const owner = await asUser(OWNER);
  const pair = await call<{ machine: { id: string }; token: string }>("/api/machines", { method: "POST", headers: owner, body: JSON.stringify({ name: "laptop" }) });
  const daemon = new TestDaemon(pair.body.token);
  await daemon.connect();
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const r = await call<{ session: { id: string } }>("/api/sessions", { method: "POST", headers: owner, body: JSON.stringify({ machineId: pair.body.machine.id, agentId: "demo", cwd: "/work" }) });
    expect(r.status).toBe(201);
    ids.push(r.body.session.id);
  }
  await waitFor(() => ids.every((id) => daemon.of("session.open").some((c) => c.sessionId === id)), "sessions open");
  await daemon.settle();
  const [sessionId, otherId] = ids as [string, string];
  for (const [email, role] of [[MEMBER, "member"], [VIEWER, "viewer"]] as const)
    expect((await call(`/api/sessions/${sessionId}/members`, { method: "POST", headers: owner, body: JSON.stringify({ email, role }) })).status).toBe(201);
  track(daemon, [
    { headers: owner, sessionIds: ids },
    { headers: await asUser(MEMBER), sessionIds: [sessionId] },
    { headers: await asUser(VIEWER), sessionIds: [sessionId] },
  ]);
  return { sessionId, otherId, daemon };
}

type Reply = { status: number; body: { comments: ReviewComment[] } & { error?: { code: string; message: string } } };
const as = async (email: string, path: string, init: RequestInit = {}): Promise<Reply> => call(path, { ...init, headers: await asUser(email) });
const comment = (text: string, line = 3) => ({ path: "src/app.ts", line, endLine: line + 1, quoted: "const a = 1;\nconst b = 2;", text });
const add = (email: string, sessionId: string, body: unknown) => as(email, `/api/sessions/${sessionId}/review`, { method: "POST", body: JSON.stringify(body) });
const list = (email: string, sessionId: string) => as(email, `/api/sessions/${sessionId}/review`);
const remove = (email: string, sessionId: string, id?: string) => as(email, `/api/sessions/${sessionId}/review${id ? `/${id}` : ""}`, { method: "DELETE" });

describe("review comments", () => {
  it("owner and member comment; everyone who sees the session reads them with their author; a viewer and a stranger cannot write", async () => {
    const s = await start();
    const first = await add(OWNER, s.sessionId, comment("Rename this", 3));
    expect(first.status).toBe(201);
    expect(first.body.comments).toEqual([
      { id: expect.any(String), path: "src/app.ts", line: 3, endLine: 4, quoted: "const a = 1;\nconst b = 2;", text: "Rename this", author: expect.any(String), createdAt: expect.any(Number) },
    ]);
    expect((await add(MEMBER, s.sessionId, comment("  And this  ", 9))).status).toBe(201);
    for (const who of [OWNER, MEMBER, VIEWER]) {
      const r = await list(who, s.sessionId);
      expect(r.status).toBe(200);
      expect(r.body.comments.map((c) => [c.line, c.text])).toEqual([
        [3, "Rename this"],
        [9, "And this"],
      ]);
    }
    expect(new Set((await list(OWNER, s.sessionId)).body.comments.map((c) => c.author)).size).toBe(2);
    expect(await add(VIEWER, s.sessionId, comment("no"))).toMatchObject({ status: 403, body: { error: { code: "FORBIDDEN" } } });
    expect(await add(STRANGER, s.sessionId, comment("no"))).toMatchObject({ status: 404 });
    expect(await list(STRANGER, s.sessionId)).toMatchObject({ status: 404 });
    const id = (await list(OWNER, s.sessionId)).body.comments[0]!.id;
    expect(await remove(VIEWER, s.sessionId, id)).toMatchObject({ status: 403 });
    expect(await remove(VIEWER, s.sessionId)).toMatchObject({ status: 403 });
    expect(await remove(STRANGER, s.sessionId)).toMatchObject({ status: 404 });
    expect((await list(OWNER, s.sessionId)).body.comments).toHaveLength(2);
    // A member removes one; the owner clears the rest (what "Send review" does after sending).
    expect((await remove(MEMBER, s.sessionId, id)).body.comments.map((c) => c.text)).toEqual(["And this"]);
    expect(await remove(OWNER, s.sessionId)).toMatchObject({ status: 200, body: { comments: [] } });
    expect((await list(VIEWER, s.sessionId)).body.comments).toEqual([]);
  });

  it("bad input is refused and stores nothing", async () => {
    const s = await start();
    for (const bad of [comment("   "), { ...comment("x"), line: 0 }, { ...comment("x"), path: "" }, { ...comment("x"), text: "y".repeat(4001) }, { ...comment("x"), quoted: "q".repeat(4001) }, { text: "x" }])
      expect(await add(OWNER, s.sessionId, bad)).toMatchObject({ status: 400, body: { error: { code: "BAD_REQUEST" } } });
    expect((await as(OWNER, `/api/sessions/${s.sessionId}/review`, { method: "POST", body: "{nope" })).status).toBe(400);
    expect((await list(OWNER, s.sessionId)).body.comments).toEqual([]);
  });

  it(`a review holds at most ${MAX_REVIEW_COMMENTS} comments: the next is refused until some go`, async () => {
    const s = await start();
    for (let i = 0; i < MAX_REVIEW_COMMENTS; i++) expect((await add(i % 2 ? MEMBER : OWNER, s.sessionId, comment(`c${i}`, i + 1))).status).toBe(201);
    expect(await add(OWNER, s.sessionId, comment("one too many"))).toMatchObject({ status: 409, body: { error: { code: "REVIEW_FULL" } } });
    const all = (await list(OWNER, s.sessionId)).body.comments;
    expect(all).toHaveLength(MAX_REVIEW_COMMENTS);
    expect(all.some((c) => c.text === "one too many")).toBe(false);
    await remove(OWNER, s.sessionId, all[0]!.id);
    expect((await add(OWNER, s.sessionId, comment("now it fits"))).status).toBe(201);
  });

  it("a comment belongs to its session: another session's routes neither list nor delete it", async () => {
    const s = await start();
    const mine = (await add(OWNER, s.sessionId, comment("here"))).body.comments[0]!;
    expect((await add(OWNER, s.otherId, comment("there"))).status).toBe(201);
    expect((await list(OWNER, s.otherId)).body.comments.map((c) => c.text)).toEqual(["there"]);
    // Deleting this session's comment through the other session's route deletes nothing.
    expect((await remove(OWNER, s.otherId, mine.id)).body.comments.map((c) => c.text)).toEqual(["there"]);
    expect((await list(OWNER, s.sessionId)).body.comments.map((c) => c.id)).toEqual([mine.id]);
    // The member of this session is a stranger to the other one.
    expect(await add(MEMBER, s.otherId, comment("x"))).toMatchObject({ status: 404 });
    expect(await remove(MEMBER, s.otherId)).toMatchObject({ status: 404 });
    // Clearing the other session's review leaves this one's.
    await remove(OWNER, s.otherId);
    expect((await list(OWNER, s.sessionId)).body.comments).toHaveLength(1);
  });
});

describe("review changes reach every viewer live", () => {
  const versions = (v: AuthedViewer) => v.frames.flatMap((f) => (f.type === "review" ? [f.version] : []));

  it("each add, delete and clear is a review frame with the next version on every socket; a joiner gets the current one", async () => {
    const s = await start();
    const owner = await AuthedViewer.open(s.sessionId, await asUser(OWNER));
    const viewer = await AuthedViewer.open(s.sessionId, await asUser(VIEWER));
    const elsewhere = await AuthedViewer.open(s.otherId, await asUser(OWNER));
    // Nothing changed yet: no frame on join.
    expect(versions(owner)).toEqual([]);
    const added = await add(MEMBER, s.sessionId, comment("Look here"));
    // The route answers after the room has sent the frame: both sockets hold it (or are about to).
    await waitFor(() => versions(owner).length === 1 && versions(viewer).length === 1, "version 1 on both sockets");
    expect([versions(owner), versions(viewer)]).toEqual([[1], [1]]);
    await add(OWNER, s.sessionId, comment("And here", 7));
    await remove(MEMBER, s.sessionId, added.body.comments[0]!.id);
    await waitFor(() => versions(viewer).length === 3, "version 3");
    // Refused writes and deletes that delete nothing change nothing, so nobody is told.
    await add(VIEWER, s.sessionId, comment("no"));
    await remove(OWNER, s.sessionId, "no-such-comment");
    await remove(OWNER, s.sessionId);
    await waitFor(() => versions(viewer).length === 4, "version 4");
    await remove(OWNER, s.sessionId);
    expect((await list(VIEWER, s.sessionId)).body.comments).toEqual([]);
    const late = await AuthedViewer.open(s.sessionId, await asUser(MEMBER));
    await waitFor(() => versions(late).length, "the joiner's review frame");
    expect(versions(late)).toEqual([4]);
    expect([versions(owner), versions(viewer)]).toEqual([
      [1, 2, 3, 4],
      [1, 2, 3, 4],
    ]);
    // Another session's sockets hear nothing of it.
    expect(versions(elsewhere)).toEqual([]);
    for (const v of [owner, viewer, elsewhere, late]) v.close();
  });
});
