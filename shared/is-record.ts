/** A plain JSON object (not null, not an array): what reading an untyped ACP or wire value starts with. */
export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
