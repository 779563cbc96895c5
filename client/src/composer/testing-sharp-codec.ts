/** The component tests' image codec: sharp (libvips), a real decoder and JPEG encoder where jsdom has no canvas. */
import sharp from "sharp";
import type { ImageBudget } from "./attachments";
import { fitImage, type ImageCodec } from "./image-resize";

/** Decoded once to raw pixels (each rung of the ladder resizes from them, as the canvas draws from one bitmap). */
type SharpImage = { width: number; height: number; pixels: Buffer; channels: 1 | 2 | 3 | 4 };

const bytesOf = async (blob: Blob) => Buffer.from(await blob.arrayBuffer());

export const sharpCodec: ImageCodec<SharpImage> = {
  async decode(file) {
    const { data, info } = await sharp(await bytesOf(file)).raw().toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, pixels: data, channels: info.channels };
  },
  async encodeJpeg(image, width, height, quality) {
    const raw = { width: image.width, height: image.height, channels: image.channels };
    const out = await sharp(image.pixels, { raw }).resize(width, height, { fit: "fill" }).flatten({ background: "#fff" }).jpeg({ quality: Math.round(quality * 100) }).toBuffer();
    return out.toString("base64");
  },
  original: async (file) => (await bytesOf(file)).toString("base64"),
};

export const sharpFitter = (file: Blob, budget: ImageBudget) => fitImage(file, budget, sharpCodec);

const made = new Map<string, Promise<Buffer>>();

/**
 * A `width` × `height` image of `format`: grain like a phone photo's, strong noise (JPEG's worst case) or one flat
 * colour (a screenshot's best). Made once per shape and kept (the client project shares its modules across files):
 * sharp's noise takes seconds for 12 megapixels on a loaded machine.
 */
export async function testImage(width: number, height: number, format: "png" | "jpeg", kind: "photo" | "noise" | "flat" = "photo"): Promise<Blob> {
  const key = `${width}x${height}.${format}.${kind}`;
  let buf = made.get(key);
  if (!buf) {
    const grain = (sigma: number) => sharp({ create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma } } });
    const base = kind === "photo" ? grain(6) : kind === "noise" ? grain(40) : sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 220 } } });
    buf = format === "png" ? base.png().toBuffer() : base.jpeg({ quality: 92 }).toBuffer();
    made.set(key, buf);
  }
  return new Blob([new Uint8Array(await buf)], { type: `image/${format}` });
}

/** Width and height of base64 image data, read by sharp. */
export async function sizeOf(data: string): Promise<{ width: number; height: number; format: string }> {
  const m = await sharp(Buffer.from(data, "base64")).metadata();
  return { width: m.width ?? 0, height: m.height ?? 0, format: m.format ?? "" };
}
