import { Suspense } from "solid-js";
import { lazyChunk } from "../lib/load-chunk";

/** Thumbnails (and their full-size dialog) load when the first image is shown, not with the page. */
const ImageThumb = lazyChunk(() => import("./ComposerTools").then((m) => ({ default: m.ImageThumb })));

export function LazyImageThumb(props: { mimeType: string; data: string; label: string; class?: string }) {
  return (
    <Suspense>
      <ImageThumb mimeType={props.mimeType} data={props.data} label={props.label} class={props.class} />
    </Suspense>
  );
}
