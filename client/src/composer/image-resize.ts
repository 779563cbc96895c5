/**
 * Fits an image to what agents accept before it joins a draft: the long side bounded (MAX_IMAGE_LONG_SIDE_PX) and
 * the encoded bytes within the budget (ours, or the agent's own stated limit if smaller). An image already within
 * both goes as it is (a PNG screenshot stays lossless); otherwise it is re-encoded as JPEG down a ladder of
 * qualities, then of smaller sizes, until it fits — or is refused with a clear reason (the draft is untouched).
 * Loaded on the first attach (not in the session page's first paint). The codec is an adapter: the browser's
 * canvas here (`browserCodec`), a real image library in the component test.
 */
import type { ImageBudget } from "./attachments";

export type Decoded = { width: number; height: number };
export type ImageCodec<D extends Decoded> = {
  decode(file: Blob): Promise<D>;
  /** JPEG at `quality` (0–1), `width` × `height`, as base64 without the data: prefix. */
  encodeJpeg(image: D, width: number, height: number, quality: number): Promise<string>;
  /** The file's own bytes as base64. */
  original(file: Blob): Promise<string>;
  release?(image: D): void;
};

export type FittedImage = { ok: true; block: { type: "image"; mimeType: string; data: string }; width: number; height: number } | { ok: false; error: string };

/** Types an agent takes as they are (the ones every model API accepts). */
const PASS_THROUGH_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
/** JPEG qualities tried in turn: 0.85 is visually lossless for photos and screenshots; below 0.5 text blurs. */
const QUALITY_STEPS = [0.85, 0.7, 0.5] as const;
/** Sizes (of the bounded long side) tried when no quality fits; below a third, a screenshot's text is unreadable. */
const SCALE_STEPS = [1, 0.75, 0.5, 0.35] as const;

/** `width` × `height` scaled (never up) so the long side is at most `longSide`. */
export function boundedSize(width: number, height: number, longSide: number): { width: number; height: number } {
  const scale = Math.min(1, longSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

const base64Chars = (bytes: number) => Math.ceil(bytes / 3) * 4;

export async function fitImage<D extends Decoded>(file: Blob, budget: ImageBudget, codec: ImageCodec<D>): Promise<FittedImage> {
  let image: D;
  try {
    image = await codec.decode(file);
  } catch {
    return { ok: false, error: "That image could not be read (is it a PNG, JPEG, GIF or WebP?)." };
  }
  try {
    const { width, height } = image;
    if (PASS_THROUGH_TYPES.has(file.type) && Math.max(width, height) <= budget.longSide && base64Chars(file.size) <= budget.maxChars)
      return { ok: true, block: { type: "image", mimeType: file.type, data: await codec.original(file) }, width, height };
    const bounded = boundedSize(width, height, budget.longSide);
    let last = bounded;
    for (const scale of SCALE_STEPS) {
      const size = boundedSize(bounded.width, bounded.height, Math.max(bounded.width, bounded.height) * scale);
      last = size;
      for (const quality of QUALITY_STEPS) {
        const data = await codec.encodeJpeg(image, size.width, size.height, quality);
        if (data.length <= budget.maxChars) return { ok: true, block: { type: "image", mimeType: "image/jpeg", data }, ...size };
      }
    }
    return {
      ok: false,
      error: `That image is too large to send, even made smaller (${last.width}×${last.height}): the limit is ${Math.round((budget.maxChars * 3) / 4 / 1024)} KB. Your draft is kept.`,
    };
  } finally {
    codec.release?.(image);
  }
}

// ---------------------------------------------------------------- the browser's codec (canvas)

async function blobBase64(blob: Blob): Promise<string> {
  const url = await new Promise<string>((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error("read failed"));
    r.readAsDataURL(blob);
  });
  return url.slice(url.indexOf(",") + 1);
}

export const browserCodec: ImageCodec<ImageBitmap> = {
  // "from-image": a phone photo's EXIF orientation is applied, so it is upright for the agent too.
  decode: (file) => createImageBitmap(file, { imageOrientation: "from-image" }),
  async encodeJpeg(image, width, height, quality) {
    const canvas = typeof OffscreenCanvas === "function" ? new OffscreenCanvas(width, height) : Object.assign(document.createElement("canvas"), { width, height });
    const ctx = canvas.getContext("2d") as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
    if (!ctx) throw new Error("no 2d canvas");
    // JPEG has no transparency: a transparent screenshot goes on white, not black.
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, width, height);
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(image, 0, 0, width, height);
    const blob =
      canvas instanceof HTMLCanvasElement
        ? await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("encode failed"))), "image/jpeg", quality))
        : await canvas.convertToBlob({ type: "image/jpeg", quality });
    return blobBase64(blob);
  },
  original: blobBase64,
  release: (image) => image.close(),
};
