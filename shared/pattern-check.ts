/**
 * An agent's JSON Schema `pattern` checked against a person's value in linear time (RE2): the pattern is the
 * agent's and the value a person's, and a backtracking engine (RegExp) took seconds for a pattern as plain as
 * `^([a-zA-Z0-9]+\s?)*$` against 30 characters — in the room, on the thread every viewer shares. RE2 has no
 * backreferences or lookaround: a pattern it cannot compile checks nothing, as an invalid RegExp did not.
 */
import { RE2JS } from "re2js";
import type { PatternCheck } from "./elicitation-form";

export const patternMatches: PatternCheck = (pattern, value) => {
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch {
    return true; // an agent's pattern we cannot compile is not the person's fault
  }
  return re.test(value);
};
