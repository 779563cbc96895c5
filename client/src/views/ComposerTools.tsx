import type { ConfigState } from "../../../shared/viewer-protocol";
import { AttachControls } from "./AttachControls";
import { VoiceButton } from "./VoiceButton";

// One chunk for what the composer loads after the first paint (attaching, thumbnails, the phone keyboard's inset):
// each chunk of its own would lengthen the preload list in the page's own chunk, which is at its budget.
export { attachFiles } from "../composer/attach-files";
export { AttachmentTray } from "./AttachmentTray";
export { ImageThumb } from "./ImageThumb";
export { watchKeyboardInset } from "../composer/keyboard-inset";

/** The composer's attach and dictation buttons, loaded after the first paint. */
export default function ComposerTools(props: {
  config: ConfigState | null;
  canAct: boolean;
  onFiles: (files: File[]) => void;
  text: () => string;
  onText: (text: string) => void;
  onError: (message: string) => void;
}) {
  return (
    <>
      <AttachControls config={props.config} canAct={props.canAct} onFiles={props.onFiles} onError={props.onError} />
      <VoiceButton text={props.text} onText={props.onText} disabled={!props.canAct} onError={props.onError} />
    </>
  );
}
