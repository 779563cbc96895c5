import { describe, expect, it } from "vitest";
import { MAX_IMAGE_DATA_CHARS, MAX_IMAGE_LONG_SIDE_PX } from "../../../shared/limits";
import { imageBudget } from "./attachments";
import { boundedSize, fitImage } from "./image-resize";
import { sharpCodec, sizeOf, testImage } from "./testing-sharp-codec";

/** A 12-megapixel image made, decoded and fitted by a real codec: seconds on a loaded 2-core machine. */
const HEAVY_MS = 90_000;

const ours = imageBudget(null);

describe("fitting an image to what agents accept (a real codec: sharp)", () => {
  it("a 12-megapixel phone photo (4000 × 3000) comes out within the long side and the bytes, as JPEG", async () => {
    const photo = await testImage(4000, 3000, "jpeg");
    expect(photo.size).toBeGreaterThan(MAX_IMAGE_DATA_CHARS); // it would not fit as it is
    const r = await fitImage(photo, ours, sharpCodec);
    if (!r.ok) throw new Error(r.error);
    expect(r.block.mimeType).toBe("image/jpeg");
    expect(r.block.data.length).toBeLessThanOrEqual(MAX_IMAGE_DATA_CHARS);
    const real = await sizeOf(r.block.data);
    expect(real).toEqual({ width: r.width, height: r.height, format: "jpeg" });
    expect(Math.max(real.width, real.height)).toBeLessThanOrEqual(MAX_IMAGE_LONG_SIDE_PX);
    expect(real.width / real.height).toBeCloseTo(4 / 3, 2);
  }, HEAVY_MS);

  it("a screenshot already within both bounds goes as it is (a PNG stays lossless)", async () => {
    const shot = await testImage(800, 600, "png", "flat");
    const r = await fitImage(shot, ours, sharpCodec);
    if (!r.ok) throw new Error(r.error);
    expect(r.block.mimeType).toBe("image/png");
    expect(r.block.data).toBe(Buffer.from(await shot.arrayBuffer()).toString("base64"));
    expect([r.width, r.height]).toEqual([800, 600]);
  });

  it("an agent's own smaller limit (qwen's maxBytes) is honoured: the image is made smaller to fit it", async () => {
    const budget = imageBudget({ ...CONFIG, imageLimits: { maxBytes: 60_000 } });
    expect(budget.maxChars).toBe(80_000);
    const r = await fitImage(await testImage(2000, 1500, "png", "flat"), budget, sharpCodec);
    if (!r.ok) throw new Error(r.error);
    expect(r.block.data.length).toBeLessThanOrEqual(80_000);
  });

  it("what still does not fit is refused with a clear reason", async () => {
    const budget = imageBudget({ ...CONFIG, imageLimits: { maxBytes: 3_000 } });
    const r = await fitImage(await testImage(2000, 1500, "jpeg", "noise"), budget, sharpCodec);
    expect(r).toMatchObject({ ok: false, error: expect.stringMatching(/too large to send.*limit is 3 KB/) });
  });

  it("a file that is not an image is refused, not thrown", async () => {
    const r = await fitImage(new Blob(["not a png"], { type: "image/png" }), ours, sharpCodec);
    expect(r).toMatchObject({ ok: false, error: expect.stringMatching(/could not be read/) });
  });

  it("boundedSize scales the long side down, never up", () => {
    expect(boundedSize(4000, 3000, 1568)).toEqual({ width: 1568, height: 1176 });
    expect(boundedSize(3000, 4000, 1568)).toEqual({ width: 1176, height: 1568 });
    expect(boundedSize(100, 50, 1568)).toEqual({ width: 100, height: 50 });
  });
});

const CONFIG = { modes: null, models: null, configOptions: [], steering: false, images: true, queueDepth: 1, mergeQueued: false };
