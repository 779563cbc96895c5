import { lazy, Suspense } from "solid-js";

/** Thumbnails (and their full-size dialog) load when the first image is shown, not with the page. */
const ImageThumb = lazy(() => import("./ComposerTools").then((m) => ({ default: m.ImageThumb })));

export function LazyImageThumb(props: { mimeType: string; data: string; label: string; class?: string }) {
  return (
    <Suspense>
      <ImageThumb mimeType={props.mimeType} data={props.data} label={props.label} class={props.class} />
    </Suspense>
  );
}
