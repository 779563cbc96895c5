import { fireEvent, render, screen, waitFor, within } from "@solidjs/testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { UserTokenSummary } from "../../../shared/attach-api";
import { SignIns } from "./SignIns";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
let tokens: UserTokenSummary[];
let deletes: string[];

beforeEach(() => {
  tokens = [
    { id: "t1", name: "work-laptop", createdAt: Date.now() - 2 * 86_400_000, lastUsedAt: Date.now() - 3_600_000 },
    { id: "t2", name: "home-desktop", createdAt: Date.now() - 600_000, lastUsedAt: null },
  ];
  deletes = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === "/api/user-tokens") return json(200, { tokens });
      if (url.startsWith("/api/user-tokens/") && init?.method === "DELETE") {
        deletes.push(url);
        tokens = tokens.filter((t) => `/api/user-tokens/${t.id}` !== url);
        return json(200, { tokens });
      }
      return json(404, { error: { code: "NOT_FOUND", message: "nope" } });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe("Editors and terminals (baton login --user sign-ins)", () => {
  it("lists each sign-in with where and when it was used, and the command to sign in", async () => {
    render(() => <SignIns />);
    const list = await screen.findByRole("list", { name: "Sign-ins" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows[0]).toHaveTextContent("work-laptop");
    expect(rows[0]).toHaveTextContent("last used 1 hr. ago");
    expect(rows[1]).toHaveTextContent("never used");
    expect(screen.getByTestId("user-login-command")).toHaveTextContent(`baton login --user ${location.origin}`);
  });

  it("revokes one after a confirmation; the others stay", async () => {
    render(() => <SignIns />);
    fireEvent.click(await screen.findByRole("button", { name: "Revoke the sign-in on work-laptop" }));
    expect(deletes).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Confirm revoking the sign-in on work-laptop" }));
    await waitFor(() => expect(screen.queryByText("work-laptop")).toBeNull());
    expect(deletes).toEqual(["/api/user-tokens/t1"]);
    expect(screen.getByText("home-desktop")).toBeInTheDocument();
  });
});
