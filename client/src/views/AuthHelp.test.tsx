import { fireEvent, render, screen, waitFor, within } from "@solidjs/testing-library";
import { describe, expect, it, vi } from "vitest";
import { AuthHelp } from "./AuthHelp";

const METHODS = [
  { id: "chatgpt", name: "Log in with ChatGPT", description: "Use your ChatGPT plan", command: "codex login" },
  { id: "apikey", name: "API key", description: "Set OPENAI_API_KEY in the daemon's environment", command: null },
];

describe("AuthHelp", () => {
  it("says which agent needs a login on which machine, with each method's name, description and command", () => {
    render(() => <AuthHelp agent="Codex" machine="studio-mac" methods={METHODS} />);
    const card = screen.getByRole("region", { name: "Codex needs a login on studio-mac" });
    const items = within(card).getAllByTestId("auth-method");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("Log in with ChatGPT");
    expect(items[0]).toHaveTextContent("Use your ChatGPT plan");
    expect(within(items[0]!).getByTestId("auth-command")).toHaveTextContent("codex login");
    // A method without a command: no copy button.
    expect(within(items[1]!).queryByRole("button")).toBeNull();
    expect(items[1]).toHaveTextContent("OPENAI_API_KEY");
  });

  it("copies the command to run", async () => {
    const copy = vi.fn(async () => {});
    render(() => <AuthHelp agent="Codex" machine="m" methods={METHODS} copy={copy} />);
    fireEvent.click(screen.getByRole("button", { name: 'Copy "codex login"' }));
    expect(copy).toHaveBeenCalledWith("codex login");
    await waitFor(() => expect(screen.getByRole("button", { name: 'Copy "codex login"' })).toHaveTextContent("Copied"));
  });

  it("falls back to neutral wording when agent or machine are not known yet", () => {
    render(() => <AuthHelp agent={null} machine={null} methods={METHODS} />);
    expect(screen.getByRole("heading")).toHaveTextContent("The agent needs a login on its machine");
  });
});
