import { render, screen, waitFor } from "@solidjs/testing-library";
import { createRoot, createSignal } from "solid-js";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ReviewComment } from "../../../shared/review-message";
import { followReview } from "../session/follow-review";
import { ChangesPanel } from "./ChangesPanel";

const comment = (id: string, text: string, line = 3): ReviewComment => ({ id, path: "src/app.ts", line, endLine: line, quoted: "x", text, author: "Ann", createdAt: 1 });
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

afterEach(() => vi.unstubAllGlobals());

describe("the review follows the session's review frames", () => {
  it("another viewer's comment appears, and a removed one goes, when the version moves; nothing is read before", async () => {
    let comments = [comment("c1", "Rename this")];
    const reads: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        if (url === "/api/sessions/s1/review") {
          reads.push(url);
          return json({ comments });
        }
        if (url === "/api/sessions/s1/changes") return json({ files: [], turns: [], truncated: false });
        return new Response("{}", { status: 404 });
      }),
    );
    const [version, setVersion] = createSignal(3);
    render(() => <ChangesPanel sessionId="s1" against="head" online={false} canAct reviewVersion={version()} send={async () => true} onClose={() => {}} />);
    expect(await screen.findByText("Rename this")).toBeTruthy();
    expect(reads).toHaveLength(1);
    comments = [comment("c1", "Rename this"), comment("c2", "And split this function", 9)];
    setVersion(4);
    expect(await screen.findByText("And split this function")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Send review (2)" })).toBeTruthy();
    comments = [];
    setVersion(5);
    await waitFor(() => expect(screen.queryByRole("region", { name: "Review" })).toBeNull());
    expect(reads).toHaveLength(3);
  });

  it("applies only the latest read: an older answer arriving late is dropped; a failed read keeps the list", async () => {
    const answers: { resolve: (c: ReviewComment[]) => void; reject: (e: Error) => void }[] = [];
    const applied: string[][] = [];
    const [version, setVersion] = createSignal(1);
    const dispose = createRoot((d) => {
      followReview(version, () => new Promise((resolve, reject) => answers.push({ resolve, reject })), (c) => applied.push(c.map((x) => x.text)));
      return d;
    });
    expect(answers).toHaveLength(0);
    setVersion(2);
    setVersion(3);
    expect(answers).toHaveLength(2);
    answers[1]!.resolve([comment("a", "newer")]);
    await Promise.resolve();
    answers[0]!.resolve([comment("a", "older")]);
    await new Promise((r) => setTimeout(r, 0));
    expect(applied).toEqual([["newer"]]);
    setVersion(4);
    answers[2]!.reject(new Error("offline"));
    await new Promise((r) => setTimeout(r, 0));
    expect(applied).toEqual([["newer"]]);
    dispose();
  });
});
