import { describe, expect, it } from "vitest";
import { receivedLinks } from "./demo-received";

describe("receivedLinks", () => {
  it("names each resource link of the prompt, by its name (else its URI); nothing without one", () => {
    expect(receivedLinks([{ type: "text" }, { type: "resource_link", name: "src/app.ts", uri: "file:///p/src/app.ts" }])).toBe("I received a link to src/app.ts.\n\n");
    expect(receivedLinks([{ type: "resource_link", name: "", uri: "file:///p/a" }, { type: "resource_link", name: "b.md", uri: "file:///p/b.md" }])).toBe(
      "I received a link to file:///p/a.\n\nI received a link to b.md.\n\n",
    );
    expect(receivedLinks([{ type: "text" }, { type: "image" }])).toBe("");
  });
});
