/** Exhaustiveness check for switches over a union: a new variant becomes a type error where it is unhandled. */
export function assertNever(x: never): never {
  throw new Error(`unexpected variant: ${JSON.stringify(x)}`);
}
