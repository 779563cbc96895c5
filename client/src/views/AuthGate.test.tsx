import { render, screen, waitFor } from "@solidjs/testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthGate } from "./AuthGate";

describe("AuthGate offline", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("no network: a clear 'You're offline' (not a blank page), and the app once the device is back online", async () => {
    let online = false;
    vi.stubGlobal("fetch", async () => {
      if (!online) throw new TypeError("Failed to fetch");
      return new Response(JSON.stringify({ id: "u1", name: "Ann", email: "a@example.com", authMode: "dev" }), { status: 200 });
    });
    render(() => (
      <AuthGate>
        <p>the app</p>
      </AuthGate>
    ));
    expect(await screen.findByRole("heading", { name: "You're offline" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Retry now" })).toBeInTheDocument();
    online = true;
    window.dispatchEvent(new Event("online"));
    await waitFor(() => expect(screen.getByText("the app")).toBeInTheDocument());
  });
});
