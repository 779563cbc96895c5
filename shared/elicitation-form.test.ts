import { describe, expect, it } from "vitest";
import { checkElicitationContent as checkWith, formFields, patternLeftToTheRoom } from "./elicitation-form";
import { patternMatches } from "./pattern-check";

/** As the room checks an answer. */
const checkElicitationContent = (schema: unknown, content: Record<string, unknown>) => checkWith(schema, content as never, patternMatches);

/** Not a speed target: the bound of a wedged room. RegExp took 56 s over this test's three patterns here. */
const FREEZE_MS = 5_000;

/** claude-agent-acp's AskUserQuestion form (one select with oneOf, an "Other" text) plus one of each other kind. */
const schema = {
  type: "object",
  properties: {
    q0: { type: "string", title: "Language", oneOf: [{ const: "ts", title: "TypeScript", description: "typed" }, { const: "py", title: "Python" }] },
    q0_custom: { type: "string", title: "Other", description: "Type your own answer" },
    size: { type: "string", enum: ["small", "large"] },
    name: { type: "string", title: "Name", minLength: 1, maxLength: 5, pattern: "^[a-z]+$" },
    mail: { type: "string", format: "email" },
    workers: { type: "integer", minimum: 1, maximum: 8, default: 2 },
    ratio: { type: "number", maximum: 1 },
    tests: { type: "boolean", title: "Add tests", default: true },
    extras: { type: "array", title: "Extras", items: { anyOf: [{ const: "lint", title: "Linting" }, { const: "ci", title: "CI" }] }, maxItems: 1 },
    custom: { type: "_x_color" },
  },
  required: ["q0", "name"],
};

describe("formFields", () => {
  it("reads every property kind in order, with choices, limits, defaults and required", () => {
    const f = formFields(schema);
    expect(f.map((x) => [x.name, x.type, x.required])).toEqual([
      ["q0", "string", true],
      ["q0_custom", "string", false],
      ["size", "string", false],
      ["name", "string", true],
      ["mail", "string", false],
      ["workers", "integer", false],
      ["ratio", "number", false],
      ["tests", "boolean", false],
      ["extras", "multi", false],
      ["custom", "unsupported", false],
    ]);
    expect(f[0]).toMatchObject({ title: "Language", choices: [{ value: "ts", title: "TypeScript", description: "typed" }, { value: "py", title: "Python", description: null }] });
    expect(f[2]).toMatchObject({ title: "size", choices: [{ value: "small", title: "small" }, { value: "large", title: "large" }] });
    expect(f[5]).toMatchObject({ minimum: 1, maximum: 8, default: 2 });
    expect(f[8]).toMatchObject({ choices: [{ value: "lint", title: "Linting", description: null }, { value: "ci", title: "CI", description: null }], maxItems: 1 });
  });
  it("a malformed schema is an empty form, not a crash", () => {
    expect(formFields(null)).toEqual([]);
    expect(formFields({ properties: { a: 5 } })).toEqual([]);
  });
});

describe("checkElicitationContent", () => {
  const ok = { q0: "ts", name: "abc" };
  it("accepts a fitting answer (optional fields may be left out)", () => {
    expect(checkElicitationContent(schema, ok)).toEqual({ ok: true });
    expect(checkElicitationContent(schema, { ...ok, size: "large", mail: "a@b.c", workers: 8, ratio: 0.5, tests: false, extras: ["ci"] })).toEqual({ ok: true });
  });
  it("names the field and the problem", () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ name: "abc" }, "Language is required"],
      [{ ...ok, q0: "rust" }, "Language: not one of the choices"],
      [{ ...ok, name: "toolong" }, "Name: at most 5 characters"],
      [{ ...ok, name: "AB" }, "Name: does not match the expected pattern"],
      [{ ...ok, mail: "nope" }, "mail: not a valid email"],
      [{ ...ok, workers: 2.5 }, "workers: expected a whole number"],
      [{ ...ok, workers: 9 }, "workers: at most 8"],
      [{ ...ok, ratio: "1" }, "ratio: expected a number"],
      [{ ...ok, tests: "yes" }, "Add tests: expected yes or no"],
      [{ ...ok, extras: ["lint", "ci"] }, "Extras: choose at most 1"],
      [{ ...ok, extras: ["deploy"] }, "Extras: not one of the choices"],
      [{ ...ok, custom: "red" }, 'custom: this form\'s field type "_x_color" is not supported'],
      [{ ...ok, extra: 1 }, 'the form has no field "extra"'],
    ];
    for (const [content, message] of bad) expect(checkElicitationContent(schema, content as never)).toEqual({ ok: false, message });
  });

  it("checks an agent's pattern in linear time: patterns that backtrack exponentially answer at once", () => {
    // RegExp took 0.6 s at 26 characters for the first and 6 s at 30 for the second, doubling with each more one.
    const form = (pattern: string) => ({ type: "object", properties: { v: { type: "string", pattern } } });
    const near = `${"a".repeat(29)}!`;
    for (const pattern of ["^(a+)+$", "^([a-zA-Z0-9]+\\s?)*$", "^(a|a)*$"]) {
      expect(checkElicitationContent(form(pattern), { v: near })).toEqual({ ok: false, message: "v: does not match the expected pattern" });
      expect(checkElicitationContent(form(pattern), { v: "aaaa" })).toEqual({ ok: true });
    }
    // JSON Schema's patterns are unanchored and in ECMA-262 syntax; what RE2 cannot compile (a backreference) checks nothing.
    expect(checkElicitationContent(form("\\d{3}"), { v: "call 555 now" })).toEqual({ ok: true });
    expect(checkElicitationContent(form("^\\d{3}$"), { v: "5555" })).toEqual({ ok: false, message: "v: does not match the expected pattern" });
    expect(checkElicitationContent(form("^(a)\\1$"), { v: "ab" })).toEqual({ ok: true });
  }, FREEZE_MS);

  it("the browser leaves patterns to the room (its refusal shows under the form); every other rule it checks alike", () => {
    expect(checkWith(schema, { ...ok, name: "AB" } as never, patternLeftToTheRoom)).toEqual({ ok: true });
    expect(checkWith(schema, { ...ok, name: "toolong" } as never, patternLeftToTheRoom)).toEqual({ ok: false, message: "Name: at most 5 characters" });
  });
});
