/**
 * The Sender's attach adapter: files from the picker, the camera, a paste or a drop go through the rules of
 * attachments.ts (images resized first, by the lazily loaded image-resize.ts) into the draft — or, when they
 * cannot, to a clear error with the draft untouched. One file at a time, in order.
 */
import { createSignal } from "solid-js";
import type { ConfigState } from "../../../shared/viewer-protocol";
import type { Attachment, Draft } from "../session/composer-logic";
import { cannotAdd, decodeText, fileBlock, type ImageBudget, imageBudget, imageOffer, isImageFile, looksLikeText } from "./attachments";
import type { FittedImage } from "./image-resize";

/** Resizes an image to a budget: the browser's canvas (loaded on the first attach) unless one is given. */
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

export function createAttach(deps: AttachDeps) {
  const [busy, setBusy] = createSignal(false);
  const offer = () => imageOffer(deps.config(), deps.canAct());

  const toBlock = async (file: File): Promise<Attachment | string> => {
    if (isImageFile(file)) {
      const o = offer();
      if (!o.ok) return o.why;
      const fitted = await (deps.fitImage ?? browserFitter)(file, imageBudget(deps.config()));
      return fitted.ok ? fitted.block : fitted.error;
    }
    const text = looksLikeText(file.name, file.type) ? decodeText(new Uint8Array(await file.arrayBuffer())) : null;
    return fileBlock(file, text, deps.config());
  };

  const addFiles = async (files: readonly File[]) => {
    if (!deps.canAct() || files.length === 0) return;
    setBusy(true);
    try {
      for (const file of files) {
        let block: Attachment | string;
        try {
          block = await toBlock(file);
        } catch {
          block = `“${file.name}” could not be read.`;
        }
        if (typeof block === "string") {
          deps.onError(block);
          continue;
        }
        // The draft as it is now (typing went on while the image was resized).
        const draft = deps.draft();
        const why = cannotAdd(draft, block, deps.config());
        if (why) deps.onError(`${why} Your draft is kept.`);
        else deps.onDraft({ ...draft, attachments: [...draft.attachments, block] });
      }
    } finally {
      setBusy(false);
    }
  };

  const filesOf = (list: FileList | null | undefined) => (list ? [...list] : []);
  return {
    busy,
    offer,
    addFiles,
    onPaste(e: ClipboardEvent) {
      const files = filesOf(e.clipboardData?.files);
      if (!files.length) return;
      e.preventDefault();
      void addFiles(files);
    },
    onDragOver(e: DragEvent) {
      if (deps.canAct() && e.dataTransfer?.types.includes("Files")) e.preventDefault();
    },
    onDrop(e: DragEvent) {
      const files = filesOf(e.dataTransfer?.files);
      if (!files.length) return;
      e.preventDefault();
      void addFiles(files);
    },
  };
}
export type Attach = ReturnType<typeof createAttach>;
