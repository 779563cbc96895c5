/**
 * The Sender's attach adapter: files from the picker, the camera, a paste or a drop go through the rules of
 * attachments.ts (images fitted first, by image-resize.ts) into the draft — or, when they cannot, to a clear
 * error with the draft untouched. One file at a time, in order. Loaded on the first attach (with the attach
 * buttons, after the first paint): the session page's initial JS has a budget.
 */
import type { ConfigState } from "../../../shared/viewer-protocol";
import type { Attachment, Draft } from "../session/composer-logic";
import { cannotAdd, decodeText, fileBlock, type ImageBudget, imageBudget, imageOffer, isImageFile, looksLikeText } from "./attachments";
import type { FittedImage } from "./image-resize";

/** Resizes an image to a budget: the browser's canvas (image-resize.ts) unless one is given. */
export type ImageFitter = (file: Blob, budget: ImageBudget) => Promise<FittedImage>;
const browserFitter: ImageFitter = async (file, budget) => {
  const { fitImage, browserCodec } = await import("./image-resize");
  return fitImage(file, budget, browserCodec);
};

export type AttachDeps = {
  draft: () => Draft;
  onDraft: (d: Draft) => void;
  config: () => ConfigState | null;
  canAct: () => boolean;
  onError: (message: string) => void;
  fitImage?: ImageFitter;
};

async function toBlock(file: File, deps: AttachDeps): Promise<Attachment | string> {
  if (isImageFile(file)) {
    const offer = imageOffer(deps.config(), deps.canAct());
    if (!offer.ok) return offer.why;
    const fitted = await (deps.fitImage ?? browserFitter)(file, imageBudget(deps.config()));
    return fitted.ok ? fitted.block : fitted.error;
  }
  const text = looksLikeText(file.name, file.type) ? decodeText(new Uint8Array(await file.arrayBuffer())) : null;
  return fileBlock(file, text, deps.config());
}

export async function attachFiles(files: readonly File[], deps: AttachDeps): Promise<void> {
  if (!deps.canAct()) return;
  for (const file of files) {
    let block: Attachment | string;
    try {
      block = await toBlock(file, deps);
    } catch {
      block = `“${file.name}” could not be read.`;
    }
    if (typeof block === "string") {
      deps.onError(block);
      continue;
    }
    // The draft as it is now (typing went on while the image was fitted).
    const draft = deps.draft();
    const why = cannotAdd(draft, block, deps.config());
    if (why) deps.onError(`${why} Your draft is kept.`);
    else deps.onDraft({ ...draft, attachments: [...draft.attachments, block] });
  }
}
