import Copy from "lucide-solid/icons/copy";
import KeyRound from "lucide-solid/icons/key-round";
import { createSignal, For, Show } from "solid-js";
import type { AuthMethod } from "../../../shared/viewer-protocol";

type Props = {
  /** The agent's label ("Codex"), when known. */
  agent: string | null;
  /** The machine's name, when known. */
  machine: string | null;
  methods: readonly AuthMethod[];
  /** Writes text to the clipboard (navigator.clipboard by default). */
  copy?: (text: string) => Promise<void>;
};

/** How long "Copied" shows on a copy button. */
const COPIED_MS = 2_000;

const clipboardCopy = (text: string) => navigator.clipboard.writeText(text);

/**
 * The agent would not start without a login: what it advertised (`authMethods`) and, where known, the
 * command to run on the machine. Baton cannot log in for the user: the agent's credentials live there.
 */
export function AuthHelp(props: Props) {
  const [copied, setCopied] = createSignal<string | null>(null);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const copy = async (m: AuthMethod) => {
    if (!m.command) return;
    try {
      await (props.copy ?? clipboardCopy)(m.command);
      setCopied(m.id);
      clearTimeout(timer);
      timer = setTimeout(() => setCopied(null), COPIED_MS);
    } catch {
      setCopied(null);
    }
  };
  return (
    <section class="auth-help" role="region" aria-labelledby="auth-help-title" data-testid="auth-help">
      <div class="card-label">
        <KeyRound size={15} aria-hidden="true" />
        <span>Login needed</span>
      </div>
      <h2 class="auth-title" id="auth-help-title">
        {props.agent ?? "The agent"} needs a login on {props.machine ?? "its machine"}
      </h2>
      <p class="auth-lead">Run one of these on that machine, then start a new session.</p>
      <ul class="auth-methods">
        <For each={props.methods}>
          {(m) => (
            <li class="auth-method" data-testid="auth-method">
              <div class="auth-name">{m.name}</div>
              <Show when={m.description}>
                <div class="auth-desc">{m.description}</div>
              </Show>
              <Show when={m.command}>
                {(cmd) => (
                  <div class="auth-command">
                    <code data-testid="auth-command">{cmd()}</code>
                    <button
                      class="btn btn-quiet auth-copy"
                      aria-label={`Copy "${cmd()}"`}
                      onClick={() => void copy(m)}
                    >
                      <Copy size={15} aria-hidden="true" />
                      <span aria-live="polite">{copied() === m.id ? "Copied" : "Copy"}</span>
                    </button>
                  </div>
                )}
              </Show>
            </li>
          )}
        </For>
      </ul>
    </section>
  );
}
