import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthGate } from "./AuthGate";
import { SignIn } from "./SignIn";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

afterEach(() => vi.unstubAllGlobals());

describe("SignIn", () => {
  it("emails a code, then verifies it and reports the sign-in", async () => {
    const calls: { url: string; body: unknown }[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : null });
        if (url === "/api/auth/code") return json(200, { ok: true, message: "If this address may sign in, a code is on its way." });
        if (url === "/api/auth/verify") {
          const { code } = JSON.parse(String(init!.body));
          return code === "123456" ? json(200, { user: { id: "u", email: "a@x.io", name: "a" } }) : json(401, { error: { code: "BAD_CODE", message: "that code is not right" } });
        }
        return json(404, {});
      }),
    );
    const onSignedIn = vi.fn();
    render(() => <SignIn onSignedIn={onSignedIn} />);
    fireEvent.input(screen.getByTestId("signin-email-input"), { target: { value: " a@x.io " } });
    fireEvent.submit(screen.getByTestId("signin-email"));
    await screen.findByTestId("signin-code");
    expect(screen.getByText(/a code is on its way/)).toBeInTheDocument();
    expect(screen.getByTestId("signin-code-input")).toHaveAttribute("autocomplete", "one-time-code");

    fireEvent.input(screen.getByTestId("signin-code-input"), { target: { value: "000000" } });
    fireEvent.submit(screen.getByTestId("signin-code"));
    expect(await screen.findByRole("alert")).toHaveTextContent("That code is not right.");
    expect(onSignedIn).not.toHaveBeenCalled();

    fireEvent.input(screen.getByTestId("signin-code-input"), { target: { value: "123 456" } });
    fireEvent.submit(screen.getByTestId("signin-code"));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledTimes(1));
    expect(calls.filter((c) => c.url === "/api/auth/verify").at(-1)!.body).toEqual({ email: "a@x.io", code: "123456" });
  });

  it("shows the server's refusal (rate limit) and stays on the email step", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => json(429, { error: { code: "RATE_LIMITED", message: "too many codes requested for this address; try again later" } })));
    render(() => <SignIn onSignedIn={() => {}} />);
    fireEvent.input(screen.getByTestId("signin-email-input"), { target: { value: "a@x.io" } });
    fireEvent.submit(screen.getByTestId("signin-email"));
    expect(await screen.findByRole("alert")).toHaveTextContent(/too many codes/i);
    expect(screen.getByTestId("signin-email")).toBeInTheDocument();
  });
});

describe("AuthGate", () => {
  it("shows the sign-in page when signed out in builtin mode, and the app once signed in", async () => {
    let signedIn = false;
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        if (url === "/api/me") return signedIn ? json(200, { id: "u", email: "a@x.io", name: "a", authMode: "builtin" }) : json(401, { error: { code: "UNAUTHENTICATED", message: "sign in required" } });
        if (url === "/api/auth/config") return json(200, { mode: "builtin" });
        if (url === "/api/auth/code") return json(200, { ok: true, message: "sent" });
        if (url === "/api/auth/verify") {
          signedIn = true;
          return json(200, { user: {} });
        }
        return json(404, {});
      }),
    );
    render(() => (
      <AuthGate>
        <p>the app</p>
      </AuthGate>
    ));
    await screen.findByTestId("signin-email");
    expect(screen.queryByText("the app")).toBeNull();
    fireEvent.input(screen.getByTestId("signin-email-input"), { target: { value: "a@x.io" } });
    fireEvent.submit(screen.getByTestId("signin-email"));
    fireEvent.input(await screen.findByTestId("signin-code-input"), { target: { value: "123456" } });
    fireEvent.submit(screen.getByTestId("signin-code"));
    expect(await screen.findByText("the app")).toBeInTheDocument();
  });

  it("explains Access expiry instead of a sign-in form", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => (url === "/api/auth/config" ? json(200, { mode: "access" }) : json(401, { error: { code: "UNAUTHENTICATED", message: "x" } }))),
    );
    render(() => (
      <AuthGate>
        <p>the app</p>
      </AuthGate>
    ));
    expect(await screen.findByText(/Access session has ended/)).toBeInTheDocument();
    expect(screen.queryByTestId("signin-email")).toBeNull();
  });

  it("returns to the sign-in page when a later call finds the session gone", async () => {
    let signedIn = true;
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        if (url === "/api/me") return signedIn ? json(200, { id: "u", email: "a@x.io", name: "a", authMode: "builtin" }) : json(401, { error: { code: "UNAUTHENTICATED", message: "x" } });
        if (url === "/api/auth/config") return json(200, { mode: "builtin" });
        return json(401, { error: { code: "UNAUTHENTICATED", message: "sign in required" } });
      }),
    );
    const { api } = await import("../lib/api");
    render(() => (
      <AuthGate>
        <p>the app</p>
      </AuthGate>
    ));
    await screen.findByText("the app");
    signedIn = false;
    await expect(api.sessions()).rejects.toThrow();
    await screen.findByTestId("signin-email");
  });
});
