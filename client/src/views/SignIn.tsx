import Mail from "lucide-solid/icons/mail";
import { createSignal, Show } from "solid-js";
import { api, ApiError } from "../lib/api";
import { sentence } from "../lib/format";
import { AuthError } from "./AuthError";
import "../team.css";

/** Built-in sign-in: email → one-time code from the mail → session cookie. */
export function SignIn(props: { onSignedIn: () => void }) {
  const [step, setStep] = createSignal<"email" | "code">("email");
  const [email, setEmail] = createSignal("");
  const [code, setCode] = createSignal("");
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [notice, setNotice] = createSignal<string | null>(null);
  let codeInput: HTMLInputElement | undefined;

  const sendCode = async (e?: Event) => {
    e?.preventDefault();
    if (!email().trim()) return setError("Enter your email address.");
    setBusy(true);
    setError(null);
    try {
      const r = await api.requestCode(email().trim());
      setNotice(r.message);
      setCode("");
      setStep("code");
      queueMicrotask(() => codeInput?.focus());
    } catch (err) {
      setError(err instanceof ApiError ? sentence(err.message) : "Could not send the code.");
    } finally {
      setBusy(false);
    }
  };

  const verify = async (e: Event) => {
    e.preventDefault();
    const digits = code().replace(/\s+/g, "");
    if (!digits) return setError("Enter the code from the email.");
    setBusy(true);
    setError(null);
    try {
      await api.verifyCode(email().trim(), digits);
      props.onSignedIn();
    } catch (err) {
      setError(err instanceof ApiError ? sentence(err.message) : "Could not sign in.");
      setBusy(false);
    }
  };

  return (
    <div class="auth-page">
      <div class="auth-card">
        <div class="brand-mark" aria-hidden="true">
          B
        </div>
        <h1>Sign in to Baton</h1>
        <Show
          when={step() === "code"}
          fallback={
            <form class="auth-form" data-testid="signin-email" onSubmit={sendCode}>
              <p class="auth-help">We will email you a one-time code.</p>
              <label class="auth-field">
                <span>Email</span>
                <input
                  type="email"
                  name="email"
                  autocomplete="email"
                  inputmode="email"
                  autocapitalize="off"
                  spellcheck={false}
                  required
                  value={email()}
                  onInput={(e) => setEmail(e.currentTarget.value)}
                  data-testid="signin-email-input"
                />
              </label>
              <AuthError message={error()} />
              <button class="btn btn-primary auth-submit" type="submit" disabled={busy()} data-testid="signin-send">
                <Mail size={16} aria-hidden="true" /> {busy() ? "Sending…" : "Email me a code"}
              </button>
            </form>
          }
        >
          <form class="auth-form" data-testid="signin-code" onSubmit={verify}>
            <p class="auth-help">
              {notice()} Check <strong>{email().trim()}</strong>.
            </p>
            <label class="auth-field">
              <span>Code</span>
              <input
                ref={codeInput}
                class="auth-code"
                name="code"
                inputmode="numeric"
                autocomplete="one-time-code"
                pattern="[0-9 ]*"
                maxLength={12}
                value={code()}
                onInput={(e) => setCode(e.currentTarget.value)}
                data-testid="signin-code-input"
              />
            </label>
            <AuthError message={error()} />
            <button class="btn btn-primary auth-submit" type="submit" disabled={busy()} data-testid="signin-verify">
              {busy() ? "Signing in…" : "Sign in"}
            </button>
            <div class="auth-links">
              <button type="button" class="link-btn" disabled={busy()} onClick={() => void sendCode()}>
                Send a new code
              </button>
              <button
                type="button"
                class="link-btn"
                onClick={() => {
                  setStep("email");
                  setError(null);
                }}
              >
                Use another address
              </button>
            </div>
          </form>
        </Show>
      </div>
    </div>
  );
}
