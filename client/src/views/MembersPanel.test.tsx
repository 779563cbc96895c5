import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Member } from "../../../shared/api";
import { MembersPanel } from "./MembersPanel";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
let members: Member[];
let requests: { method: string; url: string; body: unknown }[];
let links: { id: string; scope: "signed_in" | "anyone"; createdAt: number; expiresAt: number | null }[];

beforeEach(() => {
  members = [
    { userId: "o", email: "owner@x.io", name: "owner", role: "owner" },
    { userId: "b", email: "bob@x.io", name: "bob", role: "viewer" },
  ];
  requests = [];
  links = [];
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
      const share = "/api/sessions/s1/share-links";
      if (url === share && method === "GET") return json(200, { links });
      if (url === share && method === "POST") {
        const link = { id: `l${links.length + 1}`, scope: body.scope, createdAt: Date.now(), expiresAt: body.expiry === "never" ? null : Date.now() + 7 * 86_400_000 };
        links = [link, ...links];
        return json(201, { link, links, url: `http://localhost/share#${"t".repeat(43)}` });
      }
      if (url.startsWith(`${share}/`) && method === "DELETE") {
        links = links.filter((l) => `${share}/${l.id}` !== url);
        return json(200, { links });
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

  it("lets the owner create a read-only link (shown once), lists it and revokes it", async () => {
    render(() => <MembersPanel sessionId="s1" role="owner" selfId="o" />);
    fireEvent.click(screen.getByTestId("members-button"));
    await waitFor(() => expect(screen.getByText("No active links.")).toBeInTheDocument());
    fireEvent.change(screen.getByLabelText("Link expires after"), { target: { value: "7d" } });
    fireEvent.change(screen.getByLabelText("Who can open the link"), { target: { value: "anyone" } });
    expect(screen.getByText(/No sign-in needed/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Create link" }));
    await waitFor(() => expect(screen.getByLabelText("New link")).toHaveValue(`http://localhost/share#${"t".repeat(43)}`));
    expect(requests.find((r) => r.method === "POST" && r.url.endsWith("/share-links"))!.body).toEqual({ expiry: "7d", scope: "anyone" });
    const revoke = await screen.findByRole("button", { name: "Revoke link: Anyone with the link, expires in 7 days" });
    fireEvent.click(revoke);
    await waitFor(() => expect(screen.getByText("No active links.")).toBeInTheDocument());
    expect(requests.some((r) => r.method === "DELETE" && r.url === "/api/sessions/s1/share-links/l1")).toBe(true);
    // Revoking hides the URL shown at creation.
    expect(screen.queryByLabelText("New link")).toBeNull();
  });

  it("is a read-only list for members and viewers", async () => {
    render(() => <MembersPanel sessionId="s1" role="viewer" selfId="b" />);
    fireEvent.click(screen.getByTestId("members-button"));
    await waitFor(() => expect(screen.getAllByTestId("member-row")).toHaveLength(2));
    expect(screen.queryByTestId("member-add")).toBeNull();
    expect(screen.queryByLabelText("Remove bob@x.io")).toBeNull();
    expect(screen.getByText("Read-only")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Read-only links" })).toBeNull();
    expect(requests.some((r) => r.url.includes("share-links"))).toBe(false);
  });
});
