/**
 * ACP form elicitation (`elicitation/create`, mode `form`): the form's fields read from its restricted JSON
 * schema (flat object of string / number / integer / boolean / multi-select properties), and an answer checked
 * against it. The room refuses an `accept` whose content does not fit; the client renders `formFields`.
 */
import type { ElicitationContent } from "./viewer-protocol";
import { isRecord } from "./is-record";

export type Choice = { value: string; title: string; description: string | null };

type Common = { name: string; title: string; description: string | null; required: boolean };
export type FormField =
  | (Common & {
      type: "string";
      choices: Choice[] | null;
      minLength: number | null;
      maxLength: number | null;
      pattern: string | null;
      format: string | null;
      default: string | null;
    })
  | (Common & { type: "number" | "integer"; minimum: number | null; maximum: number | null; default: number | null })
  | (Common & { type: "boolean"; default: boolean | null })
  | (Common & { type: "multi"; choices: Choice[]; minItems: number | null; maxItems: number | null; default: string[] | null })
  /** A property type this client does not know (ACP reserves `_…` for extensions): shown, never sent. */
  | (Common & { type: "unsupported"; schemaType: string });

const str = (x: unknown): string | null => (typeof x === "string" ? x : null);
const num = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);

function choicesFrom(list: unknown, enumList: unknown): Choice[] | null {
  if (Array.isArray(list)) {
    const out = list
      .filter(isRecord)
      .flatMap((o) => (typeof o["const"] === "string" ? [{ value: o["const"], title: str(o["title"]) ?? o["const"], description: str(o["description"]) }] : []));
    if (out.length) return out;
  }
  if (Array.isArray(enumList)) {
    const out = enumList.filter((v): v is string => typeof v === "string").map((v) => ({ value: v, title: v, description: null }));
    if (out.length) return out;
  }
  return null;
}

/** The fields of a form, in the schema's order. */
export function formFields(schema: unknown): FormField[] {
  const props = isRecord(schema) && isRecord(schema["properties"]) ? schema["properties"] : {};
  const required = new Set(isRecord(schema) && Array.isArray(schema["required"]) ? schema["required"].filter((r) => typeof r === "string") : []);
  const out: FormField[] = [];
  for (const [name, p] of Object.entries(props)) {
    if (!isRecord(p)) continue;
    const common: Common = { name, title: str(p["title"]) ?? name, description: str(p["description"]), required: required.has(name) };
    const type = str(p["type"]) ?? "";
    switch (type) {
      case "string":
        out.push({
          ...common,
          type: "string",
          choices: choicesFrom(p["oneOf"], p["enum"]),
          minLength: num(p["minLength"]),
          maxLength: num(p["maxLength"]),
          pattern: str(p["pattern"]),
          format: str(p["format"]),
          default: str(p["default"]),
        });
        break;
      case "number":
      case "integer":
        out.push({ ...common, type, minimum: num(p["minimum"]), maximum: num(p["maximum"]), default: num(p["default"]) });
        break;
      case "boolean":
        out.push({ ...common, type: "boolean", default: typeof p["default"] === "boolean" ? p["default"] : null });
        break;
      case "array": {
        const items = isRecord(p["items"]) ? p["items"] : {};
        const choices = choicesFrom(items["anyOf"], items["enum"]) ?? [];
        const def = Array.isArray(p["default"]) ? p["default"].filter((v): v is string => typeof v === "string") : null;
        out.push({ ...common, type: "multi", choices, minItems: num(p["minItems"]), maxItems: num(p["maxItems"]), default: def });
        break;
      }
      default:
        out.push({ ...common, type: "unsupported", schemaType: type || "unknown" });
    }
  }
  return out;
}

const FORMATS: Record<string, (v: string) => boolean> = {
  email: (v) => /^[^\s@]+@[^\s@]+$/.test(v),
  uri: (v) => {
    try {
      return new URL(v).protocol.length > 1;
    } catch {
      return false;
    }
  },
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
  "date-time": (v) => /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)),
};

/**
 * Whether `value` matches an agent's `pattern` (JSON Schema: unanchored, ECMA-262 syntax). Given by the caller: the
 * room checks with a linear-time engine (`shared/pattern-check.ts`); the browser leaves it to the room, whose refusal
 * it shows, rather than load that engine into the form's chunk (≈ 45 KB gz).
 */
export type PatternCheck = (pattern: string, value: string) => boolean;
/** The browser's: every value passes here, the room decides (and its message shows under the form). */
export const patternLeftToTheRoom: PatternCheck = () => true;

/** Why one field's value does not fit, or null when it does. */
function fieldProblem(f: FormField, v: unknown, patterns: PatternCheck): string | null {
  switch (f.type) {
    case "string": {
      if (typeof v !== "string") return "expected text";
      if (f.choices && !f.choices.some((c) => c.value === v)) return "not one of the choices";
      if (f.minLength !== null && v.length < f.minLength) return f.minLength === 1 ? "cannot be empty" : `at least ${f.minLength} characters`;
      if (f.maxLength !== null && v.length > f.maxLength) return `at most ${f.maxLength} character${f.maxLength === 1 ? "" : "s"}`;
      if (f.pattern !== null && !patterns(f.pattern, v)) return "does not match the expected pattern";
      const check = f.format ? FORMATS[f.format] : undefined;
      if (check && !check(v)) return `not a valid ${f.format}`;
      return null;
    }
    case "number":
    case "integer":
      if (typeof v !== "number" || !Number.isFinite(v)) return "expected a number";
      if (f.type === "integer" && !Number.isInteger(v)) return "expected a whole number";
      if (f.minimum !== null && v < f.minimum) return `at least ${f.minimum}`;
      if (f.maximum !== null && v > f.maximum) return `at most ${f.maximum}`;
      return null;
    case "boolean":
      return typeof v === "boolean" ? null : "expected yes or no";
    case "multi":
      if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) return "expected a list of choices";
      if (!v.every((x) => f.choices.some((c) => c.value === x))) return "not one of the choices";
      if (new Set(v).size !== v.length) return "a choice is repeated";
      if (f.minItems !== null && v.length < f.minItems) return `choose at least ${f.minItems}`;
      if (f.maxItems !== null && v.length > f.maxItems) return `choose at most ${f.maxItems}`;
      return null;
    case "unsupported":
      return `this form's field type "${f.schemaType}" is not supported`;
    default:
      return assertNeverField(f);
  }
}

function assertNeverField(x: never): never {
  throw new Error(`unexpected field ${JSON.stringify(x)}`);
}

export type ContentCheck = { ok: true } | { ok: false; message: string };

/** An `accept`'s content against the form: every required field present, no unknown field, every value fitting. */
export function checkElicitationContent(schema: unknown, content: ElicitationContent, patterns: PatternCheck): ContentCheck {
  const fields = formFields(schema);
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const name of Object.keys(content)) if (!byName.has(name)) return { ok: false, message: `the form has no field "${name}"` };
  for (const f of fields) {
    const v = content[f.name];
    if (v === undefined) {
      if (f.required) return { ok: false, message: `${f.title} is required` };
      continue;
    }
    const problem = fieldProblem(f, v, patterns);
    if (problem) return { ok: false, message: `${f.title}: ${problem}` };
  }
  return { ok: true };
}
