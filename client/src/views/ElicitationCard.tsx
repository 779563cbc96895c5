/**
 * The agent's form (ACP elicitation, e.g. claude's AskUserQuestion), rendered from its restricted JSON schema:
 * text (a select when it lists choices), number / whole number, yes-no, multi-select. Every viewer sees it;
 * the first valid answer wins, then everyone sees who answered and what.
 */
import ListChecks from "lucide-solid/icons/list-checks";
import CircleCheck from "lucide-solid/icons/circle-check";
import CircleX from "lucide-solid/icons/circle-x";
import { createMemo, createSignal, For, Match, Show, Switch } from "solid-js";
import { checkElicitationContent, formFields, type FormField, patternLeftToTheRoom } from "../../../shared/elicitation-form";
import type { ElicitationRow } from "../../../shared/fold";
import type { ElicitationAction, ElicitationContent } from "../../../shared/viewer-protocol";

type Value = string | boolean | string[];

/** What the person filled in, as the answer's content: empty optional fields are left out. */
function contentOf(fields: FormField[], values: Record<string, Value>): { content: ElicitationContent } | { error: string } {
  const content: ElicitationContent = {};
  for (const f of fields) {
    const v = values[f.name];
    switch (f.type) {
      case "string":
        if (typeof v === "string" && v !== "") content[f.name] = v;
        break;
      case "number":
      case "integer": {
        if (typeof v !== "string" || v.trim() === "") break;
        const n = Number(v);
        if (!Number.isFinite(n)) return { error: `${f.title}: expected a number` };
        content[f.name] = n;
        break;
      }
      case "boolean":
        if (typeof v === "boolean") content[f.name] = v;
        break;
      case "multi":
        if (Array.isArray(v) && (v.length || f.required)) content[f.name] = v;
        break;
      case "unsupported":
        break;
    }
  }
  return { content };
}

const listOf = (v: Value | undefined): string[] => (Array.isArray(v) ? v : []);

function initialValues(fields: FormField[]): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const f of fields) {
    if (f.type === "string") out[f.name] = f.default ?? "";
    else if (f.type === "number" || f.type === "integer") out[f.name] = f.default === null ? "" : String(f.default);
    else if (f.type === "boolean") out[f.name] = f.default ?? false;
    else if (f.type === "multi") out[f.name] = f.default ?? [];
  }
  return out;
}

function answerText(fields: FormField[], content: ElicitationContent | null): string {
  if (!content) return "";
  return fields
    .filter((f) => content[f.name] !== undefined)
    .map((f) => {
      const v = content[f.name]!;
      const choices = f.type === "string" || f.type === "multi" ? (f.choices ?? []) : [];
      const name = (x: string) => choices.find((c) => c.value === x)?.title ?? x;
      const shown = Array.isArray(v) ? v.map(name).join(", ") : typeof v === "boolean" ? (v ? "yes" : "no") : typeof v === "string" ? name(v) : String(v);
      return `${f.title}: ${shown}`;
    })
    .join(" · ");
}

export function ElicitationCard(props: {
  row: ElicitationRow;
  canAct: boolean;
  /** Resolves with the server's refusal (shown on the card), or null once accepted. */
  onRespond: (requestId: string, action: ElicitationAction, content?: ElicitationContent) => Promise<string | null>;
}) {
  const fields = createMemo(() => formFields(props.row.requestedSchema));
  const [values, setValues] = createSignal<Record<string, Value>>(initialValues(fields()));
  const [error, setError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);
  const idFor = (name: string) => `elicit-${props.row.requestId}-${name}`;
  const set = (name: string, v: Value) => {
    setValues((prev) => ({ ...prev, [name]: v }));
    setError(null); // a complaint about the old values would mislead
  };

  const send = async (action: ElicitationAction, content?: ElicitationContent) => {
    setBusy(true);
    setError(null);
    const refused = await props.onRespond(props.row.requestId, action, content);
    setBusy(false);
    if (refused) setError(refused);
  };
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    const built = contentOf(fields(), values());
    if ("error" in built) return setError(built.error);
    const check = checkElicitationContent(props.row.requestedSchema, built.content, patternLeftToTheRoom);
    if (!check.ok) return setError(check.message);
    void send("accept", built.content);
  };
  const resolvedText = () => {
    const r = props.row.resolved;
    if (!r) return "";
    const who = r.by ? ` by ${r.by.name}` : "";
    switch (r.action) {
      case "accept": {
        const answer = answerText(fields(), r.content);
        return `Answered${who}${answer ? ` — ${answer}` : ""}`;
      }
      case "decline":
        return `Declined${who}`;
      case "cancel":
        return r.by ? `Dismissed${who}` : "Cancelled — the turn ended before an answer";
    }
  };
  const disabled = () => !props.canAct || busy();
  const titleId = () => `elicit-${props.row.requestId}-title`;

  return (
    <div class="row permission-card elicitation-card" classList={{ resolved: !!props.row.resolved }} data-testid="elicitation-card">
      <div class="card-label">
        <ListChecks size={15} aria-hidden="true" />
        <span>{props.row.resolved ? "Question" : "The agent asks"}</span>
      </div>
      <div class="perm-title" id={titleId()}>
        {props.row.message || "The agent needs some input"}
      </div>
      <Show
        when={props.row.resolved}
        fallback={
          <form class="elicit-form" aria-labelledby={titleId()} onSubmit={submit} noValidate>
            <For each={fields()}>
              {(f) => (
                <Switch>
                  <Match when={f.type === "string" && f}>
                    {(s) => (
                      <div class="elicit-field">
                        <label for={idFor(s().name)}>
                          {s().title}
                          <Show when={s().required}> <span class="elicit-req">(required)</span></Show>
                        </label>
                        <Show when={s().description}>
                          <p class="elicit-help" id={`${idFor(s().name)}-help`}>{s().description}</p>
                        </Show>
                        <Show
                          when={s().choices}
                          fallback={
                            <input
                              id={idFor(s().name)}
                              class="elicit-input"
                              type={s().format === "email" ? "email" : s().format === "uri" ? "url" : s().format === "date" ? "date" : "text"}
                              value={String(values()[s().name] ?? "")}
                              disabled={disabled()}
                              aria-describedby={s().description ? `${idFor(s().name)}-help` : undefined}
                              onInput={(e) => set(s().name, e.currentTarget.value)}
                            />
                          }
                        >
                          {(choices) => (
                            <select
                              id={idFor(s().name)}
                              class="elicit-input"
                              value={String(values()[s().name] ?? "")}
                              disabled={disabled()}
                              aria-describedby={s().description ? `${idFor(s().name)}-help` : undefined}
                              onChange={(e) => set(s().name, e.currentTarget.value)}
                            >
                              <option value="">Choose…</option>
                              <For each={choices()}>{(c) => <option value={c.value}>{c.title}</option>}</For>
                            </select>
                          )}
                        </Show>
                      </div>
                    )}
                  </Match>
                  <Match when={(f.type === "number" || f.type === "integer") && f}>
                    {(n) => (
                      <div class="elicit-field">
                        <label for={idFor(n().name)}>
                          {n().title}
                          <Show when={n().required}> <span class="elicit-req">(required)</span></Show>
                        </label>
                        <Show when={n().description}>
                          <p class="elicit-help">{n().description}</p>
                        </Show>
                        <input
                          id={idFor(n().name)}
                          class="elicit-input"
                          type="number"
                          inputmode={n().type === "integer" ? "numeric" : "decimal"}
                          step={n().type === "integer" ? "1" : "any"}
                          min={n().minimum ?? undefined}
                          max={n().maximum ?? undefined}
                          value={String(values()[n().name] ?? "")}
                          disabled={disabled()}
                          onInput={(e) => set(n().name, e.currentTarget.value)}
                        />
                      </div>
                    )}
                  </Match>
                  <Match when={f.type === "boolean" && f}>
                    {(b) => (
                      <div class="elicit-field">
                        <label class="elicit-check">
                          <input
                            type="checkbox"
                            checked={values()[b().name] === true}
                            disabled={disabled()}
                            onChange={(e) => set(b().name, e.currentTarget.checked)}
                          />
                          <span>{b().title}</span>
                        </label>
                        <Show when={b().description}>
                          <p class="elicit-help">{b().description}</p>
                        </Show>
                      </div>
                    )}
                  </Match>
                  <Match when={f.type === "multi" && f}>
                    {(m) => (
                      <fieldset class="elicit-field elicit-multi">
                        <legend>
                          {m().title}
                          <Show when={m().required}> <span class="elicit-req">(required)</span></Show>
                        </legend>
                        <Show when={m().description}>
                          <p class="elicit-help">{m().description}</p>
                        </Show>
                        <For each={m().choices}>
                          {(c) => (
                            <label class="elicit-check">
                              <input
                                type="checkbox"
                                checked={listOf(values()[m().name]).includes(c.value)}
                                disabled={disabled()}
                                onChange={(e) => {
                                  const now = listOf(values()[m().name]);
                                  set(m().name, e.currentTarget.checked ? [...now, c.value] : now.filter((x) => x !== c.value));
                                }}
                              />
                              <span>{c.title}</span>
                            </label>
                          )}
                        </For>
                      </fieldset>
                    )}
                  </Match>
                  <Match when={f.type === "unsupported" && f}>
                    {(u) => <p class="elicit-help">{u().title}: this kind of field cannot be answered here.</p>}
                  </Match>
                </Switch>
              )}
            </For>
            <Show when={error()}>
              <p class="elicit-error" role="alert">
                {error()}
              </p>
            </Show>
            <div class="perm-options">
              <button type="submit" class="btn btn-primary" disabled={disabled()}>
                Submit
              </button>
              <button type="button" class="btn btn-quiet" disabled={disabled()} onClick={() => void send("decline")}>
                Decline
              </button>
            </div>
            <Show when={!props.canAct}>
              <p class="perm-hint">Waiting for someone who can answer.</p>
            </Show>
          </form>
        }
      >
        <div class="perm-resolved" data-testid="elicitation-resolved">
          {props.row.resolved?.action === "accept" ? <CircleCheck size={15} aria-hidden="true" /> : <CircleX size={15} aria-hidden="true" />}
          <span>{resolvedText()}</span>
        </div>
      </Show>
    </div>
  );
}
