import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Member } from "../../../shared/api";
import { MembersPanel } from "./MembersPanel";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
let members: Member[];
let requests: { method: string; url: string; body: unknown }[];

beforeEach(() => {
  members = [
    { userId: "o", email: "owner@x.io", name: "owner", role: "owner" },
    { userId: "b", email: "bob@x.io", name: "bob", role: "viewer" },
  ];
  requests = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      const body = init?.body ? JSON.parse(String(init.body)) : null;
      requests.push({ method, url, body });
      const base = "/api/sessions/s1/members";
      if (url === base && method === "GET") return json(200, { members, role: "owner" });
      if (url === base && method === "POST") {
        members = [...members, { userId: "c", email: body.email, name: "carol", role: body.role }];
        return json(201, { members });
      }
      if (url === `${base}/b` && method === "PATCH") {
        members = members.map((m) => (m.userId === "b" ? { ...m, role: body.role } : m));
        return json(200, { members });
      }
      if (url === `${base}/b` && method === "DELETE") {
        members = members.filter((m) => m.userId !== "b");
        return json(200, { members });
      }
      return json(404, { error: { code: "NOT_FOUND", message: "nope" } });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe("MembersPanel", () => {
  it("lets the owner add, re-role and remove members", async () => {
    render(() => <MembersPanel sessionId="s1" role="owner" selfId="o" />);
    fireEvent.click(screen.getByTestId("members-button"));
    await waitFor(() => expect(screen.getAllByTestId("member-row")).toHaveLength(2));
    expect(screen.getAllByTestId("member-row")[0]).toHaveTextContent("owner (you)");

    fireEvent.input(screen.getByTestId("member-email"), { target: { value: "carol@x.io" } });
    fireEvent.change(screen.getByTestId("member-role"), { target: { value: "viewer" } });
    fireEvent.submit(screen.getByTestId("member-add"));
    await waitFor(() => expect(screen.getAllByTestId("member-row")).toHaveLength(3));
    expect(requests.find((r) => r.method === "POST")!.body).toEqual({ email: "carol@x.io", role: "viewer" });

    fireEvent.change(screen.getByLabelText("Role of bob@x.io"), { target: { value: "member" } });
    await waitFor(() => expect(requests.find((r) => r.method === "PATCH")?.body).toEqual({ role: "member" }));

    await waitFor(() => expect(screen.getByLabelText("Remove bob@x.io")).not.toBeDisabled());
    fireEvent.click(screen.getByLabelText("Remove bob@x.io"));
    await waitFor(() => expect(screen.queryByText("bob@x.io")).toBeNull());
  });

  it("is a read-only list for members and viewers", async () => {
    render(() => <MembersPanel sessionId="s1" role="viewer" selfId="b" />);
    fireEvent.click(screen.getByTestId("members-button"));
    await waitFor(() => expect(screen.getAllByTestId("member-row")).toHaveLength(2));
    expect(screen.queryByTestId("member-add")).toBeNull();
    expect(screen.queryByLabelText("Remove bob@x.io")).toBeNull();
    expect(screen.getByText("Read-only")).toBeInTheDocument();
  });
});
