// Issue 29 #1: an image prompt through the real SessionHost reaches the model as an image part of the request
// (Anthropic `image` with a base64 source for claude; OpenAI Responses `input_image` with a data URL for codex).
// Only the agents that take images through an API the fake model speaks: claude and codex (BATON_AGENTS picks).
import fs from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModel, type FakeModel } from "../fake-model/server";
import { agentHost, START_MS, TURN_MS, tmpDir, type AgentHost } from "./harness";
import { ensureInstalled, selectedAgents } from "./launch";

const AGENTS = selectedAgents().filter((id) => id === "claude" || id === "codex");

/** An image part carrying `data` anywhere in a request body: Anthropic, OpenAI Responses or Chat Completions. */
function imageParts(body: unknown, data: string): unknown[] {
  const found: unknown[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== "object") return;
    const o = v as Record<string, unknown>;
    const source = o.source as Record<string, unknown> | undefined;
    const url = typeof o.image_url === "string" ? o.image_url : typeof (o.image_url as { url?: unknown } | undefined)?.url === "string" ? String((o.image_url as { url: string }).url) : "";
    if ((o.type === "image" && source?.data === data) || ((o.type === "input_image" || o.type === "image_url") && url.endsWith(data))) found.push(o);
    else Object.values(o).forEach(walk);
  };
  walk(body);
  return found;
}

describe.each(AGENTS)("%s: an image prompt reaches the model as an image part", (id) => {
  let model: FakeModel;
  let base: string;
  let a: AgentHost;

  beforeAll(async () => {
    await ensureInstalled([id]);
    model = await startFakeModel();
    base = tmpDir(`baton-image-${id}-`);
    a = agentHost(id, base, model);
    await a.open("s1");
  }, START_MS + 600_000);

  afterAll(async () => {
    await a?.close();
    await model?.close();
    if (base) fs.rmSync(base, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }, 60_000);

  it("text and a PNG in one prompt: the model request holds the image, base64 intact", async () => {
    const png = (await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer()).toString("base64");
    const mark = a.rec.events.length;
    const from = model.requests.length;
    a.send({ t: "prompt", sessionId: "s1", turnId: "t-img", messageId: "m-img", blocks: [{ type: "text", text: "hello, what is in this picture?" }, { type: "image", mimeType: "image/png", data: png }] });
    expect(await a.ended("t-img", TURN_MS, mark)).toMatchObject({ stopReason: "end_turn" });
    const withImage = model.requests.slice(from).filter((r) => imageParts(r.body, png).length > 0);
    expect(withImage.length, `a model request with the image among ${model.requests.length - from}`).toBeGreaterThan(0);
    const part = imageParts(withImage[0]!.body, png)[0] as Record<string, unknown>;
    if (id === "claude") expect(part).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png", data: png } });
    else expect(part).toMatchObject({ type: "input_image", image_url: `data:image/png;base64,${png}` });
  });
});
