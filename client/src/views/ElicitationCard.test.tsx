import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { describe, expect, it, vi } from "vitest";
import type { ElicitationRow } from "../../../shared/fold";
import { ElicitationCard } from "./ElicitationCard";

/** The demo agent's `ask` form: one field of each kind. */
const requestedSchema = {
  type: "object",
  properties: {
    name: { type: "string", title: "Project name", minLength: 1, maxLength: 40 },
    language: { type: "string", title: "Language", description: "Pick one", oneOf: [{ const: "ts", title: "TypeScript" }, { const: "py", title: "Python" }] },
    workers: { type: "integer", title: "Workers", minimum: 1, maximum: 8, default: 2 },
    tests: { type: "boolean", title: "Add tests", default: true },
    extras: { type: "array", title: "Extras", items: { anyOf: [{ const: "lint", title: "Linting" }, { const: "ci", title: "CI" }] } },
  },
  required: ["name", "language"],
};
const row = (over: Partial<ElicitationRow> = {}): ElicitationRow => ({
  kind: "elicitation",
  id: "elicit:e1",
  requestId: "e1",
  message: "A few questions before I scaffold the project",
  requestedSchema,
  toolCallId: null,
  resolved: null,
  ...over,
});

describe("ElicitationCard", () => {
  it("renders every field by its type with accessible names; Submit sends the typed answer", async () => {
    const onRespond = vi.fn(async () => null);
    render(() => <ElicitationCard row={row()} canAct onRespond={onRespond} />);
    expect(screen.getByRole("form", { name: "A few questions before I scaffold the project" })).toBeInTheDocument();
    fireEvent.input(screen.getByRole("textbox", { name: /Project name/ }), { target: { value: "baton" } });
    const language = screen.getByRole("combobox", { name: /Language/ });
    expect([...(language as HTMLSelectElement).options].map((o) => o.text)).toEqual(["Choose…", "TypeScript", "Python"]);
    fireEvent.change(language, { target: { value: "py" } });
    const workers = screen.getByRole("spinbutton", { name: "Workers" });
    expect(workers).toHaveValue(2);
    fireEvent.input(workers, { target: { value: "4" } });
    expect(screen.getByRole("checkbox", { name: "Add tests" })).toBeChecked();
    fireEvent.click(screen.getByRole("checkbox", { name: "CI" }));
    expect(screen.getByRole("group", { name: "Extras" })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    await waitFor(() => expect(onRespond).toHaveBeenCalledOnce());
    expect(onRespond).toHaveBeenCalledWith("e1", "accept", { name: "baton", language: "py", workers: 4, tests: true, extras: ["ci"] });
  });

  it("a missing required field is named before anything is sent; the server's refusal shows on the card", async () => {
    const onRespond = vi.fn(async () => "Language: not one of the choices");
    render(() => <ElicitationCard row={row()} canAct onRespond={onRespond} />);
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Project name is required");
    expect(onRespond).not.toHaveBeenCalled();
    fireEvent.input(screen.getByRole("textbox", { name: /Project name/ }), { target: { value: "x" } });
    fireEvent.change(screen.getByRole("combobox", { name: /Language/ }), { target: { value: "ts" } });
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("Language: not one of the choices"));
  });

  it("an agent's pattern is the room's to check (linear there): the answer goes, and the room's refusal shows", async () => {
    const onRespond = vi.fn(async () => "Slug: does not match the expected pattern");
    const schema = { type: "object", properties: { slug: { type: "string", title: "Slug", pattern: "^([a-z0-9]+-?)*$" } }, required: ["slug"] };
    render(() => <ElicitationCard row={row({ requestedSchema: schema })} canAct onRespond={onRespond} />);
    fireEvent.input(screen.getByRole("textbox", { name: /Slug/ }), { target: { value: `${"a".repeat(20)}!` } });
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    await waitFor(() => expect(onRespond).toHaveBeenCalledWith("e1", "accept", { slug: `${"a".repeat(20)}!` }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Slug: does not match the expected pattern");
  });

  it("Decline sends decline; a read-only viewer sees the form disabled", async () => {
    const onRespond = vi.fn(async () => null);
    const { unmount } = render(() => <ElicitationCard row={row()} canAct onRespond={onRespond} />);
    fireEvent.click(screen.getByRole("button", { name: "Decline" }));
    await waitFor(() => expect(onRespond).toHaveBeenCalledWith("e1", "decline", undefined));
    unmount();
    render(() => <ElicitationCard row={row()} canAct={false} onRespond={onRespond} />);
    expect(screen.getByRole("button", { name: "Submit" })).toBeDisabled();
    expect(screen.getByRole("textbox", { name: /Project name/ })).toBeDisabled();
    expect(screen.getByText("Waiting for someone who can answer.")).toBeInTheDocument();
  });

  it("once answered, everyone sees who answered and what (choice titles, not ids), and no form", () => {
    render(() => (
      <ElicitationCard
        row={row({ resolved: { action: "accept", content: { name: "baton", language: "ts", tests: false, extras: ["lint", "ci"] }, by: { id: "b", name: "Bo" } } })}
        canAct
        onRespond={async () => null}
      />
    ));
    expect(screen.queryByRole("form")).toBeNull();
    expect(screen.getByTestId("elicitation-resolved")).toHaveTextContent(
      "Answered by Bo — Project name: baton · Language: TypeScript · Add tests: no · Extras: Linting, CI",
    );
  });

  it("a form cancelled by the turn's end says so", () => {
    render(() => <ElicitationCard row={row({ resolved: { action: "cancel", content: null, by: null } })} canAct onRespond={async () => null} />);
    expect(screen.getByTestId("elicitation-resolved")).toHaveTextContent("Cancelled — the turn ended before an answer");
  });
});
