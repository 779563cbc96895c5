/**
 * Dictation where the browser offers speech recognition (Chrome's `webkitSpeechRecognition`, Safari, Edge):
 * feature-detected — absent, the Sender shows no microphone. Finished phrases go into the draft; it never sends.
 */

/** The part of the Web Speech API used here (lib.dom has no types for it). */
export type Recognition = {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  start(): void;
  stop(): void;
  onresult: ((e: { resultIndex: number; results: ArrayLike<{ isFinal: boolean; 0: { transcript: string } }> }) => void) | null;
  onend: (() => void) | null;
  onerror: ((e: { error: string }) => void) | null;
};
type RecognitionClass = new () => Recognition;

export function speechRecognition(w: object = globalThis): RecognitionClass | null {
  const c = Reflect.get(w, "SpeechRecognition") ?? Reflect.get(w, "webkitSpeechRecognition");
  return typeof c === "function" ? (c as RecognitionClass) : null;
}

/** The draft text with a dictated phrase appended (a space between, none doubled). */
export function appendDictation(text: string, phrase: string): string {
  const p = phrase.trim();
  if (!p) return text;
  return !text || /\s$/.test(text) ? `${text}${p}` : `${text} ${p}`;
}

/** Errors that mean "no permission / no microphone": said once, not retried. */
export function dictationError(code: string): string | null {
  switch (code) {
    case "not-allowed":
    case "service-not-allowed":
      return "Dictation needs the microphone: allow it in the browser's site settings.";
    case "audio-capture":
      return "No microphone was found for dictation.";
    case "network":
      return "Dictation needs a connection to the browser's speech service.";
    case "no-speech":
    case "aborted":
      return null;
    default:
      return `Dictation stopped (${code}).`;
  }
}
