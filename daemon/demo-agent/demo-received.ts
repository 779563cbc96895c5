/** What the demo agent says it received beyond text (issue 29 #3): one line per resource link, by its name. */

/** "I received a link to src/app.ts." per `resource_link` block of the prompt; "" without any. */
export function receivedLinks(prompt: readonly { type: string; name?: unknown; uri?: unknown }[]): string {
  const lines = prompt
    .filter((b) => b.type === "resource_link")
    .map((b) => `I received a link to ${typeof b.name === "string" && b.name ? b.name : String(b.uri)}.`);
  return lines.length ? `${lines.join("\n\n")}\n\n` : "";
}
