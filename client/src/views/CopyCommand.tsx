import Check from "lucide-solid/icons/check";
import Copy from "lucide-solid/icons/copy";
import { createSignal, Show } from "solid-js";
import { toast } from "../lib/toasts";

/** How long the copy button shows its tick. */
const COPIED_MS = 2_000;

/** A shell command on a dark strip with a copy button. */
export function CopyCommand(props: { command: string; label: string; testId?: string }) {
  const [copied, setCopied] = createSignal(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.command);
      setCopied(true);
      setTimeout(() => setCopied(false), COPIED_MS);
    } catch {
      toast("Copy failed — select the command and copy it by hand", "error");
    }
  };
  return (
    <div class="command">
      <pre class="mono" data-testid={props.testId}>{props.command}</pre>
      <button type="button" class="icon-btn" aria-label={`Copy ${props.label}`} title="Copy" onClick={() => void copy()} data-testid={props.testId && `${props.testId}-copy`}>
        <Show when={copied()} fallback={<Copy size={16} />}>
          <Check size={16} />
        </Show>
      </button>
    </div>
  );
}
