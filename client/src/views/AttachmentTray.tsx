import FileText from "lucide-solid/icons/file-text";
import X from "lucide-solid/icons/x";
import { For, Show } from "solid-js";
import { type Attachment, attachmentLabel } from "../session/composer-logic";
import { ImageThumb } from "./ImageThumb";

/**
 * A draft's attachments above the textarea: images as thumbnails, files as named pills, each removable.
 * `shown`: which of them have a pill (a mentioned file is its chip in the text instead); indexes stay the draft's.
 */
export function AttachmentTray(props: { attachments: readonly Attachment[]; shown?: (a: Attachment) => boolean; onRemove: (index: number) => void }) {
  return (
    <div class="attachments" data-testid="attachments">
      <For each={props.attachments}>
        {(a, i) => (
          <Show when={props.shown?.(a) ?? true}>
            <span class="attachment-pill" classList={{ "attachment-image": a.type === "image" }}>
              {a.type === "image" ? (
                <ImageThumb mimeType={a.mimeType} data={a.data} label={`Image ${i() + 1}`} />
              ) : (
                <>
                  <FileText size={13} aria-hidden="true" />
                  {attachmentLabel(a)}
                </>
              )}
              <button class="pill-x" aria-label={`Remove ${a.type === "image" ? `image ${i() + 1}` : attachmentLabel(a)}`} onClick={() => props.onRemove(i())}>
                <X size={13} />
              </button>
            </span>
          </Show>
        )}
      </For>
    </div>
  );
}
