import Mic from "lucide-solid/icons/mic";
import MicOff from "lucide-solid/icons/mic-off";
import { createSignal, onCleanup, Show } from "solid-js";
import { appendDictation, dictationError, type Recognition, speechRecognition } from "../composer/speech";

/** A microphone that dictates into the draft, where the browser has speech recognition; nothing otherwise. */
export function VoiceButton(props: { text: () => string; onText: (text: string) => void; disabled: boolean; onError: (message: string) => void }) {
  const Speech = speechRecognition();
  const [listening, setListening] = createSignal(false);
  let rec: Recognition | null = null;
  const stop = () => rec?.stop();
  onCleanup(stop);
  const start = () => {
    if (!Speech) return;
    rec = new Speech();
    rec.continuous = true;
    rec.interimResults = false;
    rec.lang = navigator.language || "en-US";
    rec.onresult = (e) => {
      for (let i = e.resultIndex; i < e.results.length; i++) {
        const r = e.results[i];
        if (r?.isFinal) props.onText(appendDictation(props.text(), r[0].transcript));
      }
    };
    rec.onerror = (e) => {
      const m = dictationError(e.error);
      if (m) props.onError(m);
    };
    rec.onend = () => {
      setListening(false);
      rec = null;
    };
    rec.start();
    setListening(true);
  };
  return (
    <Show when={Speech}>
      <button
        type="button"
        class="icon-btn voice-btn"
        classList={{ listening: listening() }}
        aria-label={listening() ? "Stop dictation" : "Dictate"}
        aria-pressed={listening()}
        title={listening() ? "Stop dictation" : "Dictate into the message (it is not sent by itself)"}
        disabled={props.disabled}
        data-testid="voice-button"
        onClick={() => (listening() ? stop() : start())}
      >
        {listening() ? <MicOff size={18} aria-hidden="true" /> : <Mic size={18} aria-hidden="true" />}
      </button>
    </Show>
  );
}
