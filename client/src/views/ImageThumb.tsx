import { createSignal, Show } from "solid-js";
import { Modal } from "./Modal";

/** An image block as a thumbnail; a tap (or Enter) shows it full size. */
export function ImageThumb(props: { mimeType: string; data: string; label: string; class?: string }) {
  const [open, setOpen] = createSignal(false);
  const src = () => `data:${props.mimeType};base64,${props.data}`;
  return (
    <>
      <button type="button" class={`image-thumb ${props.class ?? ""}`} aria-label={`${props.label} — show full size`} data-testid="image-thumb" onClick={() => setOpen(true)}>
        <img src={src()} alt="" loading="lazy" decoding="async" />
      </button>
      <Show when={open()}>
        <Modal title={props.label} onClose={() => setOpen(false)} testId="image-full">
          <img class="image-full" src={src()} alt={props.label} />
          <div class="modal-actions">
            <button type="button" class="btn" onClick={() => setOpen(false)}>
              Close
            </button>
          </div>
        </Modal>
      </Show>
    </>
  );
}
