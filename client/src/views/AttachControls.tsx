import Camera from "lucide-solid/icons/camera";
import Paperclip from "lucide-solid/icons/paperclip";
import { Show } from "solid-js";
import type { ConfigState } from "../../../shared/viewer-protocol";
import { imageOffer } from "../composer/attachments";

/** Phones (a coarse pointer) get a camera button too; a desktop's file picker already takes images. */
const hasCamera = () => typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;

/** The Sender's attach buttons: a file picker (images and files) and, on phones, the camera. */
export function AttachControls(props: { config: ConfigState | null; canAct: boolean; onFiles: (files: File[]) => void; onError: (message: string) => void }) {
  let files!: HTMLInputElement;
  let camera!: HTMLInputElement;
  const offer = () => imageOffer(props.config, props.canAct);
  const why = () => {
    const o = offer();
    return o.ok ? "" : o.why;
  };
  const picked = (input: HTMLInputElement) => {
    const list = input.files ? [...input.files] : [];
    input.value = "";
    if (list.length) props.onFiles(list);
  };
  return (
    <>
      <button
        type="button"
        class="icon-btn attach-btn"
        aria-label={offer().ok ? "Attach images or files" : "Attach files"}
        title={offer().ok ? "Attach images or files (or paste / drop them)" : `Attach files — ${why()}`}
        disabled={!props.canAct}
        data-testid="attach-button"
        onClick={() => files.click()}
      >
        <Paperclip size={18} aria-hidden="true" />
      </button>
      <input ref={files} type="file" multiple hidden data-testid="attach-input" onChange={(e) => picked(e.currentTarget)} />
      {/* There from the first paint (disabled, as the file picker, until the join says this person may send): appearing with the join moved the buttons after it. */}
      <Show when={hasCamera()}>
        <button
          type="button"
          class="icon-btn attach-btn"
          aria-label="Take a photo"
          title={offer().ok ? "Take a photo" : why()}
          disabled={!props.canAct}
          aria-disabled={!offer().ok}
          data-testid="camera-button"
          onClick={() => (offer().ok ? camera.click() : props.onError(why()))}
        >
          <Camera size={18} aria-hidden="true" />
        </button>
        <input ref={camera} type="file" accept="image/*" capture="environment" hidden data-testid="camera-input" onChange={(e) => picked(e.currentTarget)} />
      </Show>
    </>
  );
}
