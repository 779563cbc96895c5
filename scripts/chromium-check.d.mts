/** Types of chromium-check.mjs for the TypeScript tests that import it. */
export const DEFAULT_CHROMIUM: string;
export function chromiumPath(env?: Record<string, string | undefined>): string;
export function chromiumProblem(env?: Record<string, string | undefined>): string | null;
