import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LoggedChanges } from "../../../shared/changes-from-log";
import type { WorktreeDiff } from "../../../shared/worktree";
import { ChangesPanel } from "./ChangesPanel";

const A = "a".repeat(40);
const B = "b".repeat(40);
const LOG: LoggedChanges = {
  files: [{ path: "logged.ts", oldText: "1", newText: "2", hasDiff: true }],
  turns: [
    { index: 0, messageId: "m1", files: [{ path: "logged.ts", oldText: "1", newText: "2", hasDiff: true }], trees: { from: A, to: B } },
    { index: 1, messageId: "m2", files: [{ path: "other.ts", oldText: null, newText: "x", hasDiff: true }] },
  ],
  truncated: false,
};
const TURN_DIFF: WorktreeDiff = { base: null, files: [{ path: "from-git.ts", oldPath: null, status: "added", binary: false, patch: "@@ -0,0 +1 @@\n+hi\n", truncated: false }], note: null };
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

afterEach(() => vi.unstubAllGlobals());

function serve(asked: string[], turnDiff: () => Response = () => json(TURN_DIFF)) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      asked.push(url);
      if (url === "/api/sessions/s1/review") return json({ comments: [] });
      if (url === "/api/sessions/s1/changes") return json(LOG);
      if (url === "/api/sessions/s1/git/diff") return json({ base: "main", files: [], note: null });
      if (url === `/api/sessions/s1/git/diff?from=${A}&to=${B}`) return turnDiff();
      return new Response("{}", { status: 404 });
    }),
  );
}

const openLog = async () => {
  fireEvent.click(await screen.findByRole("button", { name: "From the log" }));
  return screen.findByRole("combobox", { name: "Turn" });
};

describe("the changes view's turns", () => {
  it("online, a turn with snapshots is read from git; one without, from the log", async () => {
    const asked: string[] = [];
    serve(asked);
    render(() => <ChangesPanel sessionId="s1" against="base" online canAct send={async () => true} onClose={() => {}} />);
    const turn = await openLog();
    expect(screen.getByRole("option", { name: "Turn 1 · from git" })).toBeTruthy();
    expect(screen.getByRole("option", { name: "Turn 2" })).toBeTruthy();
    fireEvent.change(turn, { target: { value: "0" } });
    expect(await screen.findByText("from-git.ts")).toBeTruthy();
    expect(screen.queryByText("logged.ts")).toBeNull();
    expect(asked).toContain(`/api/sessions/s1/git/diff?from=${A}&to=${B}`);
    fireEvent.change(turn, { target: { value: "1" } });
    expect(await screen.findByText("other.ts")).toBeTruthy();
  });

  it("offline, or when git cannot answer, the turn comes from the log", async () => {
    const asked: string[] = [];
    serve(asked, () => new Response(JSON.stringify({ error: { code: "MACHINE_OFFLINE", message: "the machine is offline" } }), { status: 409 }));
    const { unmount } = render(() => <ChangesPanel sessionId="s1" against="base" online canAct send={async () => true} onClose={() => {}} />);
    fireEvent.change(await openLog(), { target: { value: "0" } });
    await waitFor(() => expect(asked).toContain(`/api/sessions/s1/git/diff?from=${A}&to=${B}`));
    expect(await screen.findByText("logged.ts")).toBeTruthy();
    unmount();
    asked.length = 0;
    render(() => <ChangesPanel sessionId="s1" against="base" online={false} canAct send={async () => true} onClose={() => {}} />);
    const turn = await screen.findByRole("combobox", { name: "Turn" });
    expect(screen.getByRole("option", { name: "Turn 1" })).toBeTruthy();
    fireEvent.change(turn, { target: { value: "0" } });
    expect(await screen.findByText("logged.ts")).toBeTruthy();
    expect(asked.some((u) => u.includes("from="))).toBe(false);
  });
});
