/** `baton attach`: an attached client's ACP prompt as the room's prompt blocks (what a viewer may send). Pure. */
import type * as acp from "@agentclientprotocol/sdk";
import { PromptBlocks, type PromptBlock } from "../../../shared/blocks";

export type BlocksResult = { ok: true; blocks: PromptBlock[] } | { ok: false; message: string };

export function promptBlocksOf(prompt: readonly acp.ContentBlock[]): BlocksResult {
  const blocks: PromptBlock[] = [];
  for (const c of prompt) {
    switch (c.type) {
      case "text":
        blocks.push({ type: "text", text: c.text });
        break;
      case "image":
        blocks.push({ type: "image", mimeType: c.mimeType, data: c.data });
        break;
      case "resource_link":
        blocks.push({ type: "resource_link", uri: c.uri, name: c.name });
        break;
      case "resource":
        // An embedded text file (an editor's @-mention) goes as the room takes it; a binary one as a link to it.
        if ("text" in c.resource)
          blocks.push({ type: "resource", resource: { uri: c.resource.uri, text: c.resource.text, ...(c.resource.mimeType ? { mimeType: c.resource.mimeType } : {}) } });
        else blocks.push({ type: "resource_link", uri: c.resource.uri, name: c.resource.uri.split("/").pop() || c.resource.uri });
        break;
      case "audio":
        return { ok: false, message: "Baton sessions take text, images and file links; audio cannot be sent" };
    }
  }
  const checked = PromptBlocks.safeParse(blocks);
  if (checked.success) return { ok: true, blocks: checked.data };
  const issue = checked.error.issues[0]?.message;
  if (issue === "EMPTY_PROMPT" || blocks.length === 0) return { ok: false, message: "the prompt is empty" };
  if (issue === "PROMPT_TOO_LARGE") return { ok: false, message: "the prompt is larger than a Baton session accepts; send less" };
  return { ok: false, message: `the prompt cannot be sent: ${issue ?? "invalid"}` };
}
