/**
 * One line per reliability figure (issue 8): what was measured, how many, the result, time to converge.
 * Lines start with "FIGURE" so a run's figures can be pulled out with `grep FIGURE`.
 */
export function figure(what: string, count: string, result: string, convergeMs: number | null): void {
  const converge = convergeMs === null ? "n/a" : `${Math.round(convergeMs)} ms`;
  console.log(`FIGURE ${what} | ${count} | ${result} | converged in ${converge}`);
}

/** Max and median of durations, for figures that repeat a measurement. */
export function spread(ms: readonly number[]): { max: number; median: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { max: s.at(-1) ?? 0, median: s[Math.floor(s.length / 2)] ?? 0 };
}
